import GRDBSQLite

/// The sqlite3 C API calls the benchmarks' insert loops (`RawInsertLoop`, `PlainInsertLoop`) share, each throwing
/// SQLite's message.
enum SQLiteCalls {
  static func exec(_ db: OpaquePointer, _ sql: String) throws {
    guard sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK else {
      throw BenchFailure("sqlite: \(String(cString: sqlite3_errmsg(db)))")
    }
  }

  static func prepare(_ db: OpaquePointer, _ sql: String) throws -> OpaquePointer {
    var statement: OpaquePointer?
    guard sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
      throw BenchFailure("sqlite: \(String(cString: sqlite3_errmsg(db)))")
    }
    return statement
  }

  static func step(_ db: OpaquePointer, _ statement: OpaquePointer) throws {
    guard sqlite3_step(statement) == SQLITE_DONE else {
      throw BenchFailure("sqlite: \(String(cString: sqlite3_errmsg(db)))")
    }
    sqlite3_reset(statement)
  }
}
