import ADALCache
import Adal2MSALSupport
import Foundation
import MigrationEngine
import Testing
import UnifiedCache

/// Several access tokens for one key (user, client, tenant, scopes): one migrates, ranked by the latest expiry,
/// then the smallest secret fingerprint, then the earliest item; the others are skipped as duplicates.
@Suite struct AccessTokenRankingTests {
  static let now = Date(timeIntervalSince1970: 1_750_000_000)
  static var claims: [String: Any] {
    ItemFactory.member(oid: "0a0a0a0a-0000-4000-8000-000000000001", tid: contosoTenant, upn: "a@x.com")
  }
  let options = MigrationOptions(clock: .fixed(Self.now))

  func plan(_ items: [ADALTokenItem]) -> MigrationPlan {
    Migration.plan(adal: [ADALInput(file: "items", items: items)], existing: UnifiedCacheContents(), options: options)
  }

  func item(_ index: Int, accessToken: String, expiresIn seconds: TimeInterval) throws -> ADALTokenItem {
    try ItemFactory.item(
      index: index, claims: Self.claims, home: "uid-a.utid-a", accessToken: accessToken,
      resource: "https://graph.microsoft.com",
      expiresOn: Self.now.addingTimeInterval(seconds))
  }

  @Test func theLatestExpiryMigratesAndTheOthersAreDuplicates() throws {
    let plan = plan([
      try item(0, accessToken: "at-early", expiresIn: 3_600),
      try item(1, accessToken: "at-late", expiresIn: 7_200),
      try item(2, accessToken: "at-earliest", expiresIn: 1_800),
    ])
    #expect(plan.accessTokens.map(\.secret.value) == ["at-late"])
    #expect(plan.accessTokens.map(\.expiresOn) == [Self.now.addingTimeInterval(7_200)])
    #expect(plan.entries("adal.access-token").flatMap(\.sources).compactMap(\.itemIndex) == [1])
    let duplicates = plan.entries("adal.duplicate-access-token").flatMap(\.sources).compactMap(\.itemIndex)
    #expect(duplicates.sorted() == [0, 2])
  }

  @Test func equalExpiriesPickTheSmallestFingerprintInEitherOrder() throws {
    let secrets = ["at-one", "at-two"]
    let expected = try #require(
      secrets.min { SecretFingerprint.digestPrefix(of: $0) < SecretFingerprint.digestPrefix(of: $1) })
    for order in [secrets, secrets.reversed()] {
      let plan = plan(try order.enumerated().map { try item($0.offset, accessToken: $0.element, expiresIn: 3_600) })
      #expect(plan.accessTokens.map(\.secret.value) == [expected])
      #expect(plan.entries("adal.duplicate-access-token").count == 1)
    }
  }
}
