import GRDB

extension DatabaseQueue {
  /// Runs `body` in one `BEGIN IMMEDIATE` transaction and returns its result: committed when `body` returns,
  /// rolled back when it throws. IMMEDIATE takes the write lock up front, so two processes wait for each other
  /// (busy timeout) instead of failing on a lock upgrade.
  func immediateTransaction<T>(_ body: (Database) throws -> T) throws -> T {
    try writeWithoutTransaction { db in
      var result: T?
      try db.inTransaction(.immediate) {
        result = try body(db)
        return .commit
      }
      guard let result else {
        throw DatabaseError(resultCode: .SQLITE_ERROR, message: "transaction produced no result")
      }
      return result
    }
  }
}
