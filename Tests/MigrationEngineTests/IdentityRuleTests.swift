import ADALCache
import Adal2MSALSupport
import Foundation
import MigrationEngine
import Testing
import UnifiedCache

/// The identity rules one at a time, on items built in code.
@Suite struct IdentityRuleTests {
  let oid = "0a0a0a0a-0000-4000-8000-000000000001"
  let options = MigrationOptions(clock: .fixed(Date(timeIntervalSince1970: 1_750_000_000)))

  func plan(_ items: [ADALTokenItem], existing: UnifiedCacheContents = UnifiedCacheContents()) -> MigrationPlan {
    Migration.plan(adal: [ADALInput(file: "items", items: items)], existing: existing, options: options)
  }

  @Test func clientInfoInAdditionalServerGivesUidUtid() throws {
    let info = Base64URL.encode(#"{"uid":"u-1","utid":"t-1"}"#)
    let plan = plan([
      try ItemFactory.item(
        index: 0, claims: ItemFactory.member(oid: oid, tid: contosoTenant, upn: "a@x.com"), clientInfo: info,
        refreshToken: "rt")
    ])
    #expect(plan.users.map(\.homeAccountID) == ["u-1.t-1"])
    #expect(plan.users.map(\.rule) == [.clientInfo])
  }

  /// One item whose archived home account id and client_info name two users: a conflict, as two items that
  /// disagree are; the same id in both (any case) is one candidate.
  @Test func anItemWhoseArchivedIdAndClientInfoDisagreeIsAConflict() throws {
    let info = Base64URL.encode(#"{"uid":"u-1","utid":"t-1"}"#)
    let claims = ItemFactory.member(oid: oid, tid: contosoTenant, upn: "a@x.com")
    for (home, code) in [("u-2.t-1", "identity.conflict"), ("U-1.T-1", "identity.resolved")] {
      let plan = plan([
        try ItemFactory.item(index: 0, claims: claims, home: home, clientInfo: info, refreshToken: "rt")
      ])
      #expect(plan.users.map(\.reasonCode) == [code], "\(home)")
    }
  }

  @Test func siblingWithTheSameOidLendsItsIdentity() throws {
    let claims = ItemFactory.member(oid: oid, tid: contosoTenant, upn: "a@x.com")
    let plan = plan([
      try ItemFactory.item(index: 0, claims: claims, home: "uid-a.utid-a", refreshToken: "rt-new"),
      try ItemFactory.item(index: 1, claims: claims, client: officeID, refreshToken: "rt-old"),
    ])
    let office = try #require(plan.entries.first { $0.entity?.clientID == officeID && $0.kind == .refreshToken })
    #expect(office.identityRule == .siblingItem && office.homeAccountID == "uid-a.utid-a")
    #expect(plan.users.map(\.rule) == [.archivedHomeAccountID])
  }

  @Test func twoArchivedIdentitiesForOneUserAreAConflictWithBothCandidates() throws {
    let claims = ItemFactory.member(oid: oid, tid: contosoTenant, upn: "a@x.com")
    let plan = plan([
      try ItemFactory.item(index: 0, claims: claims, home: "uid-a.utid-a", refreshToken: "rt1"),
      try ItemFactory.item(index: 1, claims: claims, home: "uid-b.utid-b", client: officeID, refreshToken: "rt2"),
    ])
    #expect(plan.writes.isEmpty)
    #expect(plan.users.first?.status == .conflict)
    #expect(plan.users.first?.candidates == ["uid-a.utid-a", "uid-b.utid-b"])
    #expect(plan.entries.map(\.action) == [.conflict])
  }

  @Test func twoExistingAccountsWithTheUsernameAreAConflict() throws {
    var existing = UnifiedCacheContents()
    for home in ["h1.t", "h2.t"] {
      existing.upsert(
        .account(UnifiedAccount(homeAccountID: home, environment: "login.windows.net", realm: "t", username: "A@X.com"))
      )
    }
    let claims: [String: Any] = ["upn": "a@x.com", "ver": "1.0"]
    let plan = plan([try ItemFactory.item(index: 0, claims: claims, refreshToken: "rt")], existing: existing)
    #expect(plan.users.first?.status == .conflict && plan.users.first?.candidates == ["h1.t", "h2.t"])
  }

  /// Rule 3 finds an account by its username; an id token that shows a member of that account's tenant under
  /// another object id is another user of the same name: a conflict, never the other user's account. The same
  /// name with the account's own oid, or a guest's token (another tenant), still finds it.
  @Test func anExistingAccountOfTheNameButAnotherObjectInItsTenantIsAConflict() throws {
    let other = "0b0b0b0b-0000-4000-8000-000000000002"
    var existing = UnifiedCacheContents()
    existing.upsert(
      .account(
        UnifiedAccount(
          homeAccountID: "\(other).\(contosoTenant)", environment: "login.windows.net", realm: contosoTenant,
          username: "alice@contoso.com")))
    let cases: [(claims: [String: Any], code: String, home: String?)] = [
      (ItemFactory.member(oid: oid, tid: contosoTenant, upn: "Alice@Contoso.com"), "identity.conflict", nil),
      (
        ItemFactory.member(oid: other, tid: contosoTenant, upn: "Alice@Contoso.com"), "identity.resolved",
        "\(other).\(contosoTenant)"
      ),
      (
        ItemFactory.member(oid: oid, tid: fabrikamTenant, upn: "alice@contoso.com"), "identity.resolved",
        "\(other).\(contosoTenant)"
      ),
    ]
    for (claims, code, home) in cases {
      let plan = plan([try ItemFactory.item(index: 0, claims: claims, refreshToken: "rt")], existing: existing)
      #expect(plan.users.map(\.reasonCode) == [code], "\(claims)")
      #expect(plan.users.first?.homeAccountID == home, "\(claims)")
      if code == "identity.conflict" {
        #expect(plan.users.first?.candidates == ["\(oid).\(contosoTenant)", "\(other).\(contosoTenant)"].sorted())
        #expect(plan.writes.isEmpty)
      }
    }
  }

  /// A resource that holds white space is a list of scopes stored where a resource belongs (#13): its scopes are
  /// the target, named by a warning; a resource is the resource + `/.default`.
  @Test func aScopeListStoredAsTheResourceIsItsScopesAndNamed() throws {
    let claims = ItemFactory.member(oid: oid, tid: contosoTenant, upn: "a@x.com")
    let expires = options.clock.now.addingTimeInterval(3600)
    for (resource, target, warned) in [
      (
        "https://graph.microsoft.com/User.Read  https://graph.microsoft.com/Mail.Read",
        "https://graph.microsoft.com/User.Read https://graph.microsoft.com/Mail.Read", true
      ),
      ("https://graph.microsoft.com", "https://graph.microsoft.com/.default", false),
    ] {
      let plan = plan([
        try ItemFactory.item(
          index: 0, claims: claims, refreshToken: "rt", accessToken: "at", resource: resource, expiresOn: expires)
      ])
      let token = try #require(plan.entries.first { $0.kind == .accessToken }?.entity)
      guard case .accessToken(let accessToken) = token else { throw CancellationError() }
      #expect(accessToken.target == target)
      #expect(plan.diagnostics.contains { $0.code == "adal.scope-list-resource" } == warned, "\(resource)")
    }
  }

  @Test func existingAccountInAnotherCloudDoesNotMatch() throws {
    var existing = UnifiedCacheContents()
    existing.upsert(
      .account(
        UnifiedAccount(homeAccountID: "h.t", environment: "login.chinacloudapi.cn", realm: "t", username: "a@x.com")))
    let plan = plan(
      [
        try ItemFactory.item(
          index: 0, claims: ItemFactory.member(oid: oid, tid: contosoTenant, upn: "a@x.com"), refreshToken: "rt")
      ], existing: existing)
    #expect(plan.users.first?.rule == .derivedFromIDToken)
    #expect(plan.users.first?.homeAccountID == "\(oid).\(contosoTenant)")
  }

  @Test(arguments: [
    ("acct", "1", "identity.guest"), ("upn", "x_y.com#EXT#@contoso.onmicrosoft.com", "identity.guest"),
    ("upn", "Live.Com#a@x.com", "identity.guest"), ("upn", "zoë_x.com#ext#@contoso.onmicrosoft.com", "identity.guest"),
    ("idp", "live.com", "identity.guest"), ("iss", "", "identity.home-tenant-unknown"),
  ])
  func tokensWithoutMemberEvidenceAreSkipped(_ claim: String, _ value: String, _ code: String) throws {
    var claims = ItemFactory.member(oid: oid, tid: contosoTenant, upn: "a@x.com")
    if value.isEmpty { claims.removeValue(forKey: claim) } else { claims[claim] = claim == "acct" ? 1 : value }
    let plan = plan([try ItemFactory.item(index: 0, claims: claims, refreshToken: "rt")])
    #expect(plan.writes.isEmpty)
    #expect(plan.users.first?.reasonCode == code)
  }

  @Test func accessTokenRealmComesFromTheAuthorityOrTheTid() throws {
    let claims = ItemFactory.member(oid: oid, tid: contosoTenant, upn: "a@x.com")
    let future = Date(timeIntervalSince1970: 4_000_000_000)
    let plan = plan([
      try ItemFactory.item(index: 0, claims: claims, refreshToken: "rt"),
      try ItemFactory.item(
        index: 1, claims: claims, authority: "https://login.microsoftonline.com/organizations",
        accessToken: "at1", resource: "https://a", expiresOn: future),
      try ItemFactory.item(
        index: 2, claims: claims, authority: "https://login.microsoftonline.com/contoso.com",
        accessToken: "at2", resource: "https://b", expiresOn: future),
    ])
    let realms = Dictionary(uniqueKeysWithValues: plan.accessTokens.map { ($0.target, $0.realm) })
    // A tenant named by its domain is the id token's tid, as MSAL finds it (discovery, the response's tid).
    #expect(realms == ["https://a/.default": contosoTenant, "https://b/.default": contosoTenant])
    // No stored cachedAt (pre-2.7): the pinned clock.
    #expect(plan.accessTokens.allSatisfy { $0.cachedAt == Date(timeIntervalSince1970: 1_750_000_000) })
  }
}
