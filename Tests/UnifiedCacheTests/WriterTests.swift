import Foundation
import Testing
import UnifiedCache

@Suite struct WriterTests {
  static let sample = UnifiedCacheContents(
    accessTokens: UnifiedSection([
      UnifiedAccessToken(
        homeAccountID: "uid.utid", environment: "login.windows.net", clientID: "app", realm: "tenant",
        target: "User.Read", secret: UnifiedSecret("at-secret"), cachedAt: Date(timeIntervalSince1970: 100.9),
        expiresOn: Date(timeIntervalSince1970: 200))
    ]),
    unknownSections: ["Zeta": .object(["n": .number("1.50")]), "Alpha": .null])

  var text: String { String(decoding: UnifiedCacheJSONWriter.export(Self.sample).data, as: UTF8.self) }

  @Test func alwaysWritesTheFiveSectionsThenUnknownOnesInOrder() {
    let expectedOrder = [
      "\"AccessToken\"", "\"RefreshToken\"", "\"IdToken\"", "\"Account\"", "\"AppMetadata\"", "\"Zeta\"", "\"Alpha\"",
    ]
    let positions = expectedOrder.compactMap { text.range(of: $0)?.lowerBound }
    #expect(positions.count == expectedOrder.count)
    #expect(positions == positions.sorted())
    #expect(text.contains(#""RefreshToken": {}"#))
    #expect(text.contains(#""n": 1.50"#))
  }

  @Test func timestampsAreIntegerStringsAndKeysCanonical() {
    #expect(text.contains(#""cached_at": "100""#))
    #expect(text.contains(#""expires_on": "200""#))
    #expect(text.contains(#""uid.utid-login.windows.net-accesstoken-app-tenant-user.read": {"#))
    #expect(text.contains(#""target": "User.Read""#))
  }

  @Test func layoutIsFourSpacesUTF8WithoutBOM() {
    let data = UnifiedCacheJSONWriter.export(Self.sample).data
    #expect(!data.starts(with: [0xEF, 0xBB, 0xBF]))
    #expect(text.hasPrefix("{\n    \"AccessToken\": {\n        \"uid.utid"))
    #expect(text.hasSuffix("}\n"))
  }

  @Test func outputIsValidJSONForFoundation() throws {
    let object =
      try JSONSerialization.jsonObject(with: UnifiedCacheJSONWriter.export(Self.sample).data) as? [String: Any]
    #expect(object?.keys.count == 7)
  }

  @Test func stringsAreEscaped() throws {
    var contents = UnifiedCacheContents()
    contents.accounts.upsert(
      UnifiedAccount(homeAccountID: "u", environment: "e", realm: "r", username: "quote\" slash\\ tab\t nul\u{0} é 😀"))
    let back = try TestCache.roundTrip(contents)
    #expect(back == contents)
  }

  @Test func entityJSONLeavesAbsentFieldsOutAndAddsUnknownOnesAfter() {
    let metadata = UnifiedAppMetadata(
      clientID: "app", environment: "env", familyID: "1",
      additionalFields: ["x": .bool(true), "family_id": .string("shadowed")])
    #expect(UnifiedEntityJSON.object(for: metadata).keys == ["client_id", "environment", "family_id", "x"])
    #expect(UnifiedEntityJSON.object(for: metadata)["family_id"] == .string("1"))
    let plain = UnifiedAppMetadata(clientID: "app", environment: "env")
    #expect(UnifiedEntityJSON.object(for: plain).keys == ["client_id", "environment"])
  }
}
