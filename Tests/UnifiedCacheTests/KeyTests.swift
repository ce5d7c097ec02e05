import Foundation
import Testing
import UnifiedCache

/// Canonical keys match the MSAL.NET test vectors (MsalTokenCacheKeysTests) and are computed from fields.
@Suite struct KeyTests {
  let secret = UnifiedSecret("s")

  @Test func accessTokenKeyNormalizesTheTarget() {
    let token = UnifiedAccessToken(
      homeAccountID: "UID.UTID", environment: "Login.MicrosoftOnline.com", clientID: "ClientId", realm: "Contoso.com",
      target: "user.write  User.Read\tuser.read", secret: secret)
    #expect(
      token.canonicalKey == "uid.utid-login.microsoftonline.com-accesstoken-clientid-contoso.com-user.read user.write")
    #expect(token.target == "user.write  User.Read\tuser.read")  // the field keeps what was written
  }

  /// Keys are lowercased as `String.lowercased()` does it, ASCII (lowercased byte by byte, only A-Z) or not, and
  /// a target of one scope as a list of one.
  @Test func keysLowercaseAsStringsDo() {
    let ascii = UnifiedIdToken(
      homeAccountID: "UID.UTID", environment: "LOGIN.windows.net", clientID: "Client-ID", realm: "Z@[`{~",
      secret: secret)
    #expect(ascii.canonicalKey == "uid.utid-login.windows.net-idtoken-client-id-z@[`{~-")
    let accented = UnifiedIdToken(
      homeAccountID: "ÄÖ.ÜTID", environment: "login.windows.net", clientID: "C", realm: "R", secret: secret)
    #expect(accented.canonicalKey == "äö.ütid-login.windows.net-idtoken-c-r-")
    let oneScope = UnifiedAccessToken(
      homeAccountID: "H", environment: "E", clientID: "C", realm: "R", target: "HTTPS://Graph.Microsoft.com/.Default",
      secret: secret)
    #expect(oneScope.canonicalKey == "h-e-accesstoken-c-r-https://graph.microsoft.com/.default")
    #expect(oneScope.normalizedScopes == ["https://graph.microsoft.com/.default"])
    let noScope = UnifiedAccessToken(
      homeAccountID: "H", environment: "E", clientID: "C", realm: "R", target: "", secret: secret)
    #expect(noScope.canonicalKey == "h-e-accesstoken-c-r-")
    #expect(UnifiedCacheKey.appMetadata(environment: "", clientID: "") == "appmetadata--")
  }

  @Test func popAccessTokenKey() {
    let token = UnifiedAccessToken(
      credentialType: "AccessToken_With_AuthScheme", homeAccountID: "uid.utid",
      environment: "login.microsoftonline.com",
      clientID: "clientid", realm: "contoso.com", target: "user.read user.write", secret: secret, tokenType: "pop",
      keyID: "kid1")
    #expect(
      token.canonicalKey
        == "uid.utid-login.microsoftonline.com-accesstoken_with_authscheme-clientid-contoso.com-user.read user.write-pop"
    )
    var bearer = token
    bearer.credentialType = "AccessToken"
    bearer.tokenType = "Bearer"
    #expect(
      bearer.canonicalKey == "uid.utid-login.microsoftonline.com-accesstoken-clientid-contoso.com-user.read user.write")
  }

  @Test func refreshAndFamilyRefreshTokenKeys() {
    var token = UnifiedRefreshToken(
      homeAccountID: "uid.utid", environment: "login.microsoftonline.com", clientID: "clientid", secret: secret)
    #expect(token.canonicalKey == "uid.utid-login.microsoftonline.com-refreshtoken-clientid--")
    token.familyID = "1"
    #expect(token.canonicalKey == "uid.utid-login.microsoftonline.com-refreshtoken-1--")
    #expect(token.clientID == "clientid")
    token.familyID = " "
    #expect(token.canonicalKey == "uid.utid-login.microsoftonline.com-refreshtoken-clientid--")
  }

  @Test func idTokenAccountAndAppMetadataKeys() {
    let idToken = UnifiedIdToken(
      homeAccountID: "uid.utid", environment: "login.microsoftonline.com", clientID: "clientid", realm: "contoso.com",
      secret: secret)
    #expect(idToken.canonicalKey == "uid.utid-login.microsoftonline.com-idtoken-clientid-contoso.com-")
    let account = UnifiedAccount(
      homeAccountID: "uid.utid", environment: "login.microsoftonline.com", realm: "contoso.com")
    #expect(account.canonicalKey == "uid.utid-login.microsoftonline.com-contoso.com")
    let metadata = UnifiedAppMetadata(clientID: "ClientId", environment: "login.microsoftonline.com")
    #expect(metadata.canonicalKey == "appmetadata-login.microsoftonline.com-clientid")
  }

  @Test func pythonFamilyTokenKeyedByClientIDIsTheFamilyEntity() throws {
    let result = try TestCache.read(
      """
      {"RefreshToken": {"uid.utid-login.microsoftonline.com-refreshtoken-app1--s1 s2": {
        "home_account_id": "uid.utid", "environment": "login.microsoftonline.com", "client_id": "app1",
        "credential_type": "RefreshToken", "secret": "rt", "family_id": "1", "target": "s1 s2"}}}
      """)
    #expect(result.contents.refreshTokens.keys == ["uid.utid-login.microsoftonline.com-refreshtoken-1--"])
    #expect(result.contents.refreshTokens.entities.first?.clientID == "app1")
    #expect(result.diagnostics.isEmpty)  // a Python-style key is not a mismatch
  }

  @Test func libraryKeyStylesAreNotMismatches() throws {
    // msal-node (`--`, `----`, `---`, tenant-based account key), Go (no trailing parts) and mixed case.
    let result = try TestCache.read(
      """
      {"AccessToken": {"uid.utid-login.windows.net-accesstoken-app-tenant-s1 s2--": {"home_account_id": "uid.utid",
        "environment": "login.windows.net", "client_id": "app", "realm": "tenant", "target": "s2 s1", "secret": "x",
        "credential_type": "AccessToken", "cached_at": "1", "expires_on": "2"}},
       "RefreshToken": {"uid.utid-login.windows.net-refreshtoken-app----": {"home_account_id": "uid.utid",
        "environment": "login.windows.net", "client_id": "app", "secret": "y", "credential_type": "RefreshToken"}},
       "IdToken": {"uid.utid-login.windows.net-idtoken-app-tenant": {"home_account_id": "uid.utid",
        "environment": "login.windows.net", "client_id": "app", "realm": "tenant", "secret": "z", "credential_type": "IdToken"}},
       "Account": {"UID.UTID-login.windows.net-utid": {"home_account_id": "uid.utid", "environment": "login.windows.net",
        "realm": "organizations", "username": "a@b.c", "authority_type": "MSSTS"}}}
      """)
    #expect(!TestCache.codes(result).contains("unified.key-mismatch"))
    #expect(result.contents.allEntities.count == 4)
  }

  @Test func keyDisagreeingWithFieldsIsADiagnosticAndTheFieldsWin() throws {
    let result = try TestCache.read(
      """
      {"Account": {"someone-else-login.windows.net-tenant": {"home_account_id": "uid.utid",
        "environment": "login.windows.net", "realm": "tenant", "username": "a@b.c", "authority_type": "MSSTS"}}}
      """)
    let diagnostic = try #require(result.diagnostics.first)
    #expect(diagnostic.code == "unified.key-mismatch")
    #expect(diagnostic.location?.keyPath == "Account.someone-else-login.windows.net-tenant")
    #expect(result.contents.accounts.keys == ["uid.utid-login.windows.net-tenant"])
  }

  @Test func entriesDifferingOnlyInKeyCaseAreOneEntityPreferringTheLowercaseKey() throws {
    // MSAL Go v1.0 wrote mixed-case keys, v1.1 lowercase ones: both describe the same entity.
    let result = try TestCache.read(
      """
      {"RefreshToken": {
        "UID.UTID-login.windows.net-RefreshToken-App": {"home_account_id": "uid.utid", "environment": "login.windows.net",
          "client_id": "app", "secret": "old", "credential_type": "RefreshToken"},
        "uid.utid-login.windows.net-refreshtoken-app": {"home_account_id": "uid.utid", "environment": "login.windows.net",
          "client_id": "app", "secret": "new", "credential_type": "RefreshToken"}}}
      """)
    #expect(result.contents.refreshTokens.count == 1)
    #expect(result.contents.refreshTokens.entities.first?.secret.value == "new")
    #expect(TestCache.codes(result) == ["unified.duplicate-entity"])
  }

  /// Two entries of one key style that hold different tokens for one credential: no rule tells which the app wrote
  /// last, so the first is kept and the other named as a problem (`unified.duplicate-token`, by fingerprint), not as
  /// a merge. (Both were a merge, status 0: a refresh token left out unsaid but for a warning.) The same token, or
  /// a style that ranks (the library's own key), stays a merge.
  @Test func twoTokensUnderKeysOfOneStyleAreAProblem() throws {
    func cache(_ firstKey: String, _ first: String, _ secondKey: String, _ second: String) -> String {
      """
      {"RefreshToken": {
        "\(firstKey)": {"home_account_id": "uid.utid", "environment": "login.windows.net",
          "client_id": "app", "secret": "\(first)", "credential_type": "RefreshToken"},
        "\(secondKey)": {"home_account_id": "uid.utid", "environment": "login.windows.net",
          "client_id": "app", "secret": "\(second)", "credential_type": "RefreshToken"}}}
      """
    }
    let upper = "UID.UTID-login.windows.net-RefreshToken-App"
    let otherUpper = "uid.UTID-login.windows.net-RefreshToken-app"
    let guess = try TestCache.read(cache(upper, "rt-one", otherUpper, "rt-two"))
    #expect(TestCache.codes(guess) == ["unified.duplicate-token"])
    let diagnostic = try #require(guess.diagnostics.first)
    #expect(diagnostic.severity == .warning && diagnostic.location?.keyPath == "RefreshToken.\(otherUpper)")
    #expect(diagnostic.message.contains(UnifiedSecret("rt-two").fingerprint) && !diagnostic.message.contains("rt-t"))
    #expect(guess.contents.refreshTokens.entities.map(\.secret.value) == ["rt-one"])
    let sameToken = try TestCache.read(cache(upper, "rt-one", otherUpper, "rt-one"))
    #expect(TestCache.codes(sameToken) == ["unified.duplicate-entity"])
    let ranked = try TestCache.read(cache(upper, "rt-old", "uid.utid-login.windows.net-refreshtoken-app", "rt-new"))
    #expect(TestCache.codes(ranked) == ["unified.duplicate-entity"])
  }
}
