import Foundation
import MigrationEngine
import Testing
import UnifiedCache
import _Adal2MSALTestSupport

@testable import CacheStore

/// A store read before the write lock is current until another connection commits, whichever way SQLite opened
/// it: `immutable` (no connection had the file open) or watching the WAL (another one had).
@Suite struct CheckedContentsTests {
  private static func accounts(_ names: [String]) -> UnifiedCacheContents {
    UnifiedCacheContents(
      accounts: UnifiedSection(
        names.map { name in
          var account = UnifiedAccount(
            homeAccountID: "\(name).utid", environment: "login.microsoftonline.com", realm: "utid")
          account.username = "\(name)@contoso.com"
          return account
        }))
  }

  /// A store holding one account, every connection to it closed (so no -wal file is left).
  private static func closedStore() throws -> String {
    let path = try StoreTestSupport.freshPath()
    try CacheStore.open(path: path).apply(StoreTestSupport.plan(adding: accounts(["alice"])))
    #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
    return path
  }

  @Test func anImmutableReadIsCurrentUntilTheFileIsWritten() throws {
    let path = try Self.closedStore()
    let read = try CheckedContents(path: path, sealing: nil)
    #expect(read.store.isImmutable)
    #expect(read.contents.accounts.count == 1)
    #expect(read.isCurrent)
    #expect(read.isCurrent)  // asking again changes nothing

    try CacheStore.open(path: path).apply(StoreTestSupport.plan(adding: Self.accounts(["bob"])))
    #expect(!read.isCurrent)
    #expect(try CheckedContents(path: path, sealing: nil).contents.accounts.count == 2)
  }

  @Test func aReadBesideAnotherConnectionIsCurrentUntilItCommits() throws {
    let path = try Self.closedStore()
    let writer = try CacheStore.open(path: path)
    #expect(try writer.contents().accounts.count == 1)  // the writer's connection is open: the -wal exists
    let read = try CheckedContents(path: path, sealing: nil)
    #expect(!read.store.isImmutable)
    #expect(read.isCurrent)

    try writer.apply(StoreTestSupport.plan(adding: Self.accounts(["bob"])))
    #expect(!read.isCurrent)
  }

  @Test func aStoreThatIsGoneIsNeverCurrent() throws {
    let path = try Self.closedStore()
    let read = try CheckedContents(path: path, sealing: nil)
    try FileManager.default.removeItem(atPath: path)
    #expect(!read.isCurrent)
  }
}
