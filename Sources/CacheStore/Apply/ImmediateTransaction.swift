import Adal2MSALSupport
import GRDB

extension DatabaseQueue {
  /// Runs `body` in one `BEGIN IMMEDIATE` transaction and returns its result: committed when `body` returns,
  /// rolled back when it throws. IMMEDIATE takes the write lock up front, so two processes wait for each other
  /// (busy timeout) instead of failing on a lock upgrade.
  ///
  /// With `commitsRun`, the commit is the one that makes the store hold a run: it is made with interrupts held
  /// off, so that one that comes as it is written knows whether it was (`InterruptCleanup.committing`).
  func immediateTransaction<T>(commitsRun: Bool = false, _ body: (Database) throws -> T) throws -> T {
    guard commitsRun else {
      return try writeWithoutTransaction { db in
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
    return try writeWithoutTransaction { db in
      try db.beginTransaction(.immediate)
      do {
        let result = try body(db)
        try InterruptCleanup.committing { try db.commit() }
        return result
      } catch {
        if db.isInsideTransaction { try? db.rollback() }
        throw error
      }
    }
  }
}
