import Adal2MSALSupport
import Foundation
import Testing
import UnifiedCache

/// The keys of one sample entity of each type (home `uid.utid`, `login.microsoftonline.com`, client `cid`, realm
/// `utid`, family `1`), library by library, with the `target` each library writes for the scopes
/// `User.Read openid profile` (MSAL.NET sorts them ignoring case; the others keep the server's order).
@Suite struct LibraryKeysTests {
  static let prefix = "uid.utid-login.microsoftonline.com"

  static func accessToken(target: String, tokenType: String? = nil) -> AnyUnifiedEntity {
    .accessToken(
      UnifiedAccessToken(
        homeAccountID: "uid.utid", environment: "login.microsoftonline.com", clientID: "cid", realm: "utid",
        target: target, secret: UnifiedSecret("at"), tokenType: tokenType))
  }

  static func refreshToken(familyID: String? = nil, target: String? = nil) -> AnyUnifiedEntity {
    .refreshToken(
      UnifiedRefreshToken(
        homeAccountID: "uid.utid", environment: "login.microsoftonline.com", clientID: "cid",
        secret: UnifiedSecret("rt"), familyID: familyID, target: target))
  }

  static let idToken = AnyUnifiedEntity.idToken(
    UnifiedIdToken(
      homeAccountID: "uid.utid", environment: "login.microsoftonline.com", clientID: "cid", realm: "utid",
      secret: UnifiedSecret("id")))

  static func key(_ entity: AnyUnifiedEntity, _ library: MSALLibrary) -> String {
    LibraryKeys.key(for: entity, in: library)
  }

  @Test func accessTokens() {
    #expect(
      Self.key(Self.accessToken(target: "openid profile User.Read"), .dotnet)
        == "\(Self.prefix)-accesstoken-cid-utid-openid profile user.read")
    let serverOrder = Self.accessToken(target: "User.Read openid profile")
    #expect(Self.key(serverOrder, .python) == "\(Self.prefix)-accesstoken-cid-utid-user.read openid profile")
    #expect(Self.key(serverOrder, .java) == "\(Self.prefix)-accesstoken-cid-utid-user.read openid profile")
    #expect(Self.key(serverOrder, .go) == "\(Self.prefix)-accesstoken-cid-utid-user.read openid profile")
    #expect(Self.key(serverOrder, .node) == "\(Self.prefix)-accesstoken-cid-utid-user.read openid profile--")
    // Proof of possession: .NET's authscheme descriptor and suffix, msal-node's scheme part, Go's token type.
    let pop = Self.accessToken(target: "User.Read", tokenType: "pop")
    #expect(Self.key(pop, .dotnet) == "\(Self.prefix)-accesstoken_with_authscheme-cid-utid-user.read-pop")
    #expect(Self.key(pop, .node) == "\(Self.prefix)-accesstoken_with_authscheme-cid-utid-user.read--pop")
    #expect(Self.key(pop, .go) == "\(Self.prefix)-accesstoken-cid-utid-user.read-pop")
    #expect(Self.key(pop, .python) == "\(Self.prefix)-accesstoken-cid-utid-user.read")
  }

  @Test func refreshTokens() {
    let app = Self.refreshToken(target: "User.Read openid profile")
    #expect(Self.key(app, .dotnet) == "\(Self.prefix)-refreshtoken-cid--")
    #expect(Self.key(app, .python) == "\(Self.prefix)-refreshtoken-cid--user.read openid profile")
    #expect(Self.key(Self.refreshToken(), .python) == "\(Self.prefix)-refreshtoken-cid--")
    #expect(Self.key(app, .java) == "\(Self.prefix)-refreshtoken-cid--")
    #expect(Self.key(app, .node) == "\(Self.prefix)-refreshtoken-cid----")
    #expect(Self.key(app, .go) == "\(Self.prefix)-refreshtoken-cid")
    let family = Self.refreshToken(familyID: "1")
    #expect(Self.key(family, .dotnet) == "\(Self.prefix)-refreshtoken-1--")
    #expect(
      Self.key(family, .python) == "\(Self.prefix)-refreshtoken-cid--", "MSAL Python keys a family token by its client")
    #expect(Self.key(family, .java) == "\(Self.prefix)-refreshtoken-1--")
    #expect(Self.key(family, .node) == "\(Self.prefix)-refreshtoken-1----")
    #expect(Self.key(family, .go) == "\(Self.prefix)-refreshtoken-1")
  }

  @Test func idTokensAccountsAndAppMetadata() {
    #expect(Self.key(Self.idToken, .dotnet) == "\(Self.prefix)-idtoken-cid-utid-")
    #expect(Self.key(Self.idToken, .python) == "\(Self.prefix)-idtoken-cid-utid-")
    #expect(Self.key(Self.idToken, .node) == "\(Self.prefix)-idtoken-cid-utid---")
    #expect(Self.key(Self.idToken, .go) == "\(Self.prefix)-idtoken-cid-utid")
    let guest = AnyUnifiedEntity.account(
      UnifiedAccount(homeAccountID: "UID.UTID", environment: "login.microsoftonline.com", realm: "Guest-Tenant"))
    #expect(Self.key(guest, .dotnet) == "UID.UTID-login.microsoftonline.com-Guest-Tenant", "MSAL.NET keeps the case")
    #expect(Self.key(guest, .python) == "uid.utid-login.microsoftonline.com-guest-tenant")
    #expect(Self.key(guest, .node) == "uid.utid-login.microsoftonline.com-utid", "msal-node keys by the home tenant")
    let metadata = AnyUnifiedEntity.appMetadata(
      UnifiedAppMetadata(clientID: "CID", environment: "login.microsoftonline.com"))
    #expect(Self.key(metadata, .python) == "appmetadata-login.microsoftonline.com-CID", "MSAL Python keeps the case")
    #expect(Self.key(metadata, .java) == "appmetadata-login.microsoftonline.com-cid")
  }

  /// Field spellings: MSAL Python's `key_id` and `token_type`, msal-node's camelCase, Go's `keyid`, and
  /// MSAL.NET's `kid`, both extended-expiry names and no Bearer `token_type`.
  @Test func fieldSpellings() throws {
    var token = UnifiedAccessToken(
      homeAccountID: "u.t", environment: "e", clientID: "c", realm: "r", target: "s", secret: UnifiedSecret("at"),
      extendedExpiresOn: TestCache.date(1_700_000_000), tokenType: "ssh-cert", keyID: "key1",
      requestedClaims: "{}", userAssertionHash: "h")
    func names(_ library: MSALLibrary?) -> Set<String> {
      Set(UnifiedEntityJSON.object(for: token, library: library).keys)
    }
    #expect(names(.python).isSuperset(of: ["key_id", "token_type", "requested_claims", "user_assertion_hash"]))
    #expect(names(.node).isSuperset(of: ["key_id", "requestedClaims", "userAssertionHash"]))
    #expect(names(.go).contains("keyid") && names(.dotnet).contains("kid"))
    #expect(names(.dotnet).isSuperset(of: ["extended_expires_on", "ext_expires_on"]))
    token.tokenType = nil
    #expect(!names(.dotnet).contains("token_type"))
    #expect(UnifiedEntityJSON.object(for: token, library: .python)["token_type"] == .string("Bearer"))
    #expect(UnifiedEntityJSON.object(for: token, library: .go)["token_type"] == .string("Bearer"))
  }
}

/// The host MSAL.NET, Java, msal-node and ObjC store a cloud's entries under (Azure AD's `preferred_cache`).
@Suite struct MSALNetCacheHostTests {
  @Test func eachCloudHasOneCacheHost() {
    for alias in ["login.microsoftonline.com", "LOGIN.windows.net", "login.microsoft.com", "sts.windows.net"] {
      #expect(MSALNetCacheHost.of(alias) == "login.windows.net")
    }
    #expect(MSALNetCacheHost.of("login.chinacloudapi.cn") == "login.partner.microsoftonline.cn")
    #expect(MSALNetCacheHost.of("login.usgovcloudapi.net") == "login.microsoftonline.us")
    #expect(MSALNetCacheHost.of("login.microsoftonline.de") == "login.microsoftonline.de")
    #expect(MSALNetCacheHost.of("adfs.contoso.com") == "adfs.contoso.com")
  }

  /// Made here (from ADAL) or read from a file under another alias (MSAL Python's `login.microsoftonline.com`):
  /// MSAL.NET writes a refresh's tokens under the cache host, so every entry moves there, its key with it.
  @Test func everyEntityMovesForMSALNet() {
    let made = LibraryKeysTests.idToken
    let stored = MSALLibrary.dotnet.stored(made)
    #expect(stored.environment == "login.windows.net")
    #expect(LibraryKeys.key(for: stored, in: .dotnet) == "uid.utid-login.windows.net-idtoken-cid-utid-")
    #expect(MSALLibrary.python.stored(made) == made)
    var read = made
    read.writtenForm = WrittenForm(key: "uid.utid-login.microsoftonline.com-idtoken-cid-utid-")
    #expect(MSALLibrary.dotnet.stored(read).environment == "login.windows.net")
    #expect(
      LibraryKeys.key(for: MSALLibrary.dotnet.stored(read), in: .dotnet)
        == "uid.utid-login.windows.net-idtoken-cid-utid-")
  }
}

/// Entries a library keys alike, in its export.
@Suite struct SameKeyExportTests {
  /// MSAL Python keys an app's refresh token and the family token of the same client alike: the export keeps the
  /// family token. ADAL wrote both as one token, and then nothing is lost: a note (`export.same-token`). Two
  /// tokens are a warning that names the one left out (`export.same-key`).
  @Test(arguments: [("rt", "export.same-token", Diagnostic.Severity.note), ("other", "export.same-key", .warning)])
  func aFamilyTokenKeyedLikeTheAppsOwn(appSecret: String, code: String, severity: Diagnostic.Severity) throws {
    func token(_ secret: String, familyID: String?) -> UnifiedRefreshToken {
      UnifiedRefreshToken(
        homeAccountID: "uid.utid", environment: "login.microsoftonline.com", clientID: "cid",
        secret: UnifiedSecret(secret), familyID: familyID)
    }
    let family = token("rt", familyID: "1")
    let export = UnifiedCacheJSONWriter.export(
      UnifiedCacheContents(refreshTokens: UnifiedSection([token(appSecret, familyID: nil), family])), for: .python)
    let diagnostic = try #require(export.diagnostics.first)
    #expect(export.diagnostics.count == 1 && diagnostic.code == code && diagnostic.severity == severity)
    #expect(export.entriesLeftOut == (severity == .warning ? 1 : 0))
    #expect(diagnostic.message.contains(family.secret.fingerprint))
    let written = String(decoding: export.data, as: UTF8.self)
    #expect(written.contains("\"family_id\": \"1\"") && !written.contains("\"other\""))
  }
}

/// MSAL Python keeps one refresh token per account, environment and client: it finds the one to redeem by those
/// fields and replaces only that one, so a second one, keyed apart by its own `target`, would stay behind after
/// a refresh. The export writes one of them, decided as for two entries keyed alike, under its own key.
@Suite struct OneRefreshTokenPerClientTests {
  static func token(_ secret: String, familyID: String? = nil, target: String? = nil) -> UnifiedRefreshToken {
    UnifiedRefreshToken(
      homeAccountID: "uid.utid", environment: "login.microsoftonline.com", clientID: "cid",
      secret: UnifiedSecret(secret), familyID: familyID, target: target)
  }

  static func export(_ tokens: [UnifiedRefreshToken], for library: MSALLibrary = .python) -> CacheExport {
    UnifiedCacheJSONWriter.export(UnifiedCacheContents(refreshTokens: UnifiedSection(tokens)), for: library)
  }

  static func writtenKeys(_ export: CacheExport) throws -> [String] {
    let root = try JSONParser().parse(export.data).objectValue ?? [:]
    return root["RefreshToken"]?.objectValue?.keys ?? []
  }

  /// An ADAL refresh token (no target, no family) and MSAL Python's family refresh token of the same client
  /// (with a target): the family token, under its own key; another token is a warning naming both, one token a
  /// note.
  @Test(arguments: [("adal-rt", "export.same-key", Diagnostic.Severity.warning), ("frt", "export.same-token", .note)])
  func anAppTokenBesideTheFamilyTokenOfItsClient(
    appSecret: String, code: String, severity: Diagnostic.Severity
  ) throws {
    let app = Self.token(appSecret)
    let family = Self.token("frt", familyID: "1", target: "https://management.core.windows.net//.default")
    for tokens in [[app, family], [family, app]] {
      let export = Self.export(tokens)
      let familyKey = LibraryKeys.key(for: .refreshToken(family), in: .python)
      #expect(try Self.writtenKeys(export) == [familyKey])
      let diagnostic = try #require(export.diagnostics.first)
      #expect(export.diagnostics.count == 1 && diagnostic.code == code && diagnostic.severity == severity)
      #expect(export.entriesLeftOut == (severity == .warning ? 1 : 0))
      #expect(diagnostic.location?.keyPath == "RefreshToken.\(familyKey)")
      #expect(diagnostic.message.contains(family.secret.fingerprint))
      #expect(diagnostic.message.contains(app.secret.fingerprint))
      #expect(!diagnostic.message.contains(appSecret) && !diagnostic.message.contains("\"frt\""))
      let written = String(decoding: export.data, as: UTF8.self)
      #expect(written.contains("\"family_id\": \"1\"") && !written.contains("\"adal-rt\""))
    }
  }

  /// Other users, clouds and clients keep their own refresh tokens; the other libraries key every refresh token
  /// of a client alike anyway, and a family token apart from the app's own.
  @Test func otherClientsAndLibrariesAreUnaffected() throws {
    var otherClient = Self.token("rt-other-client", target: "a")
    otherClient.clientID = "cid2"
    var otherUser = Self.token("rt-other-user", target: "a")
    otherUser.homeAccountID = "uid2.utid"
    var otherCloud = Self.token("rt-other-cloud", target: "a")
    otherCloud.environment = "login.chinacloudapi.cn"
    let export = Self.export([Self.token("rt", target: "a"), otherClient, otherUser, otherCloud])
    #expect(export.diagnostics.isEmpty)
    #expect(try Self.writtenKeys(export).count == 4)
    for library in [MSALLibrary.dotnet, .java, .node, .go] {
      let family = Self.export([Self.token("rt"), Self.token("frt", familyID: "1", target: "a")], for: library)
      #expect(family.diagnostics.isEmpty, "\(library)")
      #expect(try Self.writtenKeys(family).count == 2, "\(library)")
    }
  }
}

/// MSAL Python, Java and Node cannot load an access token without `expires_on` (MSAL Python 1.39 raises KeyError
/// out of every `acquire_token_silent`), and MSAL ObjC would serve it as never expiring: their export leaves it out,
/// named, as a left-out entry. MSAL.NET and Go read it as expired: theirs writes it.
@Suite struct AccessTokenWithoutExpiryTests {
  static func token(_ secret: String, target: String, expiresOn: Date?) -> UnifiedAccessToken {
    UnifiedAccessToken(
      homeAccountID: "uid.utid", environment: "login.microsoftonline.com", clientID: "cid", realm: "utid",
      target: target, secret: UnifiedSecret(secret), cachedAt: Date(timeIntervalSince1970: 1_700_000_000),
      expiresOn: expiresOn)
  }

  @Test(arguments: [MSALLibrary.dotnet, .python, .java, .node, .go])
  func leftOutWhereTheLibraryNeedsIt(library: MSALLibrary) throws {
    let undated = Self.token("at-undated", target: "User.Read", expiresOn: nil)
    let dated = Self.token("at-dated", target: "Mail.Read", expiresOn: Date(timeIntervalSince1970: 1_700_003_600))
    let export = UnifiedCacheJSONWriter.export(
      UnifiedCacheContents(accessTokens: UnifiedSection([undated, dated])), for: library)
    let written = try JSONParser().parse(export.data).objectValue?["AccessToken"]?.objectValue ?? [:]
    let key = { (token: UnifiedAccessToken) in LibraryKeys.key(for: library.stored(.accessToken(token)), in: library) }
    let undatedKey = key(undated)
    #expect(written[key(dated)] != nil)
    if library.requiresAccessTokenExpiry {
      #expect(written.count == 1 && written[undatedKey] == nil)
      let diagnostic = try #require(export.diagnostics.first)
      #expect(export.diagnostics.count == 1 && export.entriesLeftOut == 1)
      #expect(diagnostic.code == CacheExport.unloadableCode && diagnostic.severity == .warning)
      #expect(diagnostic.location?.keyPath == "AccessToken.\(undatedKey)")
      #expect(diagnostic.message.contains(undated.secret.fingerprint) && diagnostic.message.contains("expires_on"))
      #expect(!diagnostic.message.contains("at-undated"))
    } else {
      #expect(written.count == 2 && export.diagnostics.isEmpty)
    }
  }

  /// An `expires_on` beyond the model's range, kept as written (MSAL Java's test cache holds `"9999999999999"`),
  /// is one the libraries read: written.
  @Test(arguments: [MSALLibrary.python, .java, .node])
  func anExpiryKeptAsWrittenIsWritten(library: MSALLibrary) throws {
    let token = UnifiedAccessToken(
      homeAccountID: "uid.utid", environment: "login.microsoftonline.com", clientID: "cid", realm: "utid",
      target: "User.Read", secret: UnifiedSecret("at"), additionalFields: ["expires_on": .string("9999999999999")])
    let export = UnifiedCacheJSONWriter.export(
      UnifiedCacheContents(accessTokens: UnifiedSection([token])), for: library)
    #expect(export.diagnostics.isEmpty)
    #expect(String(decoding: export.data, as: UTF8.self).contains(#""expires_on": "9999999999999""#))
  }

  @Test func theLibrariesThatNeedIt() {
    #expect(MSALLibrary.allCases.filter(\.requiresAccessTokenExpiry) == [.python, .java, .node, .objc])
  }

  /// IdentityCore's `isExpiredWithExpiryBuffer:` compares a nil `expiresOn`, which is never earlier than now: MSAL
  /// ObjC would return the token from its cache for as long as the app runs, after the server stopped taking it.
  @Test func msalObjCWouldServeItForever() throws {
    let undated = Self.token("at-undated", target: "User.Read", expiresOn: nil)
    let dated = Self.token("at-dated", target: "Mail.Read", expiresOn: Date(timeIntervalSince1970: 1_700_003_600))
    var keptAsWritten = Self.token("at-kept", target: "Files.Read", expiresOn: nil)
    keptAsWritten.additionalFields["expires_on"] = .string("9999999999999")
    let export = CacheExport.make(
      UnifiedCacheContents(accessTokens: UnifiedSection([undated, dated, keptAsWritten])), for: .objc)
    let services = try (JSONParser().parse(export.data).arrayValue ?? []).compactMap {
      $0.objectValue?["svce"]?.stringValue
    }
    #expect(services.sorted() == ["accesstoken-cid-utid-files.read", "accesstoken-cid-utid-mail.read"])
    let diagnostic = try #require(export.diagnostics.first)
    #expect(export.diagnostics.count == 1 && export.entriesLeftOut == 1)
    #expect(diagnostic.code == CacheExport.unloadableCode && diagnostic.severity == .warning)
    #expect(diagnostic.location?.keyPath == "uid.utid-login.windows.net|accesstoken-cid-utid-user.read")
    #expect(diagnostic.message.contains(undated.secret.fingerprint) && diagnostic.message.contains("never expiring"))
    #expect(!diagnostic.message.contains("at-undated"))
  }
}

/// MSAL ObjC keeps one keychain item per (account, service, type), its parts trimmed and lowercased: two entries
/// the cache keys apart (a client id with a trailing space, from a hand-edited or hostile file) can share one.
/// The one left out is named (it was dropped unsaid); one token written once is a note; the plain copy of a
/// family token beside its app's own token is no loss.
@Suite struct ObjCSameItemTests {
  static func token(_ secret: String, client: String, familyID: String? = "1") -> UnifiedRefreshToken {
    UnifiedRefreshToken(
      homeAccountID: "uid.utid", environment: "login.microsoftonline.com", clientID: client,
      secret: UnifiedSecret(secret), familyID: familyID)
  }

  static func export(_ tokens: [UnifiedRefreshToken]) -> CacheExport {
    CacheExport.make(UnifiedCacheContents(refreshTokens: UnifiedSection(tokens)), for: .objc)
  }

  @Test(arguments: [("frt-b", "export.same-key", Diagnostic.Severity.warning), ("frt-a", "export.same-token", .note)])
  func twoTokensMSALObjCStoresAsOneItem(secondSecret: String, code: String, severity: Diagnostic.Severity) throws {
    let export = Self.export([
      Self.token("frt-a", client: "app-a", familyID: nil), Self.token(secondSecret, client: "app-a ", familyID: nil),
    ])
    let diagnostic = try #require(export.diagnostics.first, "nothing said of the token left out")
    #expect(export.diagnostics.count == 1 && diagnostic.code == code && diagnostic.severity == severity)
    #expect(export.entriesLeftOut == (severity == .warning ? 1 : 0))
    if severity == .warning {
      #expect(diagnostic.message.contains(UnifiedSecret(secondSecret).fingerprint))
    }
    #expect(!diagnostic.message.contains("frt-"), "a token in a message")
  }

  @Test func aFamilyTokensPlainCopyBesideItsAppsTokenIsNoLoss() throws {
    let export = Self.export([Self.token("app-rt", client: "app-a", familyID: nil), Self.token("frt", client: "app-a")])
    #expect(export.diagnostics.isEmpty, "\(export.diagnostics)")
    let items = try JSONParser().parse(export.data).arrayValue ?? []
    #expect(items.count == 2)
  }
}
