import Foundation
import Testing
import UnifiedCache

/// The tokens' field declarations (`UnifiedAccessToken.fields`, `UnifiedRefreshToken.fields`, `trailingFields`)
/// are what the writer writes and the reader reads: each declared field survives an export for every library
/// (under the name that library spells it with) and a read back.
@Suite struct CredentialFieldTests {
  static func date(_ seconds: Double) -> Date { Date(timeIntervalSince1970: seconds) }

  static let accessToken = UnifiedAccessToken(
    homeAccountID: "u.t", environment: "login.windows.net", clientID: "app", realm: "t", target: "User.Read",
    secret: UnifiedSecret("at"), cachedAt: date(1_000), expiresOn: date(2_000), extendedExpiresOn: date(3_000),
    refreshOn: date(1_500), tokenType: "pop", keyID: "key-1", requestedClaims: #"{"a":1}"#,
    userAssertionHash: "hash-1", clientInfo: "info-1", lastModificationTime: "1700000000.5",
    lastModificationApp: "app-1")

  static let refreshToken = UnifiedRefreshToken(
    homeAccountID: "u.t", environment: "login.windows.net", clientID: "app", secret: UnifiedSecret("rt"),
    familyID: "1", realm: "t", target: "openid profile", userAssertionHash: "hash-2", clientInfo: "info-2",
    lastModificationTime: "1700000001", lastModificationApp: "app-2")

  static let idToken = UnifiedIdToken(
    homeAccountID: "u.t", environment: "login.windows.net", clientID: "app", realm: "t", secret: UnifiedSecret("id"),
    clientInfo: "info-3", lastModificationTime: "1700000002", lastModificationApp: "app-3")

  /// A declared field's value as text, whatever it holds.
  static func value<Credential: UnifiedCredential>(_ field: CredentialField<Credential>, of token: Credential)
    -> String?
  {
    switch field.value {
    case .text(let keyPath), .scopes(let keyPath): token[keyPath: keyPath]
    case .epochSeconds(let keyPath): token[keyPath: keyPath].map { "\($0.timeIntervalSince1970)" }
    }
  }

  /// Expects every declared field of `read` to be the one of `written`, and set: a field the samples leave
  /// empty would pass unseen.
  static func expectSameFields<Credential: UnifiedCredential>(
    _ read: Credential, _ written: Credential, _ library: MSALLibrary?
  ) {
    for field in Credential.allFields {
      #expect(value(field, of: written) != nil, "the sample leaves \(field.name) empty")
      #expect(value(field, of: read) == value(field, of: written), "\(field.name) for \(library?.rawValue ?? "-")")
    }
  }

  @Test(arguments: [nil] + MSALLibrary.allCases.map(Optional.some))
  func everyDeclaredFieldSurvivesAnExportAndARead(library: MSALLibrary?) throws {
    let contents = UnifiedCacheContents(
      accessTokens: UnifiedSection([Self.accessToken]), refreshTokens: UnifiedSection([Self.refreshToken]),
      idTokens: UnifiedSection([Self.idToken]))
    let result = try UnifiedCacheJSONReader().read(UnifiedCacheJSONWriter.export(contents, for: library).data)
    // MSAL ObjC's keys (`|`-separated) are not the ones the reader computes: noted, and not about the fields.
    #expect(result.diagnostics.filter { $0.code != "unified.key-mismatch" }.isEmpty)
    let accessToken = try #require(result.contents.accessTokens.entities.first)
    Self.expectSameFields(accessToken, Self.accessToken, library)
    #expect(accessToken.additionalFields.isEmpty)
    let refreshToken = try #require(result.contents.refreshTokens.entities.first)
    Self.expectSameFields(refreshToken, Self.refreshToken, library)
    #expect(refreshToken.additionalFields.isEmpty)
    let idToken = try #require(result.contents.idTokens.entities.first)
    Self.expectSameFields(idToken, Self.idToken, library)
    #expect(idToken.additionalFields.isEmpty)
  }

  /// Each declared field is written under one name per library (two for MSAL.NET's extended expiry), never
  /// under a name the reader does not take.
  @Test func theDeclaredNamesAreTheOnesWrittenWithoutALibrary() throws {
    let object = UnifiedEntityJSON.object(for: Self.accessToken)
    let declared = UnifiedAccessToken.allFields.map(\.name)
    let keys = ["home_account_id", "environment", "client_id", "secret", "credential_type", "realm", "target"]
    #expect(Array(object.keys) == keys + declared)
  }
}
