import Adal2MSALSupport
import Foundation
import Testing
import UnifiedCache

/// A token never shows in a description, debug description, dump or diagnostic.
@Suite struct SecretTests {
  static let token = "eyJSECRET.TOKEN.VALUE"

  static func renderings(_ value: Any) -> [String] {
    var dumped = ""
    dump(value, to: &dumped)
    return [String(describing: value), String(reflecting: value), "\(value)", dumped]
  }

  @Test func noEntityOrContainerShowsItsSecret() {
    let secret = UnifiedSecret(Self.token)
    let at = UnifiedAccessToken(
      homeAccountID: "h", environment: "e", clientID: "c", realm: "r", target: "t", secret: secret)
    let rt = UnifiedRefreshToken(homeAccountID: "h", environment: "e", clientID: "c", secret: secret, familyID: "1")
    let idt = UnifiedIdToken(homeAccountID: "h", environment: "e", clientID: "c", realm: "r", secret: secret)
    var contents = UnifiedCacheContents()
    contents.accessTokens.upsert(at)
    contents.refreshTokens.upsert(rt)
    contents.idTokens.upsert(idt)
    let values: [Any] = [
      secret, at, rt, idt, AnyUnifiedEntity.refreshToken(rt), contents, contents.refreshTokens,
      UnifiedCacheReadResult(contents: contents),
      UnifiedKeychainItem(account: "a", service: "s", type: 2002, payload: Data(Self.token.utf8)),
    ]
    for value in values {
      for text in Self.renderings(value) {
        #expect(!text.contains("SECRET"), "\(type(of: value)) leaks its secret")
      }
    }
    #expect(String(describing: at).contains(secret.fingerprint))
  }

  /// Unknown sections and `additionalFields` are JSON carried through unread, which can hold credentials (MSAL
  /// Go's refresh tokens): a string under a key that names a secret, or one shaped like a token, shows as its
  /// fingerprint in every rendering (`dump` and `print` showed the enum payloads, text and all).
  @Test func unmodelledJSONShowsNoSecret() {
    let jwt = "eyJhbGciOiJub25lIn0.eyJTRUNSRVQiOjF9.SECRETsig"
    let msa = "M.R3_BAY.-CSECRETMSART*Qm9vZ2x1c2hzb21ldGhpbmc!nDf4Jw$$"
    let entry: JSONObject = [
      "secret": .string(Self.token), "environment": .string("login.microsoftonline.com"),
      "nested": .object(["refresh_token": .array([.string("short-SECRET")]), "count": .number("3")]),
      "note": .string(jwt), "rt": .string(msa),
    ]
    var contents = UnifiedCacheContents(unknownSections: ["GoRefreshTokens": .object(["key-1": .object(entry)])])
    var rt = UnifiedRefreshToken(
      homeAccountID: "h", environment: "e", clientID: "c", secret: UnifiedSecret("x"), familyID: nil)
    rt.additionalFields = entry
    contents.refreshTokens.upsert(rt)
    let values: [Any] = [
      contents, contents.unknownSections, rt, rt.additionalFields, JSONValue.object(entry), entry.members,
      JSONMember("client_secret", .string("short-SECRET")), [jwt: JSONValue.bool(true)] as JSONObject,
    ]
    for value in values {
      for text in Self.renderings(value) {
        #expect(!text.contains("SECRET"), "\(type(of: value)) leaks a secret: \(text)")
      }
    }
    // Hidden by the key at every depth: the fingerprint of the secret itself, never of a fingerprint.
    let fingerprint = SecretFingerprint.of(Self.token)
    for text in Self.renderings(entry) + Self.renderings(contents.unknownSections) {
      #expect(text.contains(fingerprint) && text.contains("login.microsoftonline.com"), "\(text)")
      #expect(!text.contains(SecretFingerprint.of(fingerprint)), "\(text)")
    }
    #expect(String(describing: entry).contains("\"note\":\"\(SecretFingerprint.of(jwt))\""))
    #expect(String(describing: entry).contains("\"count\":3"))
  }

  @Test func readerDiagnosticsNeverShowSecrets() throws {
    let result = try TestCache.read(
      """
      {"AccessToken": {"k": {"secret": "\(Self.token)", "environment": 5, "client_id": "c"}},
       "IdToken": {"k2": {"secret": "\(Self.token)", "home_account_id": "h", "environment": "e", "client_id": "c", "x": 1}}}
      """)
    #expect(!result.diagnostics.isEmpty)
    for diagnostic in result.diagnostics { #expect(!diagnostic.description.contains("SECRET")) }
  }
}
