import Foundation
import MigrationEngine
import Testing
import UnifiedCache

/// An MSAL input's access tokens follow the policy of the ADAL ones: none with `skipAccessTokens`, and none
/// expired at the run's clock, each a skip entry counted by policy; a token without an expiry is its library's
/// own and migrates, as every other entity of the input does.
@Suite struct MSALInputPolicyTests {
  static let now = Date(timeIntervalSince1970: 1_800_000_000)

  static func token(_ secret: String, expiresOn: Date?) -> AnyUnifiedEntity {
    .accessToken(
      UnifiedAccessToken(
        homeAccountID: "uid.utid", environment: "login.microsoftonline.com", clientID: "client", realm: "utid",
        target: "scope-\(secret)", secret: UnifiedSecret(secret), expiresOn: expiresOn))
  }

  static func plan(skipAccessTokens: Bool) -> MigrationPlan {
    var contents = UnifiedCacheContents()
    for entity in [
      token("live", expiresOn: now.addingTimeInterval(3600)), token("expired", expiresOn: now.addingTimeInterval(-1)),
      token("no-expiry", expiresOn: nil),
      .refreshToken(
        UnifiedRefreshToken(
          homeAccountID: "uid.utid", environment: "login.microsoftonline.com", clientID: "client",
          secret: UnifiedSecret("rt"))),
    ] {
      contents.upsert(entity)
    }
    return Migration.plan(
      adal: [], msal: [MSALInput(file: "msal.json", contents: contents)],
      options: MigrationOptions(skipAccessTokens: skipAccessTokens, clock: .fixed(now)))
  }

  @Test func expiredAccessTokensAreSkippedByPolicy() {
    let plan = Self.plan(skipAccessTokens: false)
    let tokens = plan.entries.filter { $0.kind == .accessToken }
    let added = tokens.filter { $0.action == .add }.compactMap(\.canonicalKey)
    #expect(added.count == 2 && added.contains { $0.hasSuffix("scope-live") })
    #expect(added.contains { $0.hasSuffix("scope-no-expiry") })
    let skipped = tokens.filter { $0.action == .skip }
    #expect(skipped.map(\.reasonCode) == ["msal.expired-access-token"])
    #expect(skipped.first?.canonicalKey?.hasSuffix("scope-expired") == true)
    var verdict = RunVerdict()
    verdict.add(plan)
    #expect(verdict.policySkips == 1 && verdict.problems == 0 && verdict.written == 3)
  }

  @Test func noAccessTokenMigratesWhenTheyAreTurnedOff() {
    let plan = Self.plan(skipAccessTokens: true)
    let tokens = plan.entries.filter { $0.kind == .accessToken }
    #expect(tokens.count == 3 && tokens.allSatisfy { $0.action == .skip })
    #expect(Set(tokens.map(\.reasonCode)) == ["option.skip-access-tokens"])
    #expect(plan.entries.contains { $0.kind == .refreshToken && $0.action == .add })
  }
}
