import Foundation
import GRDB

/// The journal of a new store's first run.
///
/// In WAL mode every page a transaction writes goes to the WAL at the commit, and the checkpoint copies it into
/// the database file again: a new store's first run wrote its pages twice. In SQLite's rollback-journal mode a
/// transaction journals only the pages the file held before it began (the empty schema's) and writes every other
/// page once, into the database file. So a store that this process created and that holds no run yet gets its
/// first run with the rollback journal (`journal_mode = DELETE`, `synchronous = EXTRA`, which also syncs the
/// directory once the journal is deleted, so the commit survives a power cut), and goes back to WAL after it.
/// The run is one transaction either way: a kill leaves a hot journal that the next connection rolls back.
enum FirstRunJournal {
  /// Leaves WAL for the rollback journal when `queue`'s store holds no run. SQLite leaves WAL only when no other
  /// connection has the file open: when another process has opened the new store too, the run is written in WAL
  /// mode (as correct, only slower). Returns whether the journal was switched.
  static func enter(_ queue: DatabaseQueue) -> Bool {
    let switched = try? queue.writeWithoutTransaction { db -> Bool in
      guard try Bool.fetchOne(db, sql: "SELECT NOT EXISTS (SELECT 1 FROM runs)") == true,
        try String.fetchOne(db, sql: "PRAGMA journal_mode = DELETE")?.lowercased() == "delete"
      else { return false }
      try db.execute(sql: "PRAGMA synchronous = EXTRA")
      try sizeCache(db, forRows: 0)
      return true
    }
    return switched ?? false
  }

  /// Sizes the page cache of a first run that writes up to `rows` rows so far (`PlanWriter` calls it before each
  /// part it writes).
  static func sizeCache(_ db: Database, forRows rows: Int) throws {
    try db.execute(sql: "PRAGMA cache_size = -\(cacheKilobytes(forRows: rows))")
  }

  /// The page cache of a first run of `rows` rows, in KiB. Its rows go into tables that only grow at their end,
  /// so a page, once full, is not touched again and can go to the file at once; what the cache must hold is the
  /// lookup indexes, whose entries (a key's hash and a row id) land anywhere: about 42 bytes a row over the five
  /// of them at 181k rows. The cache gets `cacheBytesPerRow` a row, from `minimumCacheKilobytes` up to
  /// `maximumCacheKilobytes`. A smaller cache than the indexes re-read and re-wrote their pages (the 160k-item
  /// migrate with 2 MiB: 83,736 `pread` and 98,204 `pwrite` calls, against 149 and 14,607); a larger one held a
  /// small store's every page until the commit (the 10k-item migrate's 15 MB store: 16 MiB peaked 6 MiB higher
  /// at its end than 2 MiB, and 2 MiB about 0.5 MiB higher than 1 MiB, which its 11,417 rows' indexes fit in:
  /// 83 `pread` calls against 75). The 64 MiB that runs into an existing store keep (whose updates land anywhere in the
  /// file) made the 40k-item migrate peak about 22 MiB higher, at no gain in time (docs/benchmarks.md).
  static func cacheKilobytes(forRows rows: Int) -> Int {
    let (bytes, overflow) = rows.multipliedReportingOverflow(by: cacheBytesPerRow)
    return overflow ? maximumCacheKilobytes : min(maximumCacheKilobytes, max(minimumCacheKilobytes, bytes / 1_024))
  }

  /// Page cache a first run's row gets: half as much again as its index entries take.
  static let cacheBytesPerRow = 64
  static let minimumCacheKilobytes = 1_024
  static let maximumCacheKilobytes = 16_384

  /// Puts the store back in WAL mode with `synchronous = FULL` and the whole page cache, after its first run
  /// committed or rolled back. SQLite takes the exclusive lock this needs without waiting (another connection
  /// reading gives "database is locked" at once), so it is tried again for up to `timeout` seconds. A store
  /// that stays in the rollback journal is consistent and durable all the same, and the next writer that opens
  /// it switches it to WAL (`CacheStore.open`): the run's outcome does not depend on it, so a failure here is
  /// not the run's.
  static func leave(_ queue: DatabaseQueue, timeout: TimeInterval) {
    try? OpeningRace.retrying(for: timeout) {
      try queue.writeWithoutTransaction { db in
        guard try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL")?.lowercased() == "wal" else {
          throw DatabaseError(resultCode: .SQLITE_BUSY, message: "the store is not in WAL mode yet")
        }
        try db.execute(sql: "PRAGMA synchronous = FULL")
        try db.execute(sql: "PRAGMA cache_size = -\(CacheStore.cacheKilobytes)")
      }
    }
  }
}
