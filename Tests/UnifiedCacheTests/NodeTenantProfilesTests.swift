import Adal2MSALSupport
import Foundation
import Testing
import UnifiedCache

/// msal-node keeps one Account per home account and environment, keyed by the home tenant, with a
/// `tenantProfiles` array of JSON-encoded strings, one per tenant (`{"tenantId":…,"localAccountId":…,"name":…,
/// "isHomeTenant":…}`, msal-common's TenantProfile as its serializer writes it). The export for it merges the
/// Accounts of one user in several tenants that way; the other libraries keep one Account per tenant.
@Suite struct NodeTenantProfilesTests {
  static func account(
    _ realm: String, local: String?, name: String?, username: String = "user@contoso.com",
    home: String = "uid.hometenant", additional: JSONObject = [:]
  ) -> UnifiedAccount {
    UnifiedAccount(
      homeAccountID: home, environment: "login.microsoftonline.com", realm: realm, localAccountID: local,
      username: username, authorityType: "MSSTS", name: name, additionalFields: additional)
  }

  static let home = account("hometenant", local: "oid-home", name: "User At Home")
  static let guest = account("guesttenant", local: "oid-guest", name: "User As Guest", username: "guest@fabrikam.com")

  static func export(_ accounts: [UnifiedAccount], for library: MSALLibrary? = .node) -> CacheExport {
    UnifiedCacheJSONWriter.export(UnifiedCacheContents(accounts: UnifiedSection(accounts)), for: library)
  }

  static func text(_ export: CacheExport) -> String { String(decoding: export.data, as: UTF8.self) }

  static func accounts(_ export: CacheExport) throws -> JSONObject {
    try JSONParser().parse(export.data).objectValue?["Account"]?.objectValue ?? [:]
  }

  /// The home tenant's Account and a guest one: one entry under the home key, the home Account's fields, and both
  /// tenants' profiles, the home one first: the exact file msal-node's serializer writes for it.
  @Test func aHomeAndAGuestAccountAreOneEntryWithBothProfiles() throws {
    let export = Self.export([Self.guest, Self.home])
    #expect(export.diagnostics.isEmpty && export.entriesLeftOut == 0)
    let expected = #"""
      {
          "AccessToken": {},
          "RefreshToken": {},
          "IdToken": {},
          "Account": {
              "uid.hometenant-login.windows.net-hometenant": {
                  "home_account_id": "uid.hometenant",
                  "environment": "login.windows.net",
                  "realm": "hometenant",
                  "local_account_id": "oid-home",
                  "username": "user@contoso.com",
                  "authority_type": "MSSTS",
                  "name": "User At Home",
                  "tenantProfiles": [
                      "{\"tenantId\":\"hometenant\",\"localAccountId\":\"oid-home\",\"name\":\"User At Home\",\"isHomeTenant\":true}",
                      "{\"tenantId\":\"guesttenant\",\"localAccountId\":\"oid-guest\",\"name\":\"User As Guest\",\"isHomeTenant\":false}"
                  ]
              }
          },
          "AppMetadata": {}
      }

      """#
    #expect(Self.text(export) == expected)
  }

  /// Each profile string is one JSON object msal-node parses back: the fields of msal-common's TenantProfile,
  /// members without a value left out (as `JSON.stringify` leaves out `undefined`).
  @Test func eachProfileIsAJSONStringOfTheTenantProfileFields() throws {
    let bare = Self.account("guesttenant", local: nil, name: nil)
    let entry = try #require(try Self.accounts(Self.export([Self.home, bare])).members.first?.value.objectValue)
    let profiles = try #require(entry["tenantProfiles"]?.arrayValue).map { $0.stringValue ?? "" }
    #expect(profiles.count == 2)
    let parsed = try profiles.map { try #require(try JSONParser().parse(Data($0.utf8)).objectValue) }
    #expect(parsed[0].keys == ["tenantId", "localAccountId", "name", "isHomeTenant"])
    #expect(parsed[0]["isHomeTenant"] == .bool(true))
    #expect(profiles[1] == #"{"tenantId":"guesttenant","isHomeTenant":false}"#)
  }

  /// A lone Account gets its own profile too (msal-node 2.x writes one for every account it stores).
  @Test func aLoneAccountListsItsOwnProfile() throws {
    let export = Self.export([Self.home])
    let entry = try #require(try Self.accounts(export)["uid.hometenant-login.windows.net-hometenant"])
    #expect(
      entry.objectValue?["tenantProfiles"]
        == .array([
          .string(#"{"tenantId":"hometenant","localAccountId":"oid-home","name":"User At Home","isHomeTenant":true}"#)
        ]))
    #expect(export.diagnostics.isEmpty)
  }

  /// Without the home tenant's Account, the first by canonical key is the entry, whatever the order read, and a
  /// note says so; nothing is left out.
  @Test func withoutTheHomeTenantTheFirstByKeyIsTheEntryAndANoteSaysSo() throws {
    let second = Self.account("zz-tenant", local: "oid-zz", name: "Z")
    for accounts in [[Self.guest, second], [second, Self.guest]] {
      let export = Self.export(accounts)
      #expect(export.entriesLeftOut == 0)
      let note = try #require(export.diagnostics.first)
      #expect(export.diagnostics.count == 1 && note.severity == .note && note.code == "export.tenant-profiles")
      #expect(note.location?.keyPath == "Account.uid.hometenant-login.windows.net-hometenant")
      #expect(note.message.contains("'guesttenant'") && note.message.contains("'hometenant'"))
      let written = try Self.accounts(export)
      #expect(written.keys == ["uid.hometenant-login.windows.net-hometenant"])
      let entry = try #require(written.members.first?.value.objectValue)
      #expect(entry["realm"] == .string("guesttenant") && entry["local_account_id"] == .string("oid-guest"))
      let tenants = (entry["tenantProfiles"]?.arrayValue ?? []).compactMap(\.stringValue).map {
        try? JSONParser().parse(Data($0.utf8)).objectValue?["tenantId"]?.stringValue
      }
      #expect(tenants == ["guesttenant", "zz-tenant"])
      #expect(Self.text(export) == Self.text(Self.export([Self.guest, second])))
    }
  }

  /// An entry read from msal-node keeps the profiles it lists, as written; an Account of a tenant it lists adds
  /// nothing, one of another tenant is appended.
  @Test func listedProfilesAreKeptAndMergedOnce() throws {
    let listedGuest = #"{"tenantId":"guesttenant","localAccountId":"oid-guest","isHomeTenant":false}"#
    let listedHome = #"{"tenantId":"hometenant","localAccountId":"oid-home","isHomeTenant":true}"#
    var imported = Self.home
    imported.additionalFields = ["tenantProfiles": .array([.string(listedHome), .string(listedGuest)])]
    let alone = Self.export([imported])
    let third = Self.account("third", local: "oid-3", name: nil)
    let merged = Self.export([imported, Self.guest, third])
    #expect(alone.diagnostics.isEmpty && merged.diagnostics.isEmpty)
    let profiles = { (export: CacheExport) in
      try Self.accounts(export).members.first?.value.objectValue?["tenantProfiles"]?.arrayValue ?? []
    }
    #expect(try profiles(alone) == [.string(listedHome), .string(listedGuest)])
    #expect(
      try profiles(merged) == [
        .string(listedHome), .string(listedGuest),
        .string(#"{"tenantId":"third","localAccountId":"oid-3","isHomeTenant":false}"#),
      ])
    #expect(try Self.accounts(merged).count == 1)
  }

  /// Other users and clouds stay apart; the other libraries (and an export as read) write one Account per tenant,
  /// without tenant profiles.
  @Test func otherUsersCloudsAndLibrariesAreUnaffected() throws {
    let otherUser = Self.account("hometenant", local: "oid-2", name: nil, home: "uid2.hometenant")
    var otherCloud = Self.guest
    otherCloud.environment = "login.chinacloudapi.cn"
    #expect(try Self.accounts(Self.export([Self.home, otherUser, otherCloud])).count == 3)
    for library in [MSALLibrary.dotnet, .python, .java, .go, nil] {
      let export = Self.export([Self.home, Self.guest], for: library)
      #expect(export.diagnostics.isEmpty, "\(String(describing: library))")
      #expect(try Self.accounts(export).count == 2, "\(String(describing: library))")
      #expect(!Self.text(export).contains("tenantProfiles"), "\(String(describing: library))")
    }
  }
}
