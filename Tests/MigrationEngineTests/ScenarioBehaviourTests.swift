import Foundation
import MigrationEngine
import Testing
import UnifiedCache

/// What the mapping rules (docs/mapping.md) demand of each scenario, checked field by field (independently of the
/// golden files). Secrets are compared by value: the scenario generator names every token after its role.
@Suite struct ScenarioBehaviourTests {
  @Test func singleUserMapsEveryField() throws {
    let plan = try Scenario("single-user-mrrt-at").plan()
    let account = try #require(plan.accounts.first)
    #expect(plan.accounts.count == 1)
    #expect(account.homeAccountID == aliceHome && account.realm == contosoTenant)
    #expect(account.localAccountID == "a11ce000-0000-4000-8000-00000000a11c")
    #expect(account.username == "Alice@Contoso.com" && account.authorityType == "MSSTS")
    #expect(account.environment == "login.microsoftonline.com" && account.name == "Alice Example")
    let token = try #require(plan.accessTokens.first)
    #expect(token.target == "https://graph.microsoft.com/.default" && token.realm == contosoTenant)
    #expect(token.secret.value == "AT.alice.graph" && token.clientID == appID)
    #expect(token.cachedAt == ISO8601DateFormatter().date(from: "2025-05-01T09:00:00Z"))
    let refresh = try #require(plan.refreshTokens.first)
    #expect(refresh.secret.value == "RT.alice.app" && refresh.familyID == nil && refresh.clientID == appID)
    #expect(plan.entries.allSatisfy { $0.kind == .appMetadata || $0.identityRule == .archivedHomeAccountID })
    #expect(plan.users.map(\.rule) == [.archivedHomeAccountID])
  }

  @Test func familyTokenSharedByTwoApps() throws {
    let plan = try Scenario("frt-two-apps").plan()
    let family = plan.refreshTokens.filter { $0.familyID == "1" }
    #expect(family.count == 1)
    // The FRT is a copy of Office's MRRT (same secret), so it belongs to Office.
    #expect(family.first?.clientID == officeID && family.first?.secret.value == "RT.alice.office")
    let perApp = Dictionary(
      uniqueKeysWithValues: plan.refreshTokens.filter { $0.familyID == nil }.map { ($0.clientID, $0.secret.value) })
    #expect(perApp == [appID: "RT.alice.app", officeID: "RT.alice.office"])
    #expect(Set(plan.appMetadata.map { "\($0.clientID)=\($0.familyID ?? "-")" }) == ["\(appID)=1", "\(officeID)=1"])
    #expect(plan.users.first?.rule == .derivedFromIDToken)
  }

  @Test func existingAccountByUsernameAcrossAliasesAndCase() throws {
    let plan = try Scenario("pre27-existing-account").plan()
    #expect(plan.users.first?.rule == .existingAccountByUsername)
    #expect(plan.users.first?.homeAccountID == aliceHome)
    // The existing account lives under login.windows.net; ADAL's login.microsoftonline.com items join it.
    #expect(plan.entities([.add]).allSatisfy { $0.environment == "login.windows.net" })
    #expect(plan.entries.first { $0.kind == .account }?.action == .unchanged)
  }

  @Test func guestIsSkippedWithItsReason() throws {
    let plan = try Scenario("guest-user").plan()
    #expect(plan.writes.isEmpty)
    #expect(plan.users.map(\.status) == [.skipped] && plan.users.first?.reasonCode == "identity.guest")
    #expect(plan.entries("identity.guest").first?.sources.count == 3)
  }

  @Test func adfsUsesSubAndSkipsItemsWithoutIdToken() throws {
    let plan = try Scenario("adfs").plan()
    let account = try #require(plan.accounts.first)
    #expect(plan.accounts.count == 1)
    #expect(account.homeAccountID == "hEnRy+AdFs/SuBjEcT=" && account.authorityType == "ADFS")
    #expect(account.realm == "adfs" && account.username == "henry@contoso.com")
    #expect(plan.accessTokens.first?.realm == "adfs")
    #expect(plan.entries("identity.adfs-no-id-token").count == 1)
    #expect(plan.users.contains { $0.rule == .adfsSubject })
  }

  @Test func upnChangeGivesOneAccountWithTheNewestName() throws {
    let plan = try Scenario("upn-change").plan()
    #expect(plan.accounts.map(\.username) == ["Erin.Smith@contoso.com"])
    #expect(plan.refreshTokens.map(\.secret.value) == ["RT.erin.new"])
    #expect(plan.entries("adal.duplicate-refresh-token").first?.reason.contains("adal.xml.plist#1") == true)
    #expect(plan.diagnostics.contains { $0.code == "identity.username-changed" })
    #expect(plan.users.first?.otherUsernames == ["erin@contoso.com"])
  }

  @Test func twoTenantsGiveTwoAccountsAndOneRefreshToken() throws {
    let plan = try Scenario("two-tenants").plan()
    #expect(Set(plan.accounts.map(\.realm)) == [contosoTenant, fabrikamTenant])
    #expect(Set(plan.accounts.map(\.homeAccountID)).count == 1)
    #expect(plan.refreshTokens.map(\.secret.value) == ["RT.frank.guest"])
    #expect(Set(plan.accessTokens.map(\.realm)) == [contosoTenant, fabrikamTenant])
  }

  @Test func sovereignCloudsStayApartAndUnknownHostsAreReported() throws {
    let plan = try Scenario("sovereign-clouds").plan()
    #expect(
      Set(plan.accounts.map(\.environment)) == [
        "login.microsoftonline.com", "login.chinacloudapi.cn", "login.microsoftonline.us", "login.example-cloud.test",
      ])
    #expect(plan.diagnostics.filter { $0.code == "engine.unknown-environment" }.map(\.severity) == [.warning])
    #expect(Set(plan.users.map(\.cloud)) == ["public", "china", "usgov", "login.example-cloud.test"])
  }

  @Test func expiredAccessTokensAreReportedNotWritten() throws {
    let plan = try Scenario("expired-ats").plan()
    #expect(plan.accessTokens.map(\.target) == ["https://vault.azure.net/.default"])
    #expect(plan.entries("adal.expired-access-token").count == 2)
  }

  @Test func trailingSlashKeepsTheDoubleSlash() throws {
    let plan = try Scenario("trailing-slash").plan()
    #expect(plan.accessTokens.map(\.target) == ["https://contoso-my.sharepoint.com//.default"])
  }

  @Test func tombstonesWipeMarkerAndUnreadableItemsAreReported() throws {
    let plan = try Scenario("tombstones").plan()
    #expect(plan.entries("adal.tombstone").count == 1)
    #expect(plan.diagnostics.contains { $0.code == "adal.wipe-marker" })
    #expect(plan.diagnostics.contains { $0.severity == .error && $0.location?.itemIndex == 3 })
    #expect(plan.refreshTokens.map(\.secret.value) == ["RT.alice.app"])
  }

  @Test func duplicateRefreshTokensFollowThePriority() throws {
    let plan = try Scenario("duplicate-rts").plan()
    #expect(plan.refreshTokens.first { $0.familyID == nil }?.secret.value == "RT.alice.app.newer")
    #expect(plan.refreshTokens.first { $0.familyID == "1" }?.secret.value == "RT.alice.app.newer")
    let losers = plan.entries("adal.duplicate-refresh-token").flatMap(\.sources).compactMap(\.itemIndex)
    #expect(losers.sorted() == [0, 2, 3])
    // The single-resource item's refresh token loses, its access token still migrates.
    #expect(plan.accessTokens.map(\.secret.value) == ["AT.alice.single"])
  }

  @Test func existingEntriesWinUnlessTheInputsArePreferred() throws {
    let kept = try Scenario("msal-conflict").plan()
    #expect(kept.count(.conflict) == 3 && kept.count(.update) == 0)
    #expect(kept.entries.filter { $0.action == .conflict }.allSatisfy { $0.existing != nil && $0.entity != nil })
    #expect(kept.entries.filter { $0.identityRule == .unifiedInput }.map(\.action) == [.add, .add])
    let updated = try Scenario("msal-conflict-prefer-adal").plan()
    #expect(updated.count(.conflict) == 0 && updated.count(.update) == 3)
    #expect(updated.refreshTokens.first { $0.clientID == appID }?.secret.value == "RT.bob.adal")
    #expect(updated.accessTokens.first?.secret.value == "AT.bob.adal")
    #expect(updated.accessTokens.first?.cachedAt == ISO8601DateFormatter().date(from: "2025-04-01T09:00:00Z"))
  }

  @Test func familyTokenWithoutSiblingUsesTheClientOption() throws {
    let named = try Scenario("frt-only-client-option").plan()
    #expect(named.refreshTokens.map(\.clientID) == ["1fec8e78-bce4-4aaf-ab1b-5451cc387264"])
    #expect(named.refreshTokens.first?.familyID == "1")
    let unnamed = try Scenario("frt-only-no-client").plan()
    #expect(unnamed.writes.isEmpty)
    #expect(unnamed.entries("adal.family-token-without-client").count == 1)
    #expect(unnamed.entries("adal.no-token-migrates").count == 1)
  }

  @Test func barePayloadIdTokensAreNotForged() throws {
    let plan = try Scenario("adal1-bare-id-token").plan()
    #expect(plan.idTokens.isEmpty)
    #expect(plan.entries("adal.id-token-not-jwt").count == 1)
    #expect(plan.entries("option.skip-access-tokens").count == 1)
    #expect(plan.refreshTokens.map(\.secret.value) == ["RT.alice.e1"])
  }
}
