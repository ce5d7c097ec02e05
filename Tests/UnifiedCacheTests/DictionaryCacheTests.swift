import Adal2MSALSupport
import Foundation
import Testing
import UnifiedCache
import _Adal2MSALTestSupport

/// The MSAL.NET v2 dictionary cache (`SerializeMsalV2`), on MSAL.NET's own test file, read in place from
/// ../shared/realworld (msal-dotnet_cachecompat_dotnet_dictionary.bin).
@Suite struct DictionaryCacheTests {
  static let file = Fixtures.repositoryRoot
    .appendingPathComponent("../shared/realworld/msal-dotnet_cachecompat_dotnet_dictionary.bin").standardized
  static let home = "13dd2c19-84cd-416a-ae7d-49573e425619.26039cce-489d-4002-8293-5b0c5134eacb"

  @Test func msalDotNetDictionaryFileReadsAsUnifiedEntities() throws {
    let result = try UnifiedCacheJSONReader().read(try Data(contentsOf: Self.file), file: "dictionary.bin")
    #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
    let contents = result.contents
    #expect(contents.accessTokens.count == 1 && contents.refreshTokens.count == 1)
    #expect(contents.idTokens.count == 1 && contents.accounts.count == 1 && contents.appMetadata.isEmpty)
    let account = try #require(contents.accounts.entities.first)
    #expect(account.homeAccountID == Self.home)
    #expect(account.username == "abhi@ddobalianoutlook.onmicrosoft.com")
    #expect(account.environment == "login.windows.net")
    let token = try #require(contents.accessTokens.entities.first)
    #expect(token.clientID == "b945c513-3946-4ecd-b179-6499803a2167")
    #expect(token.realm == "26039cce-489d-4002-8293-5b0c5134eacb")
    #expect(token.target == "User.Read User.ReadBasic.All profile openid email")
    #expect(token.expiresOn == Date(timeIntervalSince1970: 1_548_846_619))
    // No keys in the format: each entity sits under the key computed from its fields.
    #expect(contents.accessTokens.keys.first == token.canonicalKey)
  }

  @Test func entriesThatAreNotEntitiesAreNamed() throws {
    let json =
      #"[{"Key":"refresh_tokens","Value":["not json", "{\"environment\":\"login.windows.net\"}"]},{"Key":"app_things","Value":[]},"#
      + #"{"Key":7,"Value":[]}]"#
    let result = try UnifiedCacheJSONReader().read(Data(json.utf8), file: "d.json")
    #expect(result.contents.refreshTokens.isEmpty)
    // A node whose Key is no string is named as one whose Key is unknown, never passed over.
    #expect(
      result.diagnostics.map(\.code) == [
        "unified.invalid-entry", "unified.invalid-entry", "unified.invalid-section", "unified.invalid-section",
      ])
    #expect(result.diagnostics.first?.location?.keyPath == "[0].Value[0]")
    #expect(result.diagnostics.last?.location?.keyPath == "[2].Value")
  }

  /// An entry whose JSON text holds a lone surrogate escape (`\\ud800` in the file: `\ud800` in the text) is
  /// unreadable, named with the parser's reason and its offset in the text, never quoting the token.
  @Test func anEntryWithALoneSurrogateIsNamedWithItsOffset() throws {
    let json = #"[{"Key":"refresh_tokens","Value":["{\"secret\":\"rt-secret\\ud800\"}"]}]"#
    let result = try UnifiedCacheJSONReader().read(Data(json.utf8), file: "d.json")
    #expect(result.contents.refreshTokens.isEmpty)
    let diagnostic = try #require(result.diagnostics.first)
    #expect(diagnostic.code == "unified.invalid-entry")
    #expect(
      diagnostic.message
        == #"the entry is not a string holding a JSON object (unpaired UTF-16 surrogate in a \u escape at offset 20 "#
        + "of the text); skipped")
    #expect(diagnostic.location?.keyPath == "[0].Value[0]")
  }
}
