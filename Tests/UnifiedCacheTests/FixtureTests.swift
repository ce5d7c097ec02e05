import Foundation
import Testing
import UnifiedCache
import _Adal2MSALTestSupport

/// Every real MSAL cache in Fixtures/msal-json reads with the expected entities, and survives a round trip.
@Suite struct FixtureTests {
  static let fixtureNames: [String] =
    (try? Fixtures.files(in: "msal-json", withExtension: "json").map(\.lastPathComponent)) ?? []

  @Test func allFixturesArePresent() {
    #expect(Self.fixtureNames.count == 6)
  }

  @Test(arguments: fixtureNames)
  func roundTripKeepsEveryEntityAndUnknownField(name: String) throws {
    let first = try TestCache.read(fixture: name).contents
    let written = UnifiedCacheJSONWriter.export(first).data
    let second = try UnifiedCacheJSONReader().read(written, file: "written").contents
    #expect(second == first)
    // Writing again gives the same bytes: the output is deterministic.
    #expect(UnifiedCacheJSONWriter.export(second).data == written)
  }

  @Test func dotnetOneAccountSeed() throws {
    let result = try TestCache.read(fixture: "msal-dotnet_token_cache_one_acc_seed.json")
    let cache = result.contents
    #expect(result.diagnostics.isEmpty)
    #expect(TestCache.counts(cache) == [1, 1, 1, 1, 1])
    let home = "ae821e4d-f408-451a-af82-882691148603.49f548d0-12b7-4169-a390-bb5304d24462"
    let account = try #require(cache.accounts.entities.first)
    #expect(account.homeAccountID == home)
    #expect(account.username == "liu.kang@bogavrilLTD.onmicrosoft.com")
    #expect(account.environment == "login.windows.net")
    #expect(account.authorityType == "MSSTS")
    let token = try #require(cache.accessTokens.entities.first)
    #expect(
      token.target
        == "Files.ReadWrite Files.ReadWrite.All openid profile User.Read User.ReadBasic.All User.ReadWrite email")
    #expect(token.expiresOn == TestCache.date(1_583_431_075))
    #expect(token.extendedExpiresOn == TestCache.date(1_583_431_075))
    #expect(token.additionalFields["ext_expires_on"] == nil)  // the legacy duplicate is folded in
    #expect(token.clientInfo != nil)
    #expect(cache.refreshTokens.entities.first?.isFamilyToken == false)
  }

  @Test func dotnetADFS() throws {
    let result = try TestCache.read(fixture: "msal-dotnet_token_cache_adfs.json")
    let cache = result.contents
    let home = "unZYjm1NugFLhP1l338bxhRYyHbtCYOWX1P+F2fCsiQ="
    #expect(cache.accounts.entities.map(\.homeAccountID) == [home])  // field keeps its case
    #expect(cache.accounts.keys == ["unzyjm1nugflhp1l338bxhryyhbtcyowx1p+f2fcsiq=-fs.msidlab8.com-"])
    #expect(cache.accounts.entities.first?.realm == "")
    let token = try #require(cache.accessTokens.entities.first)
    #expect(token.extendedExpiresOn == TestCache.date(-62_135_596_800))
    #expect(
      token.canonicalKey
        == "unzyjm1nugflhp1l338bxhryyhbtcyowx1p+f2fcsiq=-fs.msidlab8.com-accesstoken-publicclientid--openid")
    #expect(!TestCache.codes(result).contains("unified.key-mismatch"))
  }

  @Test func dotnetCacheFromTheFuture() throws {
    let result = try TestCache.read(fixture: "msal-dotnet_CacheFromTheFuture.json")
    let cache = result.contents
    #expect(TestCache.counts(cache) == [3, 5, 4, 3, 3])
    #expect(cache.unknownSections.keys == ["Foo", "EmptyArrayNode", "EmptyNode", "NullNode"])
    #expect(cache.unknownSections["NullNode"] == .null)
    #expect(cache.unknownSections["EmptyArrayNode"] == .array([]))
    let family = try #require(cache.refreshTokens["my-uid.my-utid-env-refreshtoken-1--"])
    #expect(family.familyID == "1")
    #expect(family.clientID == "d3adb33f-c0de-ed0c-c0de-deadb33fc0d3")
    #expect(cache.accessTokens.entities.allSatisfy { $0.userAssertionHash == "assertion hash" })
    #expect(cache.appMetadata.entities.map(\.familyID) == ["another_family", "1", nil])
    // Nothing but a note per section kept verbatim, the member counts as read.
    #expect(result.diagnostics.allSatisfy { $0.severity == .note && $0.code == UnifiedCacheJSONReader.sectionKeptCode })
    #expect(
      result.diagnostics.map(\.message).map { $0.prefix { $0 != ")" } } == [
        "a section adal2msal does not model (an object, 2 members", "a section adal2msal does not model (an array",
        "a section adal2msal does not model (an object, 0 members", "a section adal2msal does not model (a null",
      ])
  }

  @Test func dotnetMultiCloud() throws {
    let result = try TestCache.read(fixture: "msal-dotnet_MultiCloudTokenCache.json")
    let cache = result.contents
    #expect(
      Set(cache.accounts.entities.map(\.environment)) == [
        "login.windows.net", "login.microsoftonline.de", "login.partner.microsoftonline.cn",
      ])
    // Explicit nulls are absent values for the model, kept (and only they) to be written back as read.
    #expect(
      cache.accounts.entities.allSatisfy { $0.givenName == nil && $0.additionalFields.allSatisfy { $0.value == .null } }
    )
    #expect(
      cache.accessTokens.entities.allSatisfy {
        $0.userAssertionHash == nil && $0.additionalFields.allSatisfy { $0.value == .null }
      })
    // family_id "" is kept as written but is not a family.
    #expect(cache.refreshTokens.entities.filter { $0.familyID == "" }.count == 2)
    #expect(cache.refreshTokens.entities.allSatisfy { !$0.isFamilyToken })
    // Keys naming client 872cd9fa… while the fields say 0615b6ca…: reported, keyed by the fields.
    let mismatches = result.diagnostics.filter { $0.code == "unified.key-mismatch" }
    #expect(mismatches.count == 6)
    #expect(cache.accessTokens.entities.allSatisfy { $0.clientID == "0615b6ca-88d4-4884-8729-b178178f7c27" })
    #expect(mismatches.allSatisfy { $0.location?.keyPath?.contains("872cd9fa") == true })
  }

  @Test func python2019FloatTimestampsAndArrayTarget() throws {
    let result = try TestCache.read(fixture: "msal-python-2019_via-msal-dotnet_cachecompat_python.json")
    let cache = result.contents
    let token = try #require(cache.accessTokens.entities.first)
    #expect(token.cachedAt == TestCache.date(1_548_804_634))
    #expect(token.expiresOn == TestCache.date(1_548_847_834))
    #expect(
      token.target
        == "profile openid email https://graph.microsoft.com/User.Read https://graph.microsoft.com/User.ReadBasic.All https://graph.microsoft.com/.default"
    )
    let rt = try #require(cache.refreshTokens.entities.first)
    #expect(rt.target?.hasPrefix("profile openid email") == true)
    #expect(cache.accounts.entities.first?.authorityType == "MSSTS")
    #expect(TestCache.codes(result) == ["unified.authority-type"])
    #expect(cache.appMetadata.isEmpty)
    // Written for MSAL Python (which reads timestamps with int()): integer strings and a string target.
    let text = String(decoding: UnifiedCacheJSONWriter.export(cache, for: .python).data, as: UTF8.self)
    #expect(text.contains("\"cached_at\": \"1548804634\""))
    #expect(!text.contains("1548804634.0556107"))
    // Written back as read: the float timestamp as it was.
    let asRead = String(decoding: UnifiedCacheJSONWriter.export(cache).data, as: UTF8.self)
    #expect(asRead.contains("1548804634.0556107"))
  }

  /// `inspect`'s text names each entity by the key the file holds it under, as its JSON and `export` without
  /// `--for` do: it showed the canonical key (`…-refreshtoken-1--` for MSAL Python's `…-refreshtoken-<client>--<scope>`),
  /// which appeared nowhere in the file.
  @Test func inspectionTextShowsTheFilesKeys() throws {
    let name = "msal-python-real_lifecycle.json"
    let lines = UnifiedCacheInspection.textLines(try TestCache.read(fixture: name)).joined(separator: "\n")
    let file = try #require(
      try JSONSerialization.jsonObject(with: Fixtures.data("msal-json/\(name)")) as? [String: Any])
    var keys = 0
    for section in ["AccessToken", "RefreshToken", "IdToken", "Account", "AppMetadata"] {
      for key in (file[section] as? [String: Any] ?? [:]).keys {
        keys += 1
        #expect(lines.contains(" \(key) "), "\(section) \(key) is not shown")
      }
    }
    #expect(keys > 5)
  }
}
