import ADALCache
import Adal2MSALSupport
import Foundation
import Testing
import _Adal2MSALTestSupport

/// The two archives ADAL's own test suite ships (Fixtures/adal-objc, provenance in Fixtures/SOURCES.txt).
@Suite("Real ADAL archives")
struct RealADALFixtureTests {
  /// 1000000 seconds after 2001-01-01 (`[NSDate dateWithTimeIntervalSinceReferenceDate:1000000]`).
  static let expiresOn = Date(timeIntervalSinceReferenceDate: 1_000_000)

  func readItem(_ name: String) throws -> (ADALReadResult, ADALTokenItem) {
    let result = try ADALCacheReader().read(try Fixtures.data("adal-objc/\(name).bplist"), file: name)
    #expect(result.inputKind == .archivedItem)
    #expect(result.plistFormat == .binary)
    #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
    return (result, try #require(result.items.first))
  }

  /// Fields both archives share (adal_*.decoded.txt).
  func expectCommonFields(_ item: ADALTokenItem) throws {
    #expect(item.authority == "https://login.microsoftonline.com/common")
    #expect(item.environment == "login.microsoftonline.com")
    #expect(item.tenant == "common")
    #expect(item.clientID == "27AD83C9-FC05-4A6C-AF01-36EDA42ED18F")
    #expect(item.familyID == nil)
    #expect(item.accessToken?.value == "<access token>")
    #expect(item.refreshToken?.value == "<refresh token>")
    #expect(item.accessTokenType == "Bearer")
    #expect(item.expiresOn == Self.expiresOn)
    #expect(item.cachedAt == nil && item.extendedExpiresOn == nil && item.homeAccountID == nil)
    #expect(item.kind == .singleResourceRefreshAndAccess)
    #expect(item.source.era == .e1)
    #expect(item.source.archiveClassName == "ADTokenCacheStoreItem")
    #expect(item.source.itemIndex == 0)
    #expect(item.additionalServer.isEmpty && item.additionalClient.isEmpty && item.tombstoneInfo == nil)
    // ADUserInformation: userId was an NSMutableString in the archive.
    #expect(item.archivedUserID == "myfakeuser@contoso.com")
    #expect(item.archivedUserIDDisplayable == true)
    let claims = try #require(item.idTokenClaims)
    #expect(claims.isJWT == false)
    #expect(claims.segmentCount == 1)
    #expect(claims.flavor == .v1)
    #expect(claims.userID == "myfakeuser@contoso.com")
    #expect(claims.userIDClaim == "upn")
    #expect(claims.isDisplayable)
    #expect(claims.oid == "53c6acf2-2742-4538-918d-e78257ec8516")
    #expect(claims.tid == "6fd1f5cd-a94c-4335-889b-6c598e6d8048")
    #expect(claims.sub == "0DxnAlLi12IvGL_dG3dDMk3zp6AQHnjgogyim5AWpSc")
    #expect(claims.iss == "https://sts.windows.net/6fd1f5cd-a94c-4335-889b-6c598e6d8048/")
    #expect(claims.givenName == "Fake")
    #expect(claims.familyName == "User")
    #expect(claims.ver == "1.0")
    #expect(claims.uniqueName == "myfakeuser@contoso.com")
    #expect(claims["typ"] == .string("JWT"))
    #expect(claims["exp"] == .integer(1_387_227_769))
    #expect(claims.uniqueID == "53c6acf2-2742-4538-918d-e78257ec8516")
    #expect(claims.homeTenantEvidence == nil)
    #expect(claims.issuerTenantID == "6fd1f5cd-a94c-4335-889b-6c598e6d8048")
    #expect(item.userID == "myfakeuser@contoso.com")
    #expect(item.isUserIDDisplayable)
  }

  @Test func v1BackCompatItem() throws {
    let (_, item) = try readItem("adal_v1_backcompat_item")
    try expectCommonFields(item)
    #expect(item.resource == nil)
  }

  @Test func hardcodedKeychainItem() throws {
    let (_, item) = try readItem("adal_keychain_hardcoded_item")
    try expectCommonFields(item)
    #expect(item.resource == "<resource>")
  }

  /// `-testHardcodedData` stores the archive with these exact attributes; read as a one-item keychain dump
  /// written by Foundation's plist writer.
  @Test(arguments: [PropertyListSerialization.PropertyListFormat.xml, .binary])
  func hardcodedKeychainAttributes(_ format: PropertyListSerialization.PropertyListFormat) throws {
    let service =
      "MSOpenTech.ADAL.1|aHR0cHM6Ly9sb2dpbi5taWNyb3NvZnRvbmxpbmUuY29tL2NvbW1vbg|PHJlc291cmNlPg|MjdhZDgzYzktZmMwNS00YTZjLWFmMDEtMzZlZGE0MmVkMTgw"
    let account = "bXlmYWtldXNlckBjb250b3NvLmNvbQ"
    let entry: [String: Any] = [
      "acct": account, "svce": service, "gena": Data("MSOpenTech.ADAL.1".utf8),
      "v_Data": try Fixtures.data("adal-objc/adal_keychain_hardcoded_item.bplist"), "class": "genp",
    ]
    let dump = try PropertyListSerialization.data(fromPropertyList: [entry], format: format, options: 0)
    let result = try ADALCacheReader().read(dump, file: "hardcoded.plist")
    #expect(result.inputKind == .keychainPlistArray)
    let item = try #require(result.items.first)
    #expect(result.items.count == 1)
    try expectCommonFields(item)
    #expect(item.source.service == service)
    #expect(item.source.account == account)
    #expect(item.keychainUserID == "myfakeuser@contoso.com")

    let key = try ADALKeychainService.decode(service)
    #expect(key.authority == "https://login.microsoftonline.com/common")
    #expect(key.resource == "<resource>")
    #expect(key.clientID == "27ad83c9-fc05-4a6c-af01-36eda42ed180")
    #expect(key.applicationIdentifier == nil && key.appKey == nil)
    #expect(ADALKeychainAccount.decode(account) == .encoded("myfakeuser@contoso.com"))
    #expect(ADALKeychainAccount.encode(userID: "myfakeuser@contoso.com") == account)

    // The svce client id (…ed180) is not the archived one (…ED18F): reported, never fatal.
    let mismatch = result.diagnostics.filter { $0.code == "adal.key-mismatch" }
    #expect(mismatch.count == 1)
    #expect(mismatch.first?.severity == .warning)
    #expect(mismatch.first?.message.contains("clientId") == true)
    #expect(mismatch.first?.location?.itemIndex == 0)
  }
}
