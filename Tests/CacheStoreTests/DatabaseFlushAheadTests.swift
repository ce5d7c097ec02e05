import Foundation
import GRDB
import Testing

@testable import CacheStore

/// A first run's database file is synced on another thread while the run writes it (`DatabaseFlushAhead`),
/// through the connection's own file, and only where SQLite's `unix` VFS owns that file.
@Suite struct DatabaseFlushAheadTests {
  @Test func aStoreFileIsSyncedWhileItsTransactionWrites() throws {
    let store = try CacheStore.open(path: try StoreTestSupport.freshPath())
    let syncs = try store.queue.write { db -> Int in
      let flushes = try #require(DatabaseFlushAhead(db))
      try db.execute(sql: "CREATE TABLE filler (bytes BLOB)")
      for _ in 0..<200 { try db.execute(sql: "INSERT INTO filler VALUES (zeroblob(4096))") }
      Thread.sleep(forTimeInterval: 0.1)  // four intervals: the thread syncs at least once meanwhile
      try flushes.finish()
      try flushes.finish()  // a second call does nothing
      return flushes.syncs
    }
    #expect(syncs >= 1)
  }

  @Test func aDatabaseInMemoryHasNoFileToSync() throws {
    let queue = try DatabaseQueue()
    try queue.write { db in #expect(DatabaseFlushAhead(db) == nil) }
  }
}
