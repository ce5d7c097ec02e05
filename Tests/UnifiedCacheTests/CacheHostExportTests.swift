import Adal2MSALSupport
import Foundation
import Testing
import UnifiedCache

/// MSAL.NET, MSAL Java, msal-common (msal-node) and MSAL ObjC write every entry under their cloud's cache host,
/// Azure AD's `preferred_cache` (`login.windows.net` for the public cloud; spec section 5, `MSALNetCacheHost`):
/// .NET `SaveTokenResponseAsync` with `instanceDiscoveryMetadata.PreferredCache`, Java `AbstractApplicationBase`
/// with `preferredCache`, msal-common `ResponseHandler` with `authority.getPreferredCache()`, IdentityCore
/// `storageEnvironment` from `cacheEnvironmentWithContext:`. An entry exported under another alias stays beside
/// the one the library writes on its next refresh. MSAL Python and Go write the configured host: theirs keep it.
@Suite struct CacheHostExportTests {
  static let python = "login.microsoftonline.com"
  static let cacheHost = "login.windows.net"

  static func refreshToken(_ secret: String, at host: String, familyID: String? = nil) -> UnifiedRefreshToken {
    var token = UnifiedRefreshToken(
      homeAccountID: "uid.utid", environment: host, clientID: "cid", secret: UnifiedSecret(secret),
      familyID: familyID)
    token.writtenForm = WrittenForm(key: UnifiedCacheKey.refreshToken(token))
    return token
  }

  /// Every entity of an MSAL Python-written file (each with the key it was read with), in each section.
  static var pythonWritten: UnifiedCacheContents {
    UnifiedCacheContents(
      accounts: UnifiedSection([
        UnifiedAccount(homeAccountID: "uid.utid", environment: python, realm: "utid", username: "u@contoso.example")
      ]),
      accessTokens: UnifiedSection([
        UnifiedAccessToken(
          homeAccountID: "uid.utid", environment: python, clientID: "cid", realm: "utid", target: "User.Read",
          secret: UnifiedSecret("at"), cachedAt: Date(timeIntervalSince1970: 1_700_000_000),
          expiresOn: Date(timeIntervalSince1970: 1_700_003_600))
      ]),
      refreshTokens: UnifiedSection([refreshToken("rt", at: python)]),
      idTokens: UnifiedSection([
        UnifiedIdToken(
          homeAccountID: "uid.utid", environment: python, clientID: "cid", realm: "utid", secret: UnifiedSecret("id"))
      ]),
      appMetadata: UnifiedSection([UnifiedAppMetadata(clientID: "cid", environment: python, familyID: "1")]))
  }

  static func sections(_ export: CacheExport) throws -> [String: JSONObject] {
    let root = try JSONParser().parse(export.data).objectValue ?? [:]
    var sections: [String: JSONObject] = [:]
    for member in root { sections[member.key] = member.value.objectValue ?? [:] }
    return sections
  }

  /// `--for dotnet|java|node`: every entry, keys included, under `login.windows.net`; `--for python|go`: under the
  /// host it was read with.
  @Test(arguments: MSALLibrary.allCases.filter { $0 != .objc })
  func everyEntryGoesUnderTheCacheHost(library: MSALLibrary) throws {
    let export = UnifiedCacheJSONWriter.export(Self.pythonWritten, for: library)
    #expect(export.diagnostics.isEmpty, "\(export.diagnostics)")
    let expected = [MSALLibrary.python, .go].contains(library) ? Self.python : Self.cacheHost
    let sections = try Self.sections(export)
    for section in ["AccessToken", "RefreshToken", "IdToken", "Account", "AppMetadata"] {
      let entries = try #require(sections[section])
      #expect(entries.count == 1, "\(library) \(section)")
      for member in entries {
        #expect(member.value.objectValue?["environment"]?.stringValue == expected, "\(library) \(section)")
        #expect(
          member.key.contains(expected) && !member.key.contains(expected == Self.python ? Self.cacheHost : Self.python),
          "\(library) \(member.key)")
      }
    }
  }

  /// ADFS and B2C hosts are in no cloud's alias group: kept, as every library writes them.
  @Test(arguments: [MSALLibrary.dotnet, .java, .node, .objc])
  func hostsOfNoKnownCloudAreKept(library: MSALLibrary) {
    for host in ["adfs.contoso.com", "contoso.b2clogin.com"] {
      let token = AnyUnifiedEntity.refreshToken(Self.refreshToken("rt", at: host))
      #expect(library.stored(token) == token, "\(library) \(host)")
    }
  }

  /// A file that held one refresh token under each alias: after the move both fall on one key. The one that was
  /// under the cache host is kept (the library wrote it there: the newer), in either order; the other is named as
  /// left out (`export.same-key`), or in a note when both are one token (`export.same-token`).
  @Test(arguments: [MSALLibrary.dotnet, .java, .node], [("old", "export.same-key"), ("new", "export.same-token")])
  func theEntryAlreadyUnderTheCacheHostWins(library: MSALLibrary, other: (secret: String, code: String)) throws {
    let moved = Self.refreshToken(other.secret, at: Self.python)
    let atHost = Self.refreshToken("new", at: Self.cacheHost)
    for tokens in [[moved, atHost], [atHost, moved]] {
      let export = UnifiedCacheJSONWriter.export(
        UnifiedCacheContents(refreshTokens: UnifiedSection(tokens)), for: library)
      let written = try #require(try Self.sections(export)["RefreshToken"])
      #expect(written.count == 1)
      let key = try #require(written.keys.first)
      #expect(written[key]?.objectValue?["secret"]?.stringValue == "new", "\(library)")
      #expect(key.contains(Self.cacheHost))
      let diagnostic = try #require(export.diagnostics.first)
      #expect(export.diagnostics.count == 1 && diagnostic.code == other.code, "\(export.diagnostics)")
      #expect(export.entriesLeftOut == (other.code == "export.same-key" ? 1 : 0))
      #expect(
        diagnostic.message.contains(atHost.secret.fingerprint) && diagnostic.message.contains(moved.secret.fingerprint))
    }
  }

  /// MSAL.NET saves a family client's token response as the family refresh token alone: an app refresh token of
  /// the same user, cloud and client that is the same token is written once, as the family token, with a note.
  /// Another token is written beside it, as before (MSAL.NET keys the two apart).
  @Test func aFamilyClientsAppTokenThatIsTheFamilyTokenIsWrittenOnceForMSALNet() throws {
    let family = Self.refreshToken("frt", at: Self.python, familyID: "1")
    for appSecret in ["frt", "other"] {
      let app = Self.refreshToken(appSecret, at: Self.python)
      let export = UnifiedCacheJSONWriter.export(
        UnifiedCacheContents(refreshTokens: UnifiedSection([app, family])), for: .dotnet)
      let written = try #require(try Self.sections(export)["RefreshToken"])
      let familyKey = "uid.utid-login.windows.net-refreshtoken-1--"
      if appSecret == "frt" {
        #expect(written.keys == [familyKey])
        let diagnostic = try #require(export.diagnostics.first)
        #expect(export.diagnostics.count == 1 && diagnostic.code == CacheExport.sameTokenCode)
        #expect(diagnostic.severity == .note && export.entriesLeftOut == 0)
        #expect(diagnostic.location?.keyPath == "RefreshToken.\(familyKey)")
        #expect(diagnostic.message.contains(family.secret.fingerprint) && !diagnostic.message.contains("\"frt\""))
      } else {
        #expect(Set(written.keys) == ["uid.utid-login.windows.net-refreshtoken-cid--", familyKey])
        #expect(export.diagnostics.isEmpty)
      }
    }
  }

  /// msal-node keeps one Account per home account and cache host, with a tenant profile per tenant: a user's
  /// Accounts under either alias are one entry under `login.windows.net`. Of two Accounts of one tenant, the one
  /// already there is the entry (the other is named as left out); tenants of both are listed.
  @Test func msalNodeMergesTheAccountsOfBothAliases() throws {
    func account(_ realm: String, at host: String, name: String) -> UnifiedAccount {
      UnifiedAccount(
        homeAccountID: "uid.hometenant", environment: host, realm: realm, localAccountID: "oid-\(realm)",
        username: "user@contoso.com", authorityType: "MSSTS", name: name)
    }
    let movedHome = account("hometenant", at: Self.python, name: "Moved")
    let atHostHome = account("hometenant", at: Self.cacheHost, name: "At host")
    let movedGuest = account("guesttenant", at: Self.python, name: "Guest")
    for accounts in [[movedHome, movedGuest, atHostHome], [atHostHome, movedGuest, movedHome]] {
      let export = UnifiedCacheJSONWriter.export(
        UnifiedCacheContents(accounts: UnifiedSection(accounts)), for: .node)
      let written = try #require(try Self.sections(export)["Account"])
      #expect(written.keys == ["uid.hometenant-login.windows.net-hometenant"])
      let entry = try #require(written["uid.hometenant-login.windows.net-hometenant"]?.objectValue)
      #expect(entry["name"] == .string("At host") && entry["environment"] == .string(Self.cacheHost))
      let tenants = (entry["tenantProfiles"]?.arrayValue ?? []).compactMap(\.stringValue).map {
        try? JSONParser().parse(Data($0.utf8)).objectValue?["tenantId"]?.stringValue
      }
      #expect(tenants == ["hometenant", "guesttenant"])
      #expect(export.diagnostics.map(\.code) == ["export.same-key"], "\(export.diagnostics)")
      #expect(export.entriesLeftOut == 1)
    }
  }

  /// One Account read under both aliases of its cloud (an ADAL item's authority and an MSAL Python cache): once under
  /// the cache host they are one entry, written once with a note (`export.same-entry`), nothing left out. Accounts
  /// that differ beyond their host stay a warning that names where the left-out one was read.
  @Test(arguments: [MSALLibrary.dotnet, .java, .node, .objc])
  func oneAccountUnderBothAliasesIsWrittenOnce(library: MSALLibrary) throws {
    func account(at host: String, name: String) -> UnifiedAccount {
      UnifiedAccount(
        homeAccountID: "uid.utid", environment: host, realm: "utid", localAccountID: "uid",
        username: "u@contoso.example", authorityType: "MSSTS", name: name)
    }
    for (otherName, code) in [("Same", "export.same-entry"), ("Other", "export.same-key")] {
      let accounts = [account(at: Self.python, name: otherName), account(at: Self.cacheHost, name: "Same")]
      let contents = UnifiedCacheContents(accounts: UnifiedSection(accounts))
      let export =
        library == .objc
        ? UnifiedKeychainWriter.export(contents) : UnifiedCacheJSONWriter.export(contents, for: library)
      let written =
        library == .objc ? try Self.keychainItems(export).count : try Self.sections(export)["Account"]?.count
      #expect(written == 1, "\(library)")
      #expect(export.diagnostics.map(\.code) == [code], "\(library): \(export.diagnostics)")
      #expect(export.entriesLeftOut == (code == "export.same-key" ? 1 : 0), "\(library)")
      if code == "export.same-key", library != .objc {
        #expect(export.diagnostics.first?.message.contains("(read at \(Self.python))") == true, "\(library)")
      }
    }
  }

  /// One access token under both aliases, one copy without `token_type` (its own export for MSAL.NET, which
  /// writes none for a bearer token, imported back): the file holds the token once, a note, nothing left out. A
  /// token of another secret under the same key is still left out, and named.
  @Test(arguments: [MSALLibrary.dotnet, .java, .node])
  func oneAccessTokenUnderBothAliasesIsWrittenOnce(library: MSALLibrary) throws {
    func token(at host: String, secret: String, type: String?) -> UnifiedAccessToken {
      UnifiedAccessToken(
        homeAccountID: "uid.utid", environment: host, clientID: "client", realm: "utid",
        target: "https://graph.microsoft.com/.default", secret: UnifiedSecret(secret),
        expiresOn: Date(timeIntervalSince1970: 1_900_000_000), tokenType: type)
    }
    for (otherSecret, code) in [("at", "export.same-token"), ("another", "export.same-key")] {
      let tokens = [
        token(at: Self.python, secret: otherSecret, type: nil), token(at: Self.cacheHost, secret: "at", type: "Bearer"),
      ]
      let export = UnifiedCacheJSONWriter.export(
        UnifiedCacheContents(accessTokens: UnifiedSection(tokens)), for: library)
      #expect(try Self.sections(export)["AccessToken"]?.count == 1, "\(library)")
      #expect(export.diagnostics.map(\.code) == [code], "\(library): \(export.diagnostics)")
      #expect(export.entriesLeftOut == (code == "export.same-key" ? 1 : 0), "\(library)")
    }
  }

  static func keychainItems(_ export: CacheExport) throws -> [JSONObject] {
    try JSONParser().parse(export.data).arrayValue?.compactMap(\.objectValue) ?? []
  }

  /// MSAL ObjC keychain items: credentials and accounts under the cache host (`acct` `<home>-login.windows.net`),
  /// app metadata under the host it was read with (IdentityCore's `fillAppMetadata` writes the configured
  /// authority's host, not `storageEnvironment`).
  @Test func objcItemsGoUnderTheCacheHost() throws {
    let items = try Self.keychainItems(UnifiedKeychainWriter.export(Self.pythonWritten))
    #expect(items.count == 5)
    for item in items {
      let account = item["acct"]?.stringValue ?? ""
      let payload = try JSONParser().parse(Data(base64Encoded: item["v_Data"]?.stringValue ?? "") ?? Data())
      let environment = payload.objectValue?["environment"]?.stringValue
      if item["svce"]?.stringValue?.hasPrefix("appmetadata-") == true {
        #expect(account == Self.python && environment == Self.python)
      } else {
        #expect(account == "uid.utid-\(Self.cacheHost)" && environment == Self.cacheHost, "\(item)")
      }
    }
  }

  /// Two refresh tokens of one client, one under each alias, are one MSAL ObjC item: the one already under the
  /// cache host is written, in either order, and the other named.
  @Test func objcKeepsTheItemAlreadyUnderTheCacheHost() throws {
    let moved = Self.refreshToken("old", at: Self.python)
    let atHost = Self.refreshToken("new", at: Self.cacheHost)
    for tokens in [[moved, atHost], [atHost, moved]] {
      let export = UnifiedKeychainWriter.export(UnifiedCacheContents(refreshTokens: UnifiedSection(tokens)))
      let items = try Self.keychainItems(export)
      #expect(items.count == 1)
      let payload = try JSONParser().parse(Data(base64Encoded: items.first?["v_Data"]?.stringValue ?? "") ?? Data())
      #expect(payload.objectValue?["secret"]?.stringValue == "new")
      #expect(export.diagnostics.count == 1 && export.diagnostics.first?.code == "export.same-key")
      #expect(export.entriesLeftOut == 1)
    }
  }
}
