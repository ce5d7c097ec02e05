import Dispatch
import GRDB
import GRDBSQLite

/// The database file of a new store's first run made durable every few tens of milliseconds on another thread
/// while the run writes it, so that the commit's sync waits for the last pages only.
///
/// A first run writes the whole store into the database file (`FirstRunJournal`), and a disk with a volatile
/// write cache empties all of it at the commit's sync: the 40k-item `migrate`'s 59 MB store waited 105–140 ms
/// for it, the run's last step (docs/benchmarks.md, "The report and the store made durable as they are
/// written"). Syncing pages the transaction wrote before it commits is safe: the rollback journal holds what they
/// replaced, and a crash rolls the file back to the size and pages it had before the run, as it would after the
/// kernel wrote them on its own.
///
/// The sync goes through the connection's own file (`SQLITE_FCNTL_FILE_POINTER`), whose descriptor SQLite owns:
/// a descriptor of ours on the file, once closed, would drop the connection's POSIX locks. Only SQLite's `unix`
/// VFSes are used, whose sync of a main database file is `fdatasync` (`fsync` on Darwin) and touches no state
/// the writing thread changes.
final class DatabaseFlushAhead: @unchecked Sendable {  // `failed`, `syncs`: the thread's until `stopped`
  private let file: UnsafeMutablePointer<sqlite3_file>
  private let stop = DispatchSemaphore(value: 0)
  private let stopped = DispatchSemaphore(value: 0)
  private var failed: Int32 = SQLITE_OK
  private var finished = false
  /// The syncs done so far; read it once `finish` has returned.
  private(set) var syncs = 0

  /// How long the thread waits between two syncs.
  static let interval = DispatchTimeInterval.milliseconds(25)

  /// Starts syncing `db`'s main database file; nil when its VFS is not one of SQLite's `unix` ones.
  init?(_ db: Database) {
    guard let connection = db.sqliteConnection, Self.vfsName(connection)?.hasPrefix("unix") == true else {
      return nil
    }
    var pointer: UnsafeMutableRawPointer?
    guard sqlite3_file_control(connection, "main", SQLITE_FCNTL_FILE_POINTER, &pointer) == SQLITE_OK,
      let file = pointer?.assumingMemoryBound(to: sqlite3_file.self), file.pointee.pMethods != nil
    else { return nil }
    self.file = file
    DispatchQueue.global(qos: .utility).async { [self] in
      while stop.wait(timeout: .now() + Self.interval) == .timedOut, failed == SQLITE_OK {
        failed = self.file.pointee.pMethods.pointee.xSync(self.file, SQLITE_SYNC_NORMAL | SQLITE_SYNC_DATAONLY)
        syncs += 1
      }
      stopped.signal()
    }
  }

  /// Stops the syncs and waits for the one in progress. Call it before the transaction commits (or rolls back),
  /// whether or not the run failed; calls after the first do nothing.
  ///
  /// - Throws: the failure of a sync: pages the run wrote may not be on disk, and the commit's own sync may not
  ///   be told, since a failed sync's error is reported to one call only.
  func finish() throws {
    guard !finished else { return }
    finished = true
    stop.signal()
    stopped.wait()
    if failed != SQLITE_OK { throw DatabaseError(resultCode: ResultCode(rawValue: failed)) }
  }

  /// The name of the VFS of `connection`'s main database.
  private static func vfsName(_ connection: SQLiteConnection) -> String? {
    var name: UnsafeMutablePointer<CChar>?
    guard sqlite3_file_control(connection, "main", SQLITE_FCNTL_VFSNAME, &name) == SQLITE_OK, let name else {
      return nil
    }
    defer { sqlite3_free(name) }
    return String(cString: name)
  }
}
