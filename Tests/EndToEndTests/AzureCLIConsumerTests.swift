import Foundation
import Testing
import _Adal2MSALTestSupport

/// The consumer proof of `migrate --adal accessTokens.json --azure-cli-dir DIR` (issue 25): the real Azure CLI
/// (azure-cli-core's `Profile.get_raw_token`, the code of `az account get-access-token`, installed into
/// .venv-oracle by scripts/bootstrap.sh) reads DIR with the user's ADAL-era azureProfile.json beside the
/// migrated files and the network faked (scripts/oracle/azure_cli_get_token.py). Alice's subscription is served
/// the migrated access token from the cache, Bob's expired one is refreshed with exactly his ADAL refresh token,
/// and the service principal signs in with the ADAL secret from service_principal_entries.json. The control
/// shows the same checks fail when the migration loses a refresh token.
@Suite struct AzureCLIConsumerTests {
  static let adal = Fixtures.url("adal-python/accessTokens.json")
  static let expectations = [
    "--expect", "a1a1a1a1-0000-4000-8000-0000000000a1=cache",  // alice@contoso.example, Contoso Production
    "--expect", "b2b2b2b2-0000-4000-8000-0000000000b2=refresh",  // bob@fabrikam.example, Fabrikam Dev
    "--expect", "c3c3c3c3-0000-4000-8000-0000000000c3=client_secret",  // service principal 55555555-…
  ]

  struct Verdict {
    var exitCode: Int32
    var passed = 0
    var failed = 0
    var checks: [String: [String: Any]] = [:]  // by subscription id
    var output: String
  }

  /// Migrates the real ADAL Python fixture into a fresh Azure CLI directory holding the azureProfile.json fixture.
  static func migratedAzureDirectory() throws -> URL {
    let scratch = try Fixtures.temporaryDirectory("azure-cli-consumer")
    let azure = scratch.appendingPathComponent("azure")
    try FileManager.default.createDirectory(at: azure, withIntermediateDirectories: true)
    var environment = ProcessInfo.processInfo.environment
    environment["TZ"] = "Europe/Berlin"
    let migrate = try CLI.run(
      [
        "migrate", "--adal", adal.path, "--out", scratch.appendingPathComponent("store.sqlite").path,
        "--now", "2099-11-20T09:30:00Z", "--report", scratch.appendingPathComponent("report.txt").path,
        "--azure-cli-dir", azure.path,
      ], environment: environment)
    #expect(migrate.exitCode == 0, "\(migrate.stderr.prefix(600))")
    try FileManager.default.copyItem(
      at: Fixtures.url("azure-cli/azureProfile.json"), to: azure.appendingPathComponent("azureProfile.json"))
    return azure
  }

  static func getToken(_ azure: URL) throws -> Verdict {
    let output = try MSALPythonOracle.run(
      "azure_cli_get_token.py",
      arguments: ["--config-dir", azure.path, "--adal", adal.path, "--now", "2099-11-20T09:30:00Z"] + expectations)
    var verdict = Verdict(exitCode: output.exitCode, output: output.stdout + output.stderr)
    if let object = try? JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any] {
      verdict.passed = object["passed"] as? Int ?? 0
      verdict.failed = object["failed"] as? Int ?? 0
      for check in object["checks"] as? [[String: Any]] ?? [] {
        if let id = check["subscription"] as? String { verdict.checks[id] = check }
      }
    }
    return verdict
  }

  static func noSecrets(_ text: String) -> Bool {
    !["fake-client-secret", "fake-refresh-token", "fake-opaque-access", "eyJ", "azure-cli-fake-"].contains {
      text.contains($0)
    }
  }

  @Test func azureCLIGetsEveryTokenFromTheMigratedDirectory() throws {
    let azure = try Self.migratedAzureDirectory()
    defer { try? FileManager.default.removeItem(at: azure.deletingLastPathComponent()) }
    let verdict = try Self.getToken(azure)
    #expect(verdict.exitCode == 0 && verdict.passed == 3 && verdict.failed == 0, "\(verdict.output)")
    #expect(verdict.checks["a1a1a1a1-0000-4000-8000-0000000000a1"]?["path"] as? String == "cache")
    #expect((verdict.checks["a1a1a1a1-0000-4000-8000-0000000000a1"]?["requests"] as? [Any])?.isEmpty == true)
    let bob = try #require(verdict.checks["b2b2b2b2-0000-4000-8000-0000000000b2"])
    #expect(bob["path"] as? String == "refresh")
    let posted = try #require((bob["requests"] as? [[String: Any]])?.first)
    #expect(posted["grant_type"] as? String == "refresh_token")
    #expect((posted["scope"] as? String)?.hasPrefix("https://management.core.windows.net//.default") == true)
    let principal = try #require(verdict.checks["c3c3c3c3-0000-4000-8000-0000000000c3"])
    #expect(principal["path"] as? String == "client_secret")
    let principalRequest = (principal["requests"] as? [[String: Any]])?.first
    #expect(principalRequest?["client_id"] as? String == "55555555-5555-4555-8555-555555555555")
    #expect(principalRequest?["grant_type"] as? String == "client_credentials")
    #expect(Self.noSecrets(verdict.output), "a secret reached the oracle's output")
  }

  /// The control: a migration that lost Bob's refresh token fails his check (and only his): Azure CLI cannot
  /// refresh his expired access token.
  @Test func aLostRefreshTokenFailsTheProof() throws {
    let azure = try Self.migratedAzureDirectory()
    defer { try? FileManager.default.removeItem(at: azure.deletingLastPathComponent()) }
    let cacheFile = azure.appendingPathComponent("msal_token_cache.json")
    var cache = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: cacheFile)) as? [String: Any])
    let refreshTokens = try #require(cache["RefreshToken"] as? [String: [String: Any]])
    let kept = refreshTokens.filter { !(($0.value["home_account_id"] as? String) ?? "").hasPrefix("bbbbbbbb-") }
    #expect(kept.count == refreshTokens.count - 1)
    cache["RefreshToken"] = kept
    try JSONSerialization.data(withJSONObject: cache).write(to: cacheFile)
    let verdict = try Self.getToken(azure)
    #expect(verdict.exitCode == 1 && verdict.passed == 2 && verdict.failed == 1, "\(verdict.output)")
    #expect(verdict.checks["b2b2b2b2-0000-4000-8000-0000000000b2"]?["status"] as? String == "fail")
    #expect(Self.noSecrets(verdict.output), "a secret reached the oracle's output")
  }

  /// Azure CLI refreshes a token after the migration (the real azure-cli-core, `--keep` writing the token cache
  /// back as `az` would); the same migration run again keeps Azure CLI's new tokens: its token cache as it is now
  /// wins over the store for each key it holds (`MigrationOptions.currentCaches`). The store's older tokens were
  /// written back over them, status 0.
  @Test func aRerunKeepsTheTokensAzureCLIRefreshedSince() throws {
    let azure = try Self.migratedAzureDirectory()
    let scratch = azure.deletingLastPathComponent()
    defer { try? FileManager.default.removeItem(at: scratch) }
    let cacheFile = azure.appendingPathComponent("msal_token_cache.json")
    func bobsTokens() throws -> Set<String> {
      let cache = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: cacheFile)) as? [String: Any])
      return Set(
        ["RefreshToken", "AccessToken"].flatMap { section in
          ((cache[section] as? [String: [String: Any]]) ?? [:]).values
            .filter { ($0["home_account_id"] as? String)?.hasPrefix("bbbbbbbb-") == true }
            .compactMap { $0["secret"] as? String }
        })
    }
    let migrated = try bobsTokens()
    let refreshed = try MSALPythonOracle.run(
      "azure_cli_get_token.py",
      arguments: [
        "--config-dir", azure.path, "--adal", Self.adal.path, "--now", "2099-11-20T09:30:00Z",
        "--keep", "b2b2b2b2-0000-4000-8000-0000000000b2",
      ] + Self.expectations)
    #expect(refreshed.exitCode == 0, "\(refreshed.stderr)")
    let afterRefresh = try bobsTokens()
    try #require(afterRefresh != migrated && !afterRefresh.isEmpty, "Azure CLI refreshed nothing")

    var environment = ProcessInfo.processInfo.environment
    environment["TZ"] = "Europe/Berlin"
    let again = try CLI.run(
      [
        "migrate", "--adal", Self.adal.path, "--msal", cacheFile.path,
        "--out", scratch.appendingPathComponent("store.sqlite").path, "--now", "2099-11-20T09:31:00Z",
        "--report", scratch.appendingPathComponent("report-2.txt").path, "--azure-cli-dir", azure.path,
      ], environment: environment)
    #expect(again.exitCode == 0, "\(again.stderr.prefix(600))")
    #expect(try bobsTokens() == afterRefresh, "the re-run wrote the store's older tokens over Azure CLI's")
  }
}
