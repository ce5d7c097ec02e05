import Adal2MSAL
import Foundation
import Testing
import _Adal2MSALTestSupport

/// `migrate --azure-cli-dir DIR`: Azure CLI 2.30+'s msal_token_cache.json and service_principal_entries.json
/// (mode 0600) from the ADAL-era accessTokens.json the real ADAL Python wrote.
@Suite(.serialized) struct AzureCLIDirTests {
  static let fixture = Fixtures.url("adal-python/accessTokens.json")

  static func mode(_ path: URL) -> Int {
    ((try? FileManager.default.attributesOfItem(atPath: path.path))?[.posixPermissions] as? Int) ?? -1
  }

  @Test func writesTheTokenCacheAndTheServicePrincipalsBesideIt() throws {
    let scratch = try Fixtures.temporaryDirectory("azure-cli-dir")
    defer { try? FileManager.default.removeItem(at: scratch) }
    let azure = scratch.appendingPathComponent("azure")
    try FileManager.default.createDirectory(at: azure, withIntermediateDirectories: true)
    let out = scratch.appendingPathComponent("cache.sqlite").path
    var environment = ProcessInfo.processInfo.environment
    environment["TZ"] = "Europe/Berlin"
    let base = [
      "migrate", "--adal", Self.fixture.path, "--out", out, "--now", "2099-11-20T09:30:00Z", "--azure-cli-dir",
      azure.path,
    ]
    let first = try CLI.run(base, environment: environment)
    #expect(first.exitCode == 0, "\(first.stderr.prefix(600))")
    #expect(!first.stderr.contains("fake-client-secret-sp") && !first.stdout.contains("fake-client-secret-sp"))
    let tokenCache = azure.appendingPathComponent("msal_token_cache.json")
    let principals = azure.appendingPathComponent("service_principal_entries.json")
    #expect(Self.mode(tokenCache) == 0o600 && Self.mode(principals) == 0o600)
    let cache = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: tokenCache)) as? [String: Any])
    #expect((cache["RefreshToken"] as? [String: Any])?.count == 2)
    let entries = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: principals)) as? [[String: String]])
    #expect(
      entries == [
        [
          "client_id": "55555555-5555-4555-8555-555555555555", "tenant": "11111111-1111-4111-8111-111111111111",
          "client_secret": "fake-client-secret-sp",
        ]
      ])
    // The token cache now holds sign-ins: a second run must merge it, never overwrite it.
    let refused = try CLI.run(base, environment: environment)
    #expect(refused.exitCode != 0)
    #expect(refused.stderr.contains("msal_token_cache.json exists: pass it with --msal"))
    let again = try CLI.run(base + ["--msal", tokenCache.path], environment: environment)
    #expect(again.exitCode == 0, "\(again.stderr.prefix(600))")
    let after = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: principals)) as? [[String: String]])
    #expect(after.count == 1)  // not added twice
    #expect(again.stderr.contains("0 service principal(s) added"))
  }
}
