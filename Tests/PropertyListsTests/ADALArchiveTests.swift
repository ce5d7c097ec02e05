import Foundation
import PropertyLists
import Testing
import _Adal2MSALTestSupport

/// The two real ADAL archives (Fixtures/adal-objc, see their .decoded.txt) decode field by field.
@Suite struct ADALArchiveTests {
  @Test(arguments: [
    ("adal_keychain_hardcoded_item", ArchiveValue.string("<resource>")),
    ("adal_v1_backcompat_item", ArchiveValue.null),
  ])
  func decodesEveryField(name: String, resource: ArchiveValue) throws {
    let file = "adal-objc/\(name).bplist"
    let data = try Fixtures.data(file)
    // The .bplist is the decoded .b64 text of the upstream test.
    let b64 = try String(contentsOf: Fixtures.url("adal-objc/\(name).b64"), encoding: .utf8)
    #expect(Data(base64Encoded: b64.trimmingCharacters(in: .whitespacesAndNewlines)) == data)

    let document = try PropertyListReader().read(data, file: file)
    #expect(document.format == .binary)
    #expect(KeyedArchive.isKeyedArchive(document.value))
    let archive = try KeyedArchiveReader().read(document.value, file: file)
    #expect(archive.rootClassName == "ADTokenCacheStoreItem")
    let item = try #require(archive.root.objectValue)
    #expect(item.className == "ADTokenCacheStoreItem")
    #expect(
      item.fields.map(\.key) == [
        "authority", "resource", "userInformation", "expiresOn", "clientId", "refreshToken", "accessToken",
        "accessTokenType",
      ])
    #expect(item["authority"] == .string("https://login.microsoftonline.com/common"))
    #expect(item["resource"] == resource)
    #expect(item["clientId"] == .string("27AD83C9-FC05-4A6C-AF01-36EDA42ED18F"))
    #expect(item["expiresOn"] == .date(Date(timeIntervalSinceReferenceDate: 1_000_000)))
    #expect(item["refreshToken"] == .string("<refresh token>"))
    #expect(item["accessToken"] == .string("<access token>"))
    #expect(item["accessTokenType"] == .string("Bearer"))

    let user = try #require(item["userInformation"]?.objectValue)
    #expect(user.className == "ADUserInformation")
    #expect(user.fields.map(\.key) == ["userIdDisplayable", "allClaims", "rawIdToken", "userId"])
    #expect(user["userId"] == .string("myfakeuser@contoso.com"))  // an NSMutableString in the archive
    #expect(user["userIdDisplayable"]?.boolValue == true)
    let rawIdToken = try #require(user["rawIdToken"]?.stringValue)
    #expect(rawIdToken.count == 592)
    #expect(rawIdToken.hasPrefix("eyJ0eXAiOiJKV1QiLCJhdWQiOiJjM2M3ZjVlNS03MTUzLTQ0ZDQtOTBlNi0z"))
    // The id token is one base64url JSON segment whose claims repeat allClaims.
    let claimsJSON = try #require(Base64URLDecode.data(rawIdToken))
    let tokenClaims = try #require(try JSONSerialization.jsonObject(with: claimsJSON) as? [String: Any])
    #expect(tokenClaims["upn"] as? String == "myfakeuser@contoso.com")

    let claims = try #require(user["allClaims"]?.stringKeyedEntries)
    let expectedClaims: [(String, ArchiveValue)] = [
      ("upn", .string("myfakeuser@contoso.com")), ("nbf", .integer(1_387_224_169)),
      ("exp", .integer(1_387_227_769)),
      ("iss", .string("https://sts.windows.net/6fd1f5cd-a94c-4335-889b-6c598e6d8048/")),
      ("oid", .string("53c6acf2-2742-4538-918d-e78257ec8516")), ("typ", .string("JWT")), ("ver", .string("1.0")),
      ("aud", .string("c3c7f5e5-7153-44d4-90e6-329686d48d76")), ("iat", .integer(1_387_224_169)),
      ("family_name", .string("User")), ("sub", .string("0DxnAlLi12IvGL_dG3dDMk3zp6AQHnjgogyim5AWpSc")),
      ("tid", .string("6fd1f5cd-a94c-4335-889b-6c598e6d8048")), ("unique_name", .string("myfakeuser@contoso.com")),
      ("given_name", .string("Fake")),
    ]
    #expect(claims.map(\.key) == expectedClaims.map(\.0))
    #expect(claims.map(\.value) == expectedClaims.map(\.1))
  }
}

/// base64url without padding, decoded for the id-token check above.
enum Base64URLDecode {
  static func data(_ text: String) -> Data? {
    var standard = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
    standard += String(repeating: "=", count: (4 - standard.count % 4) % 4)
    return Data(base64Encoded: standard)
  }
}
