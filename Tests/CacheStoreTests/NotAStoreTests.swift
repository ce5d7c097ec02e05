import Foundation
import GRDB
import Testing
import _Adal2MSALTestSupport

@testable import CacheStore

#if canImport(Glibc)
  import Glibc
#endif

/// A file given as the store that is not one (an app's cache JSON, another application's SQLite database) is
/// refused before anything touches it: its bytes, its mode and its side files stay as they were, and no table or
/// token of adal2msal's goes into it. An empty file is a new store to write, and no store to read.
@Suite struct NotAStoreTests {
  /// The file's bytes, its mode and the side files beside it, so that a refusal is seen to change none of them.
  struct Snapshot: Equatable {
    var bytes: Data
    var mode: UInt16?
    var sideFiles: [String]

    init(_ path: String) throws {
      bytes = try Data(contentsOf: URL(fileURLWithPath: path))
      mode = StoreTestSupport.mode(path)
      sideFiles = ["-wal", "-shm", "-journal"].filter { FileManager.default.fileExists(atPath: path + $0) }
    }
  }

  /// Another application's database: a table of its own, written by SQLite through GRDB, mode 0644.
  static func otherDatabase(walMode: Bool = false) throws -> (path: String, queue: DatabaseQueue) {
    let path = try StoreTestSupport.freshPath("app.db")
    let queue = try DatabaseQueue(path: path)
    if walMode { _ = try queue.writeWithoutTransaction { try String.fetchOne($0, sql: "PRAGMA journal_mode = WAL") } }
    try queue.write { db in
      try db.execute(sql: "CREATE TABLE notes (body TEXT)")
      try db.execute(sql: "INSERT INTO notes VALUES ('keep me')")
    }
    #expect(chmod(path, 0o644) == 0)
    return (path, queue)
  }

  func refusal(_ path: String, _ options: CacheStoreOptions) -> CacheStoreError? {
    do {
      _ = try CacheStore.open(path: path, options: options)
      Issue.record("\(path) was opened as a store")
    } catch {
      return error
    }
    return nil
  }

  @Test func anAppsCacheFileIsNeitherWrittenNorRead() throws {
    let path = try StoreTestSupport.freshPath("msal_cache.json")
    try FileManager.default.copyItem(
      at: Fixtures.url("msal-json/msal-dotnet_token_cache_one_acc_seed.json"), to: URL(fileURLWithPath: path))
    #expect(chmod(path, 0o644) == 0)
    let before = try Snapshot(path)
    for options in [CacheStoreOptions(), .reading(sealing: nil)] {
      let refused = refusal(path, options)
      #expect(refused?.reason == .notAStore)
      let written = options.readOnly ? "" : "; nothing was written"
      #expect(
        refused?.description
          == "\(path): the file is not an SQLite database, so not an adal2msal store\(written); give the path of an "
          + "adal2msal store, or of a new file for a new store")
      #expect(try Snapshot(path) == before)
    }
  }

  @Test(arguments: [false, true])
  func anotherApplicationsDatabaseGetsNoTablesOfOurs(walMode: Bool) throws {
    // In WAL mode its connection stays open, so that its last commit is in the WAL and not in the file's header.
    let (path, queue) = try Self.otherDatabase(walMode: walMode)
    let before = try Snapshot(path)
    for options in [CacheStoreOptions(), .reading(sealing: nil)] {
      let refused = refusal(path, options)
      #expect(refused?.reason == .notAStore, "WAL \(walMode)")
      #expect(
        refused?.message.hasPrefix("the file is an SQLite database with tables of its own, not an adal2msal store")
          == true)
      #expect(try Snapshot(path) == before, "WAL \(walMode)")
    }
    let tables = try queue.read { try String.fetchAll($0, sql: "SELECT name FROM sqlite_schema WHERE type = 'table'") }
    #expect(tables == ["notes"])
    #expect(try queue.read { try String.fetchAll($0, sql: "SELECT body FROM notes") } == ["keep me"])
  }

  /// SQLite said of a directory "disk I/O error". (A FIFO, on which it waited for a writer forever, is
  /// `NotAStoreCommandTests`' case: a command runs under a timeout, and this process would wait as SQLite did.)
  @Test func aPathThatIsNoRegularFileIsRefusedUnopened() throws {
    let directory = try StoreTestSupport.freshPath("a-directory")
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
    for (path, kind) in [(directory, "a directory"), ("/dev/null", "a character device")] {
      #expect(!CacheStore.wouldCreate(path), "\(path)")
      for options in [CacheStoreOptions(), .reading(sealing: nil)] {
        let refused = refusal(path, options)
        #expect(refused?.reason == .notAStore)
        let written = options.readOnly ? "" : "; nothing was written"
        #expect(refused?.message == "the path is \(kind), not an adal2msal store\(written)")
      }
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory).isEmpty)
  }

  @Test func anEmptyFileIsANewStoreToWriteAndNoStoreToRead() throws {
    let path = try StoreTestSupport.freshPath()
    #expect(FileManager.default.createFile(atPath: path, contents: nil))
    #expect(CacheStore.wouldCreate(path))
    let refused = refusal(path, .reading(sealing: nil))
    #expect(refused?.reason == .notAStore)
    #expect(refused?.message == "the file holds no store yet (it is empty)")
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)).isEmpty)
    let store = try CacheStore.open(path: path)
    try store.apply(
      StoreTestSupport.plan(
        adding: try StoreTestSupport.read(Fixtures.url("msal-json/msal-dotnet_token_cache_one_acc_seed.json"))))
    #expect(!CacheStore.wouldCreate(path))
    #expect(try StoreTestSupport.counts(store).accounts > 0)
    // A second store of the file, its first commits maybe still in the WAL, is a store.
    #expect(try CacheStore.open(path: path, options: .reading(sealing: nil)).contents().accounts.count > 0)
  }
}
