import Foundation
import Testing
import UnifiedCache
import _Adal2MSALTestSupport

@testable import CacheStore

/// A secret that cannot be sealed fails the whole apply: its row is prepared on another core, a chunk ahead of the
/// writer (`RowPreparation`), so the failure travels with the chunk and is thrown when the writer reaches the entry.
/// The key AES-GCM refuses (31 bytes) is the one way sealing fails.
@Suite struct SealingFailureTests {
  static let refusedKey = SecretSealing(uncheckedKeyBytes: Data(repeating: 0x5a, count: 31))

  static func accounts(_ range: Range<Int>) -> [AnyUnifiedEntity] {
    range.map { .account(UnifiedAccount(homeAccountID: "u\($0).t", environment: "login.windows.net", realm: "t")) }
  }

  @Test func aSecretThatCannotBeSealedRollsTheRunBackAndNamesItsRow() throws {
    let path = try StoreTestSupport.freshPath()
    let store = try CacheStore.open(path: path, options: CacheStoreOptions(sealing: Self.refusedKey))
    // Accounts hold no secret: a first run of them is written.
    try store.apply(StoreTestSupport.plan(adding: Self.accounts(0..<300)))
    let before = try StoreTestSupport.counts(store)
    #expect(before.accounts == 300)

    // Then a run whose first token comes after several chunks of rows the same transaction has written.
    let secrets = (0..<3).map { "RT-SECRET-\($0)-\(UUID().uuidString)" }
    let tokens = secrets.enumerated().map { index, secret in
      UnifiedRefreshToken(
        homeAccountID: "u\(index).t", environment: "login.windows.net", clientID: "c", secret: UnifiedSecret(secret))
    }
    let accounts = Self.accounts(300..<(300 + RowPreparation.chunkSize * 3 + 5))
    let run = StoreTestSupport.plan(adding: accounts + tokens.map { .refreshToken($0) })
    let error = #expect(throws: CacheStoreError.self) { try store.apply(run) }
    #expect(error?.reason == .database)
    #expect(error?.message == "cannot seal a secret")
    #expect(error?.location.file == path)
    #expect(error?.location.keyPath == tokens[0].canonicalKey)
    let text = error?.description ?? ""
    #expect(secrets.allSatisfy { !text.contains($0) })

    // Nothing of the run stays: not its accounts, not its run row.
    #expect(try StoreTestSupport.counts(store) == before)
    let reopened = try CacheStore.open(path: path, options: CacheStoreOptions(sealing: Self.refusedKey))
    #expect(try reopened.contents().accounts.count == 300)
  }
}
