import Foundation
import Testing
import UnifiedCache

@testable import MigrationEngine

/// The summary's fields, made on their own (`EntityFields.summaryValues`), are the values the full field list
/// gives under the same names, for every entity of every scenario (planned and existing).
@Suite struct EntityFieldsTests {
  static let scenarios = [
    "adal1-bare-id-token", "adal27-home-account-id", "adfs", "duplicate-rts", "expired-ats", "frt-only-client-option",
    "frt-two-apps", "msal-conflict", "msal-conflict-prefer-adal", "pre27-derived",
    "pre27-existing-account", "single-user-mrrt-at", "sovereign-clouds", "tombstones", "trailing-slash",
    "two-tenants", "upn-change",
  ]

  @Test(arguments: scenarios)
  func summaryValuesAreTheListedFields(_ name: String) throws {
    let plan = try Scenario(name).plan()
    let entities = plan.entries.flatMap { [$0.entity, $0.existing].compactMap { $0 } }
    #expect(!entities.isEmpty)
    for entity in entities {
      let listed = EntityFields.of(entity)
      let expected = EntityFields.SummaryField.allCases.map { field in
        listed.first { $0.name == field.name }.map { "<\($0.value)>" }
      }
      let values = EntityFields.summaryValues(of: entity) { "<\($0)>" }.texts
      #expect(values == expected, "\(entity.kind) \(entity.canonicalKey)")
      // Without a transform the fingerprint and the expiry are kept as numbers: their text is the same.
      let plain = EntityFields.summaryValues(of: entity, nil).texts
      #expect(plain == expected.map { $0.map { String($0.dropFirst().dropLast()) } }, "\(entity.canonicalKey)")
    }
  }

  /// Every kind, with the optional fields the summary shows both set and missing.
  @Test func summaryValuesOfEveryKind() {
    let secret = UnifiedSecret("token")
    let entities: [AnyUnifiedEntity] = [
      .account(
        UnifiedAccount(
          homeAccountID: "uid.utid", environment: "login.windows.net", realm: "utid", username: "Ann@Contoso.com",
          authorityType: "MSSTS")),
      .account(UnifiedAccount(homeAccountID: "uid.utid", environment: "login.windows.net", realm: "utid")),
      .accessToken(
        UnifiedAccessToken(
          homeAccountID: "uid.utid", environment: "login.windows.net", clientID: "client", realm: "utid",
          target: "https://graph.microsoft.com/.default", secret: secret,
          expiresOn: Date(timeIntervalSince1970: 1_800_000_000.7))),
      .accessToken(
        UnifiedAccessToken(
          homeAccountID: "uid.utid", environment: "login.windows.net", clientID: "client", realm: "utid", target: "",
          secret: secret)),
      .refreshToken(
        UnifiedRefreshToken(
          homeAccountID: "uid.utid", environment: "login.windows.net", clientID: "client", secret: secret,
          familyID: "1", realm: "utid", target: "scope")),
      .refreshToken(
        UnifiedRefreshToken(homeAccountID: "uid.utid", environment: "login.windows.net", clientID: "c", secret: secret)),
      .idToken(
        UnifiedIdToken(
          homeAccountID: "uid.utid", environment: "login.windows.net", clientID: "client", realm: "utid",
          secret: secret)),
      .appMetadata(UnifiedAppMetadata(clientID: "client", environment: "login.windows.net", familyID: "1")),
      .appMetadata(UnifiedAppMetadata(clientID: "client", environment: "login.windows.net")),
    ]
    for entity in entities {
      let listed = EntityFields.of(entity)
      let expected = EntityFields.SummaryField.allCases.map { field in listed.first { $0.name == field.name }?.value }
      #expect(EntityFields.summaryValues(of: entity) { $0 }.texts == expected, "\(entity)")
      #expect(EntityFields.summaryValues(of: entity, nil).texts == expected, "\(entity)")
    }
  }
}
