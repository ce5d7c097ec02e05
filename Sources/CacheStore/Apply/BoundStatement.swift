import Foundation
import GRDB
import GRDBSQLite

/// A prepared statement whose parameters are bound one by one straight from Swift values with the sqlite3 C
/// API, for the rows an apply writes: no `StatementArguments` or `DatabaseValue` array per row. GRDB owns the
/// statement (and finalizes it); the caller binds every parameter it uses, then runs it once, which leaves
/// every parameter NULL again. A parameter is bound at most once between two runs, so a nil value (NULL) is
/// not bound at all: the parameter is NULL already, and binding it costs SQLite a call of ~70 instructions, for
/// most columns of most rows.
///
/// Text and blobs are copied into the statement's `BindArena` and bound without a copy of SQLite's own
/// (`SQLITE_STATIC`): SQLite's copy frees and allocates a buffer for every parameter of every row, behind its
/// allocator's mutex. A statement of several rows (`INSERT ... VALUES (...), (...)`) is bound row by row
/// through `row(_:width:)`.
struct BoundStatement {
  private let statement: Statement
  private let db: Database
  private let arena: BindArena
  /// Added to every parameter index: the parameters of one row of a statement of several rows.
  private let base: Int32

  init(_ db: Database, sql: String) throws {
    self.db = db
    statement = try db.makeStatement(sql: sql)
    arena = BindArena()
    base = 0
  }

  private init(_ other: BoundStatement, base: Int32) {
    statement = other.statement
    db = other.db
    arena = other.arena
    self.base = base
  }

  private var handle: SQLiteStatement { statement.sqliteStatement }

  /// The parameters of row `row` (from 0) of a statement whose rows have `width` parameters each: parameter 1
  /// of the result is parameter `row * width + 1` of the statement.
  func row(_ row: Int, width: Int) -> BoundStatement { BoundStatement(self, base: Int32(row * width)) }

  func bind(_ index: Int32, _ text: String?) {
    guard let text else { return }
    // Not `withUTF8`, which is mutating: its copy of `text` was a retain and a release of an entity's string
    // that the report, rendered on the other core meanwhile, reads too (contended).
    if text.utf8.withContiguousStorageIfAvailable({ bindText(index, UnsafeRawBufferPointer($0)) }) == nil {
      var text = text
      text.withUTF8 { bindText(index, UnsafeRawBufferPointer($0)) }
    }
  }

  func bindText(_ index: Int32, _ bytes: UnsafeRawBufferPointer) {
    sqlite3_bind_text(handle, base + index, arena.copy(bytes), Int32(bytes.count), nil)
  }

  func bind(_ index: Int32, _ number: Int64?) {
    guard let number else { return }
    sqlite3_bind_int64(handle, base + index, number)
  }

  func bind(_ index: Int32, _ number: Double) {
    sqlite3_bind_double(handle, base + index, number)
  }

  func bind(_ index: Int32, bytes: [UInt8]) {
    bytes.withUnsafeBytes { bindBlob(index, $0) }
  }

  func bindBlob(_ index: Int32, _ bytes: UnsafeRawBufferPointer) {
    // An empty blob is a blob of no bytes, never NULL.
    sqlite3_bind_blob(handle, base + index, arena.copy(bytes), Int32(bytes.count), nil)
  }

  /// Runs a statement that returns no rows (INSERT, DELETE).
  func run() throws {
    let code = sqlite3_step(handle)
    guard code == SQLITE_DONE else { throw failure(code) }
    finish()
  }

  /// Runs an `INSERT OR IGNORE` of several rows and fails unless it inserted `rows` rows.
  ///
  /// An `INSERT` of several rows that may stop at a constraint is run with a statement journal, so that a
  /// failure takes back the rows it had written: SQLite copies every page of the file the statement changes
  /// into a temporary file first (in a 40,000-item migrate, three times the pages the store itself writes).
  /// `OR IGNORE` cannot stop midway, so it needs none; a row that it skipped instead fails the statement here,
  /// and with it the transaction, as the constraint would have. (A foreign key would still need the journal:
  /// `CacheStore.applyInParts` writes with them off.)
  func run(rows: Int) throws {
    try run()
    guard db.changesCount == rows else {
      throw DatabaseError(
        resultCode: .SQLITE_CONSTRAINT, message: "\(rows - db.changesCount) of \(rows) rows broke a constraint")
    }
  }

  /// The first column of the first row as an integer, or nil when there is no row.
  func firstInteger() throws -> Int64? {
    switch sqlite3_step(handle) {
    case SQLITE_ROW:
      let value = sqlite3_column_int64(handle, 0)
      finish()
      return value
    case SQLITE_DONE:
      finish()
      return nil
    case let code:
      throw failure(code)
    }
  }

  /// Resets the statement for its next run with every parameter NULL, so that none points into the arena,
  /// whose bytes the next binds reuse.
  private func finish() {
    sqlite3_reset(handle)
    sqlite3_clear_bindings(handle)
    arena.reset()
  }

  /// The error of a failed step (its message, never the bound values), with the statement reset for reuse.
  private func failure(_ code: Int32) -> DatabaseError {
    let message = db.lastErrorMessage
    finish()
    return DatabaseError(resultCode: ResultCode(rawValue: code), message: message)
  }
}

/// The bytes bound to one statement's parameters until it runs: chunks of memory that are never moved while
/// bound (a parameter keeps pointing at its bytes) and are reused once the statement has run.
///
/// Its state is not checked for exclusive access at run time (`@exclusivity(unchecked)`): one statement's
/// arena is used by the one thread that binds and runs it, and the checks were half the cost of a copy.
final class BindArena {
  @exclusivity(unchecked) private var chunks: [UnsafeMutableRawBufferPointer] = []
  /// The chunk being filled, and how much of it is used.
  @exclusivity(unchecked) private var current = 0
  @exclusivity(unchecked) private var used = 0

  deinit {
    for chunk in chunks { chunk.deallocate() }
  }

  /// A copy of `bytes` that stays in place until `reset()`; never a null pointer (SQLite binds NULL for one).
  func copy(_ bytes: UnsafeRawBufferPointer) -> UnsafeRawPointer {
    let count = bytes.count
    if current == chunks.count || chunks[current].count - used < count {
      nextChunk(fitting: count)
    }
    let destination = chunks[current].baseAddress! + used
    if count > 0 { destination.copyMemory(from: bytes.baseAddress!, byteCount: count) }
    used += count
    return UnsafeRawPointer(destination)
  }

  /// Makes every byte reusable (the statement no longer refers to them).
  func reset() {
    current = 0
    used = 0
  }

  /// Moves to the first chunk after the current one that holds `count` bytes, allocating one when none does
  /// (a chunk skipped here stays for the next run's smaller values).
  private func nextChunk(fitting count: Int) {
    if current < chunks.count { current += 1 }
    used = 0
    while current < chunks.count, chunks[current].count < count { current += 1 }
    if current == chunks.count {
      chunks.append(.allocate(byteCount: max(Self.chunkSize, count), alignment: 16))
    }
  }

  /// The size of a chunk: a batch of rows' text fits in a few.
  private static let chunkSize = 65_536
}
