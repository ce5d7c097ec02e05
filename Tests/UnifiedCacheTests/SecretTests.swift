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
