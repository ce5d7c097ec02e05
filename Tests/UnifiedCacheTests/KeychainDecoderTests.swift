import Adal2MSALSupport
import Foundation
import Testing
import UnifiedCache

/// MSAL ObjC keychain items (spec section 4) decode into the same model as the JSON.
@Suite struct KeychainDecoderTests {
  static let home = "uid.utid"
  static let env = "login.windows.net"

  static func item(
    _ type: Int, _ payload: String, account: String = "uid.utid-login.windows.net", service: String = "s",
    generic: String? = nil, index: Int = 0
  ) -> UnifiedKeychainItem {
    UnifiedKeychainItem(
      account: account, service: service, generic: generic.map { Data($0.utf8) }, type: type,
      payload: Data(payload.utf8),
      accessGroup: "TEAM.com.microsoft.adalcache", location: SourceLocation(file: "dump.plist", itemIndex: index))
  }

  static let credential = #""home_account_id": "uid.utid", "environment": "login.windows.net", "client_id": "app""#

  @Test func decodesEveryUnifiedItemType() throws {
    let items = [
      Self.item(
        1003,
        #"{"home_account_id": "uid.utid", "environment": "login.windows.net", "realm": "utid", "username": "u@x.com", "authority_type": "MSSTS", "local_account_id": "uid"}"#,
        service: "utid"),
      Self.item(
        1002,
        #"{"home_account_id": "uid.msa", "environment": "login.windows.net", "realm": "msa", "username": "m@x.com"}"#,
        account: "uid.msa-login.windows.net"),
      Self.item(
        2001,
        #"{\#(Self.credential), "credential_type": "AccessToken", "secret": "at", "realm": "utid", "target": "User.Read", "expires_on": "1700000000", "cached_at": "1699990000", "last_modification_time": "1699990000.123"}"#
      ),
      Self.item(
        2007,
        #"{\#(Self.credential), "credential_type": "AccessToken_With_AuthScheme", "secret": "pop", "realm": "utid", "target": "User.Read", "token_type": "Pop", "kid": "K", "expires_on": "1700000000"}"#
      ),
      Self.item(2002, #"{\#(Self.credential), "credential_type": "RefreshToken", "secret": "rt"}"#),
      Self.item(
        2008, #"{\#(Self.credential), "credential_type": "FamilyRefreshToken", "secret": "frt"}"#,
        generic: "familyrefreshtoken-1-"),
      Self.item(2003, #"{\#(Self.credential), "credential_type": "IdToken", "secret": "idt", "realm": "utid"}"#),
      Self.item(
        3001, #"{"client_id": "app", "environment": "login.windows.net", "family_id": "1"}"#,
        account: "login.windows.net", service: "appmetadata-app"),
    ]
    let result = UnifiedKeychainDecoder().decode(items)
    let cache = result.contents
    #expect(result.diagnostics.isEmpty)
    #expect(cache.accounts.count == 2 && cache.accessTokens.count == 2 && cache.refreshTokens.count == 2)
    #expect(cache.idTokens.count == 1 && cache.appMetadata.count == 1)
    #expect(cache.accounts.entities.map(\.authorityType) == ["MSA", "MSSTS"])  // MSA filled in from type 1002
    let family = try #require(cache.refreshTokens["uid.utid-login.windows.net-refreshtoken-1--"])
    #expect(family.familyID == "1" && family.clientID == "app" && family.secret.value == "frt")
    let pop = try #require(cache.accessTokens.entities.first { $0.keyID == "K" })
    #expect(pop.credentialType == "AccessToken_With_AuthScheme")
    #expect(pop.canonicalKey.hasSuffix("-pop"))
    #expect(cache.accessTokens.entities.first { $0.keyID == nil }?.lastModificationTime == "1699990000.123")
  }

  @Test func typesOutsideTheUnifiedCacheAreReportedAndSkipped() {
    let items = [2004, 2005, 2006, 2009, 1000, 4242].enumerated().map { index, type in
      Self.item(type, #"{\#(Self.credential), "secret": "x"}"#, index: index)
    }
    let result = UnifiedKeychainDecoder().decode(items)
    #expect(result.contents.isEmpty)
    #expect(
      result.diagnostics.map(\.code) == Array(repeating: "unified.keychain-unsupported-type", count: 5) + [
        "unified.keychain-unknown-type"
      ])
    #expect(result.diagnostics.map { $0.location?.itemIndex } == [0, 1, 2, 3, 4, 5])
    #expect(result.diagnostics.allSatisfy { $0.location?.file == "dump.plist" })
  }

  @Test func badPayloadsAreDiagnosticsWithoutSecrets() {
    let items = [
      Self.item(2002, #"{"secret": "SECRETVALUE", "#),
      Self.item(2002, #"["SECRETVALUE"]"#, index: 1),
      Self.item(2002, #"{"secret": "SECRETVALUE", "environment": "e"}"#, index: 2),
    ]
    let result = UnifiedKeychainDecoder().decode(items)
    #expect(result.contents.isEmpty)
    #expect(
      result.diagnostics.map(\.code) == [
        "unified.keychain-payload", "unified.keychain-payload", "unified.invalid-entry",
      ])
    #expect(result.diagnostics.allSatisfy { !$0.description.contains("SECRETVALUE") })
  }

  @Test func accountAttributeDisagreeingWithPayloadIsAKeyMismatch() {
    let item = Self.item(2002, #"{\#(Self.credential), "secret": "rt"}"#, account: "other.home-login.windows.net")
    let result = UnifiedKeychainDecoder().decode([item])
    #expect(result.contents.refreshTokens.count == 1)
    #expect(result.diagnostics.map(\.code) == ["unified.key-mismatch"])
  }
}
