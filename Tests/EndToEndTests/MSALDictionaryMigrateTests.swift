import Adal2MSAL
import Foundation
import Testing
import _Adal2MSALTestSupport

/// `migrate --msal` on MSAL.NET's own v2 dictionary cache (../shared/realworld, read in place), exported and
/// checked with the real MSAL Python: the user is found, and its expired access token is refreshed with exactly
/// the cache's refresh token.
@Suite(.serialized) struct MSALDictionaryMigrateTests {
  static let file = Fixtures.repositoryRoot
    .appendingPathComponent("../shared/realworld/msal-dotnet_cachecompat_dotnet_dictionary.bin").standardized

  @Test func dictionaryCacheMigratesAndMSALPythonRefreshesWithItsRefreshToken() throws {
    let scratch = try Fixtures.temporaryDirectory("msal-dictionary")
    defer { try? FileManager.default.removeItem(at: scratch) }
    let out = scratch.appendingPathComponent("cache.sqlite").path
    let migrate = try CLI.run(["migrate", "--msal", Self.file.path, "--out", out, "--now", "2026-11-21T00:00:00Z"])
    #expect(migrate.exitCode == 0, "\(migrate.stderr.prefix(600))")
    let cacheFile = scratch.appendingPathComponent("cache.json")
    let export = try CLI.run(["export", out, "--output", cacheFile.path])
    try #require(export.exitCode == 0, "\(export.stderr)")
    let cache = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: cacheFile)) as? [String: Any])
    let refresh = try #require((cache["RefreshToken"] as? [String: Any])?.values.first as? [String: Any])
    let secret = try #require(refresh["secret"] as? String)
    let arguments: [String: Any] = [
      "cache": cacheFile.path, "clientId": "b945c513-3946-4ecd-b179-6499803a2167",
      "authority": "https://login.windows.net/26039cce-489d-4002-8293-5b0c5134eacb",
      "username": "abhi@ddobalianoutlook.onmicrosoft.com", "scopes": ["User.Read"],
      "expectedHomeAccountId": "13dd2c19-84cd-416a-ae7d-49573e425619.26039cce-489d-4002-8293-5b0c5134eacb",
      // Its access token expired in 2019: MSAL must refresh.
      "expectedAccessTokenFingerprint": NSNull(), "expectedRefreshTokenFingerprint": SecretFingerprint.of(secret),
    ]
    let json = try JSONSerialization.data(withJSONObject: arguments, options: [.sortedKeys])
    let output = try MSALPythonOracle.run("msal_python_silent.py", arguments: [String(decoding: json, as: UTF8.self)])
    #expect(output.exitCode == 0, "\(output.stdout) \(output.stderr)")
    #expect(!output.stdout.contains(secret))
  }

  /// `inspect` shows the file `migrate --msal` and `import` read, as the unified cache it is: it refused it with
  /// "read it with adal2msal migrate --msal". Its entities are those `import --dry-run` counts, no token shown.
  @Test func inspectShowsTheDictionaryCache() throws {
    let text = try CLI.run(["inspect", Self.file.path])
    #expect(text.exitCode == 0, "\(text.stderr)")
    #expect(text.stdout.contains("format: MSAL unified cache JSON"), "\(text.stdout)")
    let json = try CLI.run(["inspect", Self.file.path, "--format", "json"])
    #expect(json.exitCode == 0, "\(json.stderr)")
    let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
    #expect(object["format"] as? String == "msal-json")
    let cache = try #require(object["cache"] as? [String: Any])
    #expect(!cache.isEmpty, "\(json.stdout.prefix(400))")
    let raw = try String(contentsOf: Self.file, encoding: .utf8)
    let sections = try #require(try JSONSerialization.jsonObject(with: Data(raw.utf8)) as? [[String: Any]])
    let secrets = sections.flatMap { ($0["Value"] as? [String]) ?? [] }.compactMap { value in
      (try? JSONSerialization.jsonObject(with: Data(value.utf8)) as? [String: Any])?["secret"] as? String
    }
    #expect(!secrets.isEmpty)
    for secret in secrets where secret.count >= 16 {
      #expect(!text.stdout.contains(secret) && !json.stdout.contains(secret), "a token is shown")
    }
  }
}
