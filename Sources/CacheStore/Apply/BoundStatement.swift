import Foundation
import GRDB
import GRDBSQLite

/// A prepared statement whose parameters are bound one by one straight from Swift values with the sqlite3 C
/// API, for the rows an apply writes: no `StatementArguments` or `DatabaseValue` array per row. GRDB owns the
/// statement (and finalizes it); the caller binds every parameter it uses, then runs it once.
struct BoundStatement {
  private let statement: Statement
  private let db: Database

  init(_ db: Database, sql: String) throws {
    self.db = db
    statement = try db.makeStatement(sql: sql)
  }

  private var handle: SQLiteStatement { statement.sqliteStatement }

  /// Sets every parameter to NULL (a statement shared by kinds that fill different columns).
  func clear() { sqlite3_clear_bindings(handle) }

  func bind(_ index: Int32, _ text: String?) {
    guard var text else {
      sqlite3_bind_null(handle, index)
      return
    }
    _ = text.withUTF8 { bytes in
      // A null pointer would bind NULL, not the empty string.
      if let base = bytes.baseAddress {
        sqlite3_bind_text(handle, index, base, Int32(bytes.count), Self.transient)
      } else {
        sqlite3_bind_text(handle, index, "", 0, Self.transient)
      }
    }
  }

  func bind(_ index: Int32, _ number: Int64?) {
    guard let number else {
      sqlite3_bind_null(handle, index)
      return
    }
    sqlite3_bind_int64(handle, index, number)
  }

  /// A date as epoch seconds, bound as REAL like `RowCodec.epoch` (the column affinity keeps whole seconds
  /// as INTEGER).
  func bind(_ index: Int32, _ date: Date?) {
    guard let date else {
      sqlite3_bind_null(handle, index)
      return
    }
    sqlite3_bind_double(handle, index, date.timeIntervalSince1970)
  }

  func bind(_ index: Int32, bytes: [UInt8]) {
    _ = bytes.withUnsafeBytes { buffer in
      if let base = buffer.baseAddress {
        sqlite3_bind_blob(handle, index, base, Int32(buffer.count), Self.transient)
      } else {
        sqlite3_bind_zeroblob(handle, index, 0)
      }
    }
  }

  func bind(_ index: Int32, _ value: DatabaseValue) {
    switch value.storage {
    case .null: sqlite3_bind_null(handle, index)
    case .int64(let number): sqlite3_bind_int64(handle, index, number)
    case .double(let number): sqlite3_bind_double(handle, index, number)
    case .string(let text): bind(index, text)
    case .blob(let data):
      _ = data.withUnsafeBytes { bytes in
        if let base = bytes.baseAddress {
          sqlite3_bind_blob(handle, index, base, Int32(bytes.count), Self.transient)
        } else {
          sqlite3_bind_zeroblob(handle, index, 0)
        }
      }
    }
  }

  /// Runs a statement that returns no rows (INSERT, DELETE).
  func run() throws {
    let code = sqlite3_step(handle)
    guard code == SQLITE_DONE else { throw failure(code) }
    sqlite3_reset(handle)
  }

  /// The first column of the first row as an integer, or nil when there is no row.
  func firstInteger() throws -> Int64? {
    switch sqlite3_step(handle) {
    case SQLITE_ROW:
      let value = sqlite3_column_int64(handle, 0)
      sqlite3_reset(handle)
      return value
    case SQLITE_DONE:
      sqlite3_reset(handle)
      return nil
    case let code:
      throw failure(code)
    }
  }

  /// The error of a failed step (its message, never the bound values), with the statement reset for reuse.
  private func failure(_ code: Int32) -> DatabaseError {
    let message = db.lastErrorMessage
    sqlite3_reset(handle)
    return DatabaseError(resultCode: ResultCode(rawValue: code), message: message)
  }

  private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
}
