import ADALCache
import Adal2MSALSupport
import Foundation
import Testing
import _Adal2MSALTestSupport

/// `inspect` rendering, and the rule that no secret is ever printed.
@Suite("Inspection and secrets")
struct InspectionAndSecretTests {
  /// Every secret the manifest lists for the multi-user dump.
  static func secrets() throws -> [String] {
    let dump = try #require(try Manifest.section("dumps")["dump-multiuser.bplist"])
    let items = try #require(dump["items"] as? [[String: Any]])
    return items.flatMap { item in
      ["accessToken", "refreshToken", "idToken"].compactMap { item[$0] as? String }
    }.filter { $0 != "<tombstone>" }
  }

  @Test func textLinesShowEveryItemWithFingerprintsOnly() throws {
    let result = try Manifest.read("dump-multiuser.bplist")
    let lines = ADALInspection.textLines(result)
    #expect(lines.count == result.items.count + 1 + result.diagnostics.count)
    let first = try #require(result.items.first)
    let rt = try #require(first.refreshToken)
    #expect(
      lines[0]
        == "#0 MRRT user=Alice@Contoso.com client=C1E8E3B2-7D4A-4F5E-9B6C-0A1B2C3D4E5F "
        + "authority=https://login.microsoftonline.com/Contoso.onmicrosoft.com resource=- expires=- "
        + "rt=\(rt.fingerprint) id=\(try #require(first.idToken).fingerprint)")
    #expect(lines[2].contains("AT user=Alice@Contoso.com") && lines[2].contains("expires=2017-03-01T11:00:00Z"))
    #expect(
      lines[result.items.count]
        == "14 ADAL item(s) from keychain-plist-array, 4 unified item(s), 1 wipe marker(s), 1 other item(s) ignored")
    let text = lines.joined(separator: "\n")
    for secret in try Self.secrets() { #expect(!text.contains(secret)) }
  }

  @Test func jsonHasTheSameRows() throws {
    let result = try Manifest.read("dump-multiuser.objection.json")
    let json = try ADALInspection.json(result)
    for secret in try Self.secrets() { #expect(!json.contains(secret)) }
    let report = try JSONDecoder().decode(ADALInspectionReport.self, from: Data(json.utf8))
    #expect(report == ADALInspectionReport(result))
    #expect(report.inputKind == "objection-json")
    #expect(report.items.count == 14)
    #expect(report.unifiedItemTypes == [2001, 2002, 1003, 3001])
    let frt = try #require(report.items.first { $0.kind == "FRT(1)" && $0.user == "Bob@Fabrikam.com" })
    #expect(frt.client == "foci-1")
    #expect(frt.homeAccountID == "b0b00000-0000-4000-8000-000000000b0b.f645ad92-e38d-4d1a-b510-d1b09a74a8ca")
    #expect(frt.era == "E4")
    #expect(frt.refreshToken?.hasPrefix("sha256:") == true)
    #expect(frt.accessToken == nil)
  }

  @Test func descriptionsNeverShowSecrets() throws {
    let result = try Manifest.read("dump-multiuser.xml.plist")
    let rendered =
      result.items.map {
        "\($0) \(String(reflecting: $0)) \(String(describing: $0.accessToken)) \($0.refreshToken.debugDescription)"
      }
      .joined() + result.diagnostics.map(\.description).joined()
    var dumped = ""
    dump(result.items, to: &dumped)
    for secret in try Self.secrets() {
      #expect(!rendered.contains(secret))
      #expect(!dumped.contains(secret))
    }
    let broker = try ADALCacheReader().read(try Fixtures.data("adal/archive-e3-broker-session.bplist"))
    let sessionKey = try #require(broker.items.first?.sessionKey)
    #expect("\(sessionKey)".hasPrefix("sha256:"))
    var dumpedKey = ""
    dump(sessionKey, to: &dumpedKey)
    #expect(!dumpedKey.contains("fake-session-key"))
  }
}

/// An access token is hashed where its fingerprint is asked for (`ADALSecret.init(hashingWhenNeeded:)`), not as
/// it is read: the same secret as one hashed at once, whichever way it was made.
@Suite("Secrets hashed when needed")
struct SecretsHashedWhenNeededTests {
  /// Token-like values, looped over rather than passed as test arguments, which a test's output would show.
  static let values = ["", "a", "eyJ0eXAiOiJKV1QifQ.access", String(repeating: "x", count: 3000)]

  @Test func theFingerprintIsTheOneHashedAtOnce() {
    for (index, value) in Self.values.enumerated() {
      let later = ADALSecret(hashingWhenNeeded: value)
      let now = ADALSecret(value)
      #expect(later.digestPrefix == now.digestPrefix, "value \(index)")
      #expect(later.digestPrefix == SecretFingerprint.digestPrefix(of: value), "value \(index)")
      #expect(later.fingerprint == SecretFingerprint.of(value), "value \(index)")
      #expect(later == now && later.hashValue == now.hashValue, "value \(index)")
      #expect(Set([later, now]).count == 1, "value \(index)")
    }
  }

  @Test func secretsOfDifferentValuesDiffer() {
    #expect(ADALSecret(hashingWhenNeeded: "a") != ADALSecret("b"))
    #expect(ADALSecret(hashingWhenNeeded: "a") != ADALSecret(hashingWhenNeeded: "b"))
  }
}
