import Foundation
import Testing
import _Adal2MSALTestSupport

@testable import CacheStore

#if canImport(Glibc)
  import Glibc
#endif

@Suite struct FileModeTests {
  @Test func aNewStoreAndItsSideFilesAreOwnerOnly() throws {
    let path = try StoreTestSupport.freshPath()
    let store = try CacheStore.open(path: path)
    try store.apply(
      StoreTestSupport.plan(
        adding: try StoreTestSupport.read(Fixtures.url("msal-json/msal-dotnet_token_cache_adfs.json"))))
    _ = try StoreTestSupport.counts(store)  // the first read after the first run opens the WAL
    #expect(StoreTestSupport.mode(path) == 0o600)
    #expect(StoreTestSupport.mode(path + "-wal") == 0o600)
    #expect(StoreTestSupport.mode(path + "-shm") == 0o600)
  }

  /// WAL with `synchronous = FULL` (GRDB's own WAL setup would lower it to NORMAL), and opening an up-to-date
  /// store for writing changes no byte of it.
  @Test func theStoreRunsInWALWithFullSynchronousAndOpeningItWritesNothing() throws {
    let path = try StoreTestSupport.freshPath()
    let store = try CacheStore.open(path: path)
    try store.apply(
      StoreTestSupport.plan(
        adding: try StoreTestSupport.read(Fixtures.url("msal-json/msal-dotnet_token_cache_adfs.json"))))
    let (journal, synchronous) = try store.queue.read { db in
      (try String.fetchOne(db, sql: "PRAGMA journal_mode"), try Int.fetchOne(db, sql: "PRAGMA synchronous"))
    }
    #expect(journal == "wal")
    #expect(synchronous == 2, "synchronous must be FULL (2)")
    try store.queue.writeWithoutTransaction { db in _ = try db.checkpoint(.truncate) }
    let before = try Data(contentsOf: URL(fileURLWithPath: path))
    let again = try CacheStore.open(path: path)
    _ = try again.contents()
    try again.queue.writeWithoutTransaction { db in _ = try db.checkpoint(.truncate) }
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
  }

  /// A new store's first run is written with the rollback journal, into the database file only (in WAL mode its
  /// pages would wait in the WAL for the checkpoint to copy them), and the store is in WAL mode right after it;
  /// a later run is written to the WAL as before.
  @Test func aNewStoresFirstRunIsWrittenOnceAndLaterRunsToTheWAL() throws {
    let path = try StoreTestSupport.freshPath()
    let store = try CacheStore.open(path: path)
    let files = try StoreTestSupport.fixtureFiles()
    try StoreTestSupport.importFiles(Array(files.prefix(files.count / 2)), into: store)
    #expect(try StoreTestSupport.counts(store).runs == 1)
    let (journal, synchronous) = try store.queue.read { db in
      (try String.fetchOne(db, sql: "PRAGMA journal_mode"), try Int.fetchOne(db, sql: "PRAGMA synchronous"))
    }
    #expect(journal == "wal")
    #expect(synchronous == 2, "synchronous must be FULL (2) again")
    #expect(StoreTestSupport.size(path + "-wal") == 0, "the first run's pages are in the database file, not in the WAL")
    #expect(!FileManager.default.fileExists(atPath: path + "-journal"))
    #expect(StoreTestSupport.mode(path + "-wal") == 0o600)

    try StoreTestSupport.importFiles(Array(files.suffix(files.count - files.count / 2)), into: store)
    #expect(StoreTestSupport.size(path + "-wal") ?? 0 > 0, "a later run is written to the WAL")
    #expect(try StoreTestSupport.counts(store).runs == 2)
  }

  /// Issue 22: an existing store written to is made owner-only, and so are its side files.
  @Test(arguments: [0o644 as UInt16, 0o600, 0o640, 0o666])
  func anExistingStoreIsMadeOwnerOnly(mode: UInt16) throws {
    let path = try StoreTestSupport.freshPath()
    _ = try CacheStore.open(path: path)
    // The last connection removed the side files: loose ones are left as another run could leave them.
    for suffix in ["-wal", "-shm"] where !FileManager.default.fileExists(atPath: path + suffix) {
      #expect(FileManager.default.createFile(atPath: path + suffix, contents: nil))
    }
    for suffix in ["", "-wal", "-shm"] { #expect(chmod(path + suffix, mode_t(mode)) == 0) }
    let store = try CacheStore.open(path: path)
    try store.apply(
      StoreTestSupport.plan(
        adding: try StoreTestSupport.read(Fixtures.url("msal-json/msal-dotnet_token_cache_adfs.json"))))
    for suffix in ["", "-wal", "-shm"] { #expect(StoreTestSupport.mode(path + suffix) == 0o600, "\(suffix)") }
  }

  @Test func anEmptyExistingFileIsUsedAndMadeOwnerOnly() throws {
    let path = try StoreTestSupport.freshPath()
    #expect(FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o644]))
    _ = try CacheStore.open(path: path)
    #expect(StoreTestSupport.mode(path) == 0o600)
  }

  /// A store (or a side file) planted by another user is refused and left as it was.
  @Test(arguments: ["", "-wal"])
  func aStoreOwnedByAnotherUserIsRefused(suffix: String) throws {
    try #require(geteuid() == 0, "needs root to give a file to another user")
    let path = try StoreTestSupport.freshPath()
    _ = try CacheStore.open(path: path)
    #expect(
      FileManager.default.createFile(atPath: path + "-wal", contents: nil, attributes: [.posixPermissions: 0o666]))
    #expect(chown(path + suffix, 4321, 4321) == 0)
    let before = try Data(contentsOf: URL(fileURLWithPath: path))
    let error = #expect(throws: CacheStoreError.self) { try CacheStore.open(path: path) }
    #expect(error?.message.contains("owned by user 4321") == true)
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    // Refused before any file was changed: the loose side file was not tightened either.
    #expect(StoreTestSupport.mode(path + "-wal") == 0o666)
  }

  @Test func notADatabaseIsAClearError() throws {
    let path = try StoreTestSupport.freshPath()
    try Data("this is not sqlite, just text long enough to be read as a header......".utf8).write(
      to: URL(fileURLWithPath: path))
    let error = #expect(throws: CacheStoreError.self) { try CacheStore.open(path: path) }
    #expect(error?.reason == .notAStore)
    #expect(error?.message == "the file is not an SQLite database, so not an adal2msal store; nothing was written")
    #expect(error?.location.file == path)
  }

  @Test func aMissingStoreIsNotCreatedWhenAskedNotTo() throws {
    let path = try StoreTestSupport.freshPath()
    let error = #expect(throws: CacheStoreError.self) {
      try CacheStore.open(path: path, options: CacheStoreOptions(createIfMissing: false))
    }
    #expect(error?.reason == .cannotOpen)
    #expect(!FileManager.default.fileExists(atPath: path))
  }
}
