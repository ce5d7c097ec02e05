import Testing
import UnifiedCache

@Suite struct AccountLookupTests {
  static let contents: UnifiedCacheContents = {
    var cache = UnifiedCacheContents()
    cache.accounts.upsert(
      UnifiedAccount(
        homeAccountID: "oid.home", environment: "login.windows.net", realm: "guest", username: "Ann@Contoso.com"))
    cache.accounts.upsert(
      UnifiedAccount(
        homeAccountID: "oid.home", environment: "login.windows.net", realm: "home", username: "ann@contoso.com"))
    cache.accounts.upsert(
      UnifiedAccount(
        homeAccountID: "gov.tenant", environment: "login.microsoftonline.us", realm: "tenant",
        username: "ann@contoso.com"))
    cache.accounts.upsert(
      UnifiedAccount(homeAccountID: "bob.t", environment: "fs.contoso.com", realm: "adfs", username: "bob@contoso.com"))
    return cache
  }()

  @Test func usernameIsTrimmedAndCaseInsensitive() {
    #expect(AccountLookup.accountsForUsername("  ANN@contoso.COM\n", in: Self.contents).count == 3)
    #expect(AccountLookup.accountsForUsername("", in: Self.contents).isEmpty)
    #expect(AccountLookup.accountsForUsername("nobody@contoso.com", in: Self.contents).isEmpty)
  }

  @Test func environmentMatchesByAliasGroup() {
    let publicCloud = AccountLookup.accountsForUsername(
      "ann@contoso.com", in: Self.contents, environment: "login.microsoftonline.com")
    #expect(publicCloud.map(\.homeAccountID) == ["oid.home", "oid.home"])
    let gov = AccountLookup.accountsForUsername(
      "ann@contoso.com", in: Self.contents, environment: "login.usgovcloudapi.net")
    #expect(gov.map(\.homeAccountID) == ["gov.tenant"])
    #expect(
      AccountLookup.accountsForUsername("bob@contoso.com", in: Self.contents, environment: "login.windows.net").isEmpty)
    #expect(
      AccountLookup.accountsForUsername("bob@contoso.com", in: Self.contents, environment: "FS.contoso.com").count == 1)
  }

  @Test func singleLookupPrefersTheHomeTenant() {
    let account = Self.contents.accountForUsername("ann@contoso.com", environment: "login.windows.net")
    #expect(account?.realm == "home")
  }

  @Test func identifierLookupIsCaseInsensitive() {
    #expect(Self.contents.accountForIdentifier("OID.HOME")?.realm == "home")
    #expect(AccountLookup.accountsForIdentifier("oid.home", in: Self.contents).count == 2)
    #expect(Self.contents.accountForIdentifier("missing") == nil)
  }
}
