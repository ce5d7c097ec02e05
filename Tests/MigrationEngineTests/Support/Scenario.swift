import ADALCache
import Adal2MSALSupport
import Foundation
import MigrationEngine
import Testing
import UnifiedCache
import _Adal2MSALTestSupport

/// One scenario of Fixtures/scenarios/<name>/, read with the real readers.
struct Scenario {
  struct Spec: Decodable {
    struct Options: Decodable {
      var clientID: String?
      var prefer: String
      var skipAccessTokens: Bool
    }
    struct OracleCheck: Decodable {
      var username: String
      var clientId: String
      var authority: String
      var resource: String
      var homeAccountId: String
    }
    var description: String
    var clock: String
    var adal: [String]
    var existing: String?
    var msalInputs: [String]
    var options: Options
    var oracle: [OracleCheck]
  }

  static let names: [String] = [
    "adal1-bare-id-token", "adal27-home-account-id", "adfs", "duplicate-rts", "expired-ats",
    "frt-only-client-option", "frt-only-no-client", "frt-two-apps", "guest-user", "msal-conflict",
    "msal-conflict-prefer-adal", "pre27-derived", "pre27-existing-account", "single-user-mrrt-at",
    "sovereign-clouds", "tombstones", "trailing-slash", "two-tenants", "upn-change",
  ]

  var name: String
  var spec: Spec
  var adal: [ADALInput]
  var msal: [MSALInput]
  var existing: UnifiedCacheContents
  var inputs: [PlanInput]
  var options: MigrationOptions

  init(_ name: String) throws {
    self.name = name
    let folder = "scenarios/\(name)/"
    spec = try JSONDecoder().decode(Spec.self, from: Fixtures.data(folder + "scenario.json"))
    var inputs: [PlanInput] = []
    adal = try spec.adal.map { file in
      let data = try Fixtures.data(folder + file)
      let result = try ADALCacheReader().read(data, file: file)
      inputs.append(
        PlanInput(
          path: file, role: .adal, sha256: SecretFingerprint.sha256Hex(data), byteCount: data.count,
          detectedFormat: result.inputKind.rawValue))
      return ADALInput(result, file: file)
    }
    msal = try spec.msalInputs.map { file in
      let data = try Fixtures.data(folder + file)
      inputs.append(
        PlanInput(
          path: file, role: .msal, sha256: SecretFingerprint.sha256Hex(data), byteCount: data.count,
          detectedFormat: "msal-json"))
      return MSALInput(try UnifiedCacheJSONReader().read(data, file: file), file: file)
    }
    existing =
      try spec.existing.map { try UnifiedCacheJSONReader().read(Fixtures.data(folder + $0), file: $0).contents }
      ?? UnifiedCacheContents()
    self.inputs = inputs
    let clock = try #require(ISO8601DateFormatter().date(from: spec.clock))
    options = MigrationOptions(
      clientID: spec.options.clientID, skipAccessTokens: spec.options.skipAccessTokens,
      prefer: try #require(MigrationOptions.Preference(rawValue: spec.options.prefer)), clock: .fixed(clock))
  }

  func plan(existing: UnifiedCacheContents? = nil) -> MigrationPlan {
    Migration.plan(adal: adal, msal: msal, existing: existing ?? self.existing, inputs: inputs, options: options)
  }
}

/// Compares with a golden file; a recording run or a difference fails the test.
func expectGolden(_ actual: String, _ name: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
  switch try Golden.compare(actual, testTarget: "MigrationEngineTests", name: name) {
  case .matches: break
  case .recorded(let path):
    Issue.record(
      "recorded golden file \(path): review it, then run again without RECORD_GOLDEN", sourceLocation: sourceLocation)
  case .differs(let expected, let actual, let path):
    let expectedLines = expected.split(separator: "\n", omittingEmptySubsequences: false)
    let actualLines = actual.split(separator: "\n", omittingEmptySubsequences: false)
    let first = zip(expectedLines, actualLines).enumerated().first { $0.element.0 != $0.element.1 }
    let detail =
      first.map { "line \($0.offset + 1):\n  expected: \($0.element.0)\n  actual:   \($0.element.1)" }
      ?? "line counts differ (\(expectedLines.count) vs \(actualLines.count))"
    Issue.record("\(path) differs; \(detail)", sourceLocation: sourceLocation)
  }
}
