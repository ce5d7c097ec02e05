import ADALCache
import Adal2MSALSupport
import Foundation
import Testing
import _Adal2MSALTestSupport

/// ADAL Python / Azure CLI `accessTokens.json` and ADAL Node caches: the fixture the real `adal` 1.2.7 wrote
/// (scripts/fixtures/make_adal_python_cache.py) and the real files of ../shared/realworld, read in place.
@Suite("ADAL Python and Node caches")
struct ADALPythonReaderTests {
  static let berlin = try! #require(TimeZone(identifier: "Europe/Berlin"))
  static let realWorld = Fixtures.repositoryRoot.appendingPathComponent("../shared/realworld").standardized

  static func read(_ data: Data, file: String, zone: TimeZone = berlin) throws -> ADALReadResult {
    var limits = InputLimits.default
    limits.localTimeZone = zone
    return try ADALCacheReader(limits: limits).read(data, file: file)
  }

  static func date(_ iso: String) -> Date {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    return formatter.date(from: iso) ?? .distantPast
  }

  @Test func azureCLIFileFromTheRealWriterReadsEveryEntry() throws {
    let result = try Self.read(try Fixtures.data("adal-python/accessTokens.json"), file: "accessTokens.json")
    #expect(result.inputKind == .adalPythonAccessTokens)
    #expect(result.items.count == 4)
    #expect(result.items.allSatisfy { $0.kind == .multiResourceRefreshToken })
    #expect(result.items.map(\.source.itemIndex) == [0, 1, 2, 3])
    let (aliceManagement, aliceGraph, bob, carol) = (result.items[0], result.items[1], result.items[2], result.items[3])
    #expect(aliceManagement.authority == "https://login.microsoftonline.com/common")
    #expect(aliceManagement.clientID == "04b07795-8ddb-461a-bbee-02f9e1bf7b46")
    #expect(aliceManagement.resource == "https://management.core.windows.net/")
    #expect(aliceManagement.refreshToken?.value == "fake-refresh-token-alice")
    #expect(aliceManagement.accessTokenType == "Bearer")
    // The JWT access token's exp (09:00Z + 3600 s), not expiresOn's local 11:00:00.25.
    #expect(aliceManagement.expiresOn == Self.date("2099-11-20T10:00:00.000Z"))
    // Azure CLI deleted tenantId: tid comes from the access token's claims, then from the authority.
    #expect(aliceManagement.idTokenClaims?.tid == "11111111-1111-4111-8111-111111111111")
    #expect(aliceManagement.idTokenClaims?.oid == "aaaaaaaa-0000-4000-8000-00000000000a")
    #expect(aliceManagement.userID == "alice@contoso.example")
    #expect(aliceManagement.idToken == nil)
    #expect(aliceGraph.authority == "https://login.microsoftonline.com/11111111-1111-4111-8111-111111111111")
    #expect(aliceGraph.idTokenClaims?.tid == "11111111-1111-4111-8111-111111111111")
    // An opaque access token: expiresOn "2099-11-20 11:00:00.250000" in Europe/Berlin (UTC+1).
    #expect(aliceGraph.expiresOn == Self.date("2099-11-20T10:00:00.250Z"))
    #expect(bob.expiresOn == Self.date("2099-11-20T09:01:00.250Z"))
    #expect(carol.idTokenClaims?.idp == "https://sts.windows.net/33333333-3333-4333-8333-333333333333/")
    // The service principal: named by id, its secret nowhere.
    let principal = try #require(result.diagnostics.first { $0.code == "adal.service-principal-entry" })
    #expect(principal.message.contains("55555555-5555-4555-8555-555555555555"))
    #expect(principal.location?.itemIndex == 4)
    #expect(!"\(result.diagnostics)".contains("fake-client-secret-sp"))
    #expect(!"\(result.items)".contains("fake-refresh-token"))
  }

  @Test func plainADALPythonCacheKeepsTheFieldsAzureCLIDeletes() throws {
    let result = try Self.read(try Fixtures.data("adal-python/adal_token_cache.json"), file: "adal_token_cache.json")
    #expect(result.items.count == 4)
    #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
    let bob = result.items[2]
    #expect(bob.idTokenClaims?.tid == "22222222-2222-4222-8222-222222222222")
    #expect(bob.idTokenClaims?.givenName == "Bob")
    #expect(bob.idTokenClaims?.familyName == "Berg")
    #expect(bob.isUserIDDisplayable)
  }

  @Test func naiveLocalExpiryFollowsTheTimeZone() throws {
    let data = try Fixtures.data("adal-python/accessTokens.json")
    let utc = try Self.read(data, file: "a.json", zone: try #require(TimeZone(identifier: "UTC")))
    let berlin = try Self.read(data, file: "a.json")
    // The opaque token's expiresOn moves with the zone; the JWT's exp does not.
    #expect(utc.items[2].expiresOn == Self.date("2099-11-20T10:01:00.250Z"))
    #expect(berlin.items[2].expiresOn == Self.date("2099-11-20T09:01:00.250Z"))
    #expect(utc.items[0].expiresOn == berlin.items[0].expiresOn)
  }

  @Test func azureCLI2017FileFromTheKubernetesTests() throws {
    let name = "azure-cli-2017_accessTokens_from-k8s-azure-plugin-test.json"
    let data = try Data(contentsOf: Self.realWorld.appendingPathComponent(name))
    let result = try Self.read(data, file: name, zone: try #require(TimeZone(identifier: "UTC")))
    #expect(result.inputKind == .adalPythonAccessTokens)
    #expect(result.items.count == 2)
    #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
    #expect(result.items.map(\.kind) == [.multiResourceRefreshToken, .multiResourceRefreshToken])
    let expiry = try #require(result.items[0].expiresOn)
    #expect(abs(expiry.timeIntervalSince(Self.date("2017-04-03T10:36:27.808Z")) - 0.000196) < 0.000_01)
    // The tenanted authority gives tid; /common gives none.
    #expect(result.items[0].idTokenClaims?.tid == "72f988bf-86f1-41af-91ab-2d7cd011db47")
    #expect(result.items[1].idTokenClaims?.tid == nil)
    #expect(result.items[1].idTokenClaims?.oid == "ceb33d00-c512-4657-84fa-c6d9433291e4")
    #expect(result.items[1].userID == "test")
  }

  @Test func servicePrincipalOnlyFileHasNoItems() throws {
    let name = "azure-cli_auth_tests_test.json.json"
    let result = try Self.read(try Data(contentsOf: Self.realWorld.appendingPathComponent(name)), file: name)
    #expect(result.items.isEmpty)
    #expect(result.diagnostics.map(\.code) == ["adal.service-principal-entry"])
    #expect(result.diagnostics[0].message.contains("service principal myapp in tenant mytenant"))
    #expect(!result.diagnostics[0].message.contains("Secret"))
  }

  /// A daemon's own tokens, as the real `adal` 1.2.7 cached them (`acquire_token_with_client_credentials`,
  /// scripts/fixtures/make_adal_python_app_cache.py): no user's sign-in, so no item (a user Account named after the
  /// service principal, or "no home tenant" for an opaque token, were the readings before); the user's entry beside
  /// them is read. A user's entry that lacks only its refresh token stays an item.
  @Test func anAppsOwnTokensAreNoItems() throws {
    let data = try Fixtures.data("adal-python/app-only/adal_token_cache.json")
    let result = try Self.read(data, file: "adal_token_cache.json")
    #expect(result.items.map(\.archivedUserID) == ["alice@contoso.example"])
    let notes = result.diagnostics.filter { $0.code == "adal.app-only-entry" }
    #expect(notes.map(\.location?.itemIndex) == [1, 2])
    #expect(notes.allSatisfy { $0.severity == .note })
    #expect(notes.first?.message.contains("app 0a0a0a0a-0000-4000-8000-00000000000a") == true)
    #expect(!notes.contains { $0.message.contains("eyJ") || $0.message.contains("fake-opaque") })
    var entries = try #require(JSONSerialization.jsonObject(with: data) as? [[String: Any]])
    entries[0]["refreshToken"] = nil
    let withoutRefresh = try Self.read(JSONSerialization.data(withJSONObject: entries), file: "cache.json")
    #expect(withoutRefresh.items.count == 1)
  }

  /// `[]`, as Azure CLI writes `accessTokens.json` after its last sign-out: no items, a note, no error.
  @Test(arguments: ["[]", " [ ]\n", "\u{FEFF}[]"])
  func anEmptyArrayIsAnEmptyCache(_ text: String) throws {
    let result = try Self.read(Data(text.utf8), file: "accessTokens.json")
    #expect(result.items.isEmpty)
    #expect(result.inputKind == .adalPythonAccessTokens)
    #expect(result.diagnostics.map(\.code) == ["adal.empty-cache"])
  }

  @Test func adalNodeTemplateWithoutMetadataIsNamedUnreadable() throws {
    let name = "adal-node_refresh-token-sample_adal.cacheTemplate.json"
    let result = try Self.read(try Data(contentsOf: Self.realWorld.appendingPathComponent(name)), file: name)
    #expect(result.inputKind == .adalNode)
    #expect(result.items.isEmpty)
    let diagnostic = try #require(result.diagnostics.first)
    #expect(diagnostic.code == "adal.item-unreadable")
    #expect(diagnostic.message.contains("no _authority"))
    #expect(diagnostic.location?.itemIndex == 0)
  }

  @Test func adalNodeEntriesWithISODates() throws {
    let json = """
      [{"tokenType":"Bearer","expiresIn":3599,"expiresOn":"2019-05-05T00:22:01.577Z","resource":"https://graph.microsoft.com",
        "accessToken":"node-at","refreshToken":"node-rt","userId":"jane@contoso.example","isUserIdDisplayable":true,
        "oid":"91b9b524-e4d0-4133-aafd-1ff32e3e7cfc","tenantId":"a541e3eb-8333-48a0-a635-2a08f6726ece",
        "createdOn":"1970-01-19T04:27:22.921Z","_clientId":"node-client","_authority":"https://login.microsoftonline.com/common/","isMRRT":true}]
      """
    let result = try Self.read(Data(json.utf8), file: "node.json")
    #expect(result.inputKind == .adalNode)
    let item = try #require(result.items.first)
    #expect(item.expiresOn == Self.date("2019-05-05T00:22:01.577Z"))
    #expect(item.cachedAt == nil)  // ADAL Node's createdOn read seconds as milliseconds: a 1970 date is dropped
    #expect(item.idTokenClaims?.tid == "a541e3eb-8333-48a0-a635-2a08f6726ece")
    #expect(item.kind == .multiResourceRefreshToken)
  }
}
