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
}
