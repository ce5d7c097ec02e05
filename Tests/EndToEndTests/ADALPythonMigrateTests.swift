import Adal2MSAL
import Foundation
import Testing
import _Adal2MSALTestSupport

/// `migrate --adal accessTokens.json` end to end, on the file the real ADAL Python 1.2.7 wrote (Azure CLI form,
/// scripts/fixtures/make_adal_python_cache.py), in a non-UTC zone; then `export` checked by the real MSAL Python.
@Suite(.serialized) struct ADALPythonMigrateTests {
  static let fixture = Fixtures.url("adal-python/accessTokens.json")
  /// 30 minutes after the writer's clock (09:00Z): alice's tokens are fresh, bob's (expired 09:01Z) is not.
  static let now = "2099-11-20T09:30:00Z"
  static let alice = "aaaaaaaa-0000-4000-8000-00000000000a.11111111-1111-4111-8111-111111111111"
  static let bob = "bbbbbbbb-0000-4000-8000-00000000000b.22222222-2222-4222-8222-222222222222"

  struct Run {
    var migrate: ProcessRunner.Output
    var cache: [String: Any]
    var cacheFile: URL

    func section(_ name: String) -> [[String: Any]] {
      ((cache[name] as? [String: Any]) ?? [:]).values.compactMap { $0 as? [String: Any] }
    }
  }

  /// Migrates under `TZ` (the writer's zone is Europe/Berlin, UTC+1) and exports the store as MSAL JSON.
  static func migrate(_ extra: [String] = [], tz: String = "Europe/Berlin", in scratch: URL) throws -> Run {
    var environment = ProcessInfo.processInfo.environment
    environment["TZ"] = tz
    let out = scratch.appendingPathComponent("cache.sqlite").path
    let migrate = try CLI.run(
      ["migrate", "--adal", fixture.path, "--out", out, "--now", now, "--report-format", "json", "--report", "-"]
        + extra,
      environment: environment)
    let cacheFile = scratch.appendingPathComponent("msal_token_cache.json")
    let export = try CLI.run(["export", out, "--output", cacheFile.path])
    #expect(export.exitCode == 0, "\(export.stderr)")
    let cache = (try? JSONSerialization.jsonObject(with: Data(contentsOf: cacheFile))) as? [String: Any] ?? [:]
    return Run(migrate: migrate, cache: cache, cacheFile: cacheFile)
  }

  @Test func migratesUsersAndReportsTheServicePrincipalWithoutItsSecret() throws {
    let scratch = try Fixtures.temporaryDirectory("adal-python")
    defer { try? FileManager.default.removeItem(at: scratch) }
    let run = try Self.migrate(in: scratch)
    #expect(run.migrate.exitCode == 0, "\(run.migrate.stderr.prefix(800))")
    let accounts = run.section("Account").compactMap { $0["home_account_id"] as? String }.sorted()
    #expect(accounts == [Self.alice, Self.bob])  // carol, a guest, is skipped by policy
    let refresh = run.section("RefreshToken").compactMap { $0["secret"] as? String }.sorted()
    #expect(refresh == ["fake-refresh-token-alice", "fake-refresh-token-bob"])
    // Resource to scope: a resource ending in / keeps it, then /.default.
    let targets = run.section("AccessToken").compactMap { $0["target"] as? String }.sorted()
    #expect(targets == ["https://graph.windows.net//.default", "https://management.core.windows.net//.default"])
    let graph = try #require(
      run.section("AccessToken").first { ($0["target"] as? String)?.hasPrefix("https://graph") == true })
    // expiresOn 11:00:00.25 Berlin time is 10:00:00Z.
    #expect(graph["expires_on"] as? String == "4098852000")
    #expect(graph["realm"] as? String == "11111111-1111-4111-8111-111111111111")
    // Bob's access token expired at 09:01Z (10:01 Berlin): a policy skip. The principal is reported by id.
    #expect(run.migrate.stdout.contains("adal.expired-access-token"))
    #expect(run.migrate.stdout.contains("identity.guest"))
    #expect(run.migrate.stdout.contains("55555555-5555-4555-8555-555555555555"))
    #expect(run.migrate.stdout.contains("adal.service-principal-entry"))
    for secret in ["fake-client-secret-sp", "fake-refresh-token", "fake-opaque-access-token"] {
      #expect(!run.migrate.stdout.contains(secret) && !run.migrate.stderr.contains(secret), "\(secret) leaked")
    }
  }

  @Test func theTimeZoneOptionReadsExpiresOnInAnotherZone() throws {
    let scratch = try Fixtures.temporaryDirectory("adal-python-utc")
    defer { try? FileManager.default.removeItem(at: scratch) }
    // Read as UTC, bob's expiresOn 10:01 is still ahead of 09:30Z: his access token migrates too.
    let run = try Self.migrate(["--adal-time-zone", "UTC"], in: scratch)
    #expect(run.migrate.exitCode == 0, "\(run.migrate.stderr.prefix(800))")
    let bobs = run.section("AccessToken").filter { $0["home_account_id"] as? String == Self.bob }
    #expect(bobs.count == 1)
    #expect(bobs.first?["expires_on"] as? String == "4098852060")
    let bad = try CLI.run([
      "migrate", "--adal", Self.fixture.path, "--out", scratch.appendingPathComponent("x.sqlite").path,
      "--adal-time-zone", "Mars/Olympus",
    ])
    #expect(bad.exitCode != 0)
    #expect(bad.stderr.contains("--adal-time-zone Mars/Olympus is no time zone"))
  }

  /// The real MSAL Python (msal 1.39.0) on the export: each user is found by username, alice's fresh access
  /// token is served from the cache, and bob's expired one is refreshed with exactly his ADAL refresh token.
  @Test func msalPythonUsesTheMigratedUsers() throws {
    let scratch = try Fixtures.temporaryDirectory("adal-python-oracle")
    defer { try? FileManager.default.removeItem(at: scratch) }
    let run = try Self.migrate(in: scratch)
    try #require(run.migrate.exitCode == 0, "\(run.migrate.stderr.prefix(800))")
    let management = try #require(
      run.section("AccessToken").first {
        $0["home_account_id"] as? String == Self.alice
          && ($0["target"] as? String)?.hasPrefix("https://management") == true
      })
    let aliceAT = try #require(management["secret"] as? String)
    let checks: [[String: Any]] = [
      [
        "username": "alice@contoso.example",
        "authority": "https://login.microsoftonline.com/11111111-1111-4111-8111-111111111111",
        "expectedHomeAccountId": Self.alice, "expectedAccessTokenFingerprint": SecretFingerprint.of(aliceAT),
        "expectedRefreshTokenFingerprint": SecretFingerprint.of("fake-refresh-token-alice"),
      ],
      [
        "username": "bob@fabrikam.example",
        "authority": "https://login.microsoftonline.com/22222222-2222-4222-8222-222222222222",
        "expectedHomeAccountId": Self.bob, "expectedAccessTokenFingerprint": NSNull(),
        "expectedRefreshTokenFingerprint": SecretFingerprint.of("fake-refresh-token-bob"),
      ],
    ]
    for check in checks {
      var arguments = check
      arguments["cache"] = run.cacheFile.path
      arguments["clientId"] = "04b07795-8ddb-461a-bbee-02f9e1bf7b46"
      arguments["scopes"] = ["https://management.core.windows.net//.default"]
      let json = try JSONSerialization.data(withJSONObject: arguments, options: [.sortedKeys])
      let output = try MSALPythonOracle.run("msal_python_silent.py", arguments: [String(decoding: json, as: UTF8.self)])
      #expect(output.exitCode == 0, "\(check["username"] ?? ""): \(output.stdout) \(output.stderr)")
    }
  }
  /// An MRRT redeemed at another tenant whose response had no id token keeps the home entry's `oid` under the
  /// other tenant's authority (adal `_create_entry_from_refresh`). One object id cannot live in two tenants, so
  /// the two derived ids are a conflict, reported and never guessed; a guest (`identityProvider`) is a policy skip.
  @Test func aCopiedObjectIdUnderAnotherTenantIsAConflictNotAGuess() throws {
    let scratch = try Fixtures.temporaryDirectory("adal-python-conflict")
    defer { try? FileManager.default.removeItem(at: scratch) }
    func entry(_ authority: String, _ oid: String, _ refresh: String, idp: String? = nil) -> [String: Any] {
      var entry: [String: Any] = [
        "_authority": authority, "_clientId": "04b07795-8ddb-461a-bbee-02f9e1bf7b46", "isMRRT": true,
        "resource": "https://management.core.windows.net/", "accessToken": "opaque-at", "tokenType": "Bearer",
        "refreshToken": refresh, "expiresOn": "2017-04-03 10:36:27.808196", "oid": oid,
        "userId": "dana@contoso.example",
      ]
      if let idp { entry["identityProvider"] = idp }
      return entry
    }
    let entries = [
      entry(
        "https://login.microsoftonline.com/11111111-1111-4111-8111-111111111111",
        "dddddddd-0000-4000-8000-00000000000d", "rt-dana"),
      entry(
        "https://login.microsoftonline.com/22222222-2222-4222-8222-222222222222",
        "dddddddd-0000-4000-8000-00000000000d", "rt-dana"),
      entry(
        "https://login.microsoftonline.com/22222222-2222-4222-8222-222222222222",
        "eeeeeeee-0000-4000-8000-00000000000e", "rt-erin", idp: "live.com"),
    ]
    let input = scratch.appendingPathComponent("accessTokens.json")
    try JSONSerialization.data(withJSONObject: entries).write(to: input)
    let output = try CLI.run([
      "migrate", "--adal", input.path, "--out", scratch.appendingPathComponent("c.sqlite").path, "--dry-run",
      "--now", "2026-11-21T00:00:00Z", "--report-format", "json", "--adal-time-zone", "UTC",
    ])
    // Nothing migrates (a conflict and a guest): nothing usable, 1, the report still printed.
    #expect(output.exitCode == 1, "\(output.stderr.prefix(600))")
    #expect(output.stdout.contains("identity.conflict"))
    #expect(output.stdout.contains("dddddddd-0000-4000-8000-00000000000d.11111111-1111-4111-8111-111111111111"))
    #expect(output.stdout.contains("dddddddd-0000-4000-8000-00000000000d.22222222-2222-4222-8222-222222222222"))
    #expect(output.stdout.contains("identity.guest"))
    #expect(!output.stdout.contains("rt-dana") && !output.stdout.contains("rt-erin"))
  }

  /// An access token Azure CLI got from `common` that is no JWT (an MSA account's, an encrypted one) names no tenant
  /// itself; Azure AD issued it from the user's home tenant, whose id the user's identity holds: it migrates there,
  /// as MSAL.NET stores one from the response's id token `tid`. Skipped, it made a run of a normal Azure CLI file
  /// exit 2 ("not read or not modelled") while its accounting said nothing was lost.
  @Test func anOpaqueAccessTokenFromCommonGoesToTheHomeTenant() throws {
    let scratch = try Fixtures.temporaryDirectory("adal-python-common")
    defer { try? FileManager.default.removeItem(at: scratch) }
    var entries = try #require(
      JSONSerialization.jsonObject(with: Data(contentsOf: Self.fixture)) as? [[String: Any]])
    let common = try #require(entries.firstIndex { ($0["_authority"] as? String)?.hasSuffix("/common") == true })
    entries[common]["accessToken"] = "EwBwA8l6BAAUopaque-access-token-from-common"
    let input = scratch.appendingPathComponent("accessTokens.json")
    try JSONSerialization.data(withJSONObject: entries).write(to: input)
    let output = try CLI.run([
      "migrate", "--adal", input.path, "--dry-run", "--now", Self.now, "--adal-time-zone", "Europe/Berlin",
      "--report-format", "json",
    ])
    #expect(output.exitCode == 0, "\(output.stderr.prefix(600))")
    #expect(!output.stdout.contains("adal.access-token-without-tenant"))
    let report = try #require(JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
    let users = try #require(report["users"] as? [[String: Any]])
    let alice = try #require(users.first { $0["homeAccountId"] as? String == Self.alice })
    let added = ((alice["entries"] as? [[String: Any]]) ?? []).filter {
      $0["kind"] as? String == "AccessToken" && $0["action"] as? String == "add"
    }
    let keys = added.compactMap { $0["key"] as? String }.sorted()
    #expect(
      keys == [
        "\(Self.alice)-login.microsoftonline.com-accesstoken-04b07795-8ddb-461a-bbee-02f9e1bf7b46-"
          + "11111111-1111-4111-8111-111111111111-https://graph.windows.net//.default",
        "\(Self.alice)-login.microsoftonline.com-accesstoken-04b07795-8ddb-461a-bbee-02f9e1bf7b46-"
          + "11111111-1111-4111-8111-111111111111-https://management.core.windows.net//.default",
      ])
  }

  /// A daemon's own tokens beside a user's (the real `adal` 1.2.7's client-credentials flow): skipped by policy,
  /// exit 0, and no Account but the user's, so MSAL never lists the service principal as a signed-in user.
  @Test func anAppsOwnTokensAreAPolicySkip() throws {
    let scratch = try Fixtures.temporaryDirectory("adal-python-app-only")
    defer { try? FileManager.default.removeItem(at: scratch) }
    let out = scratch.appendingPathComponent("cache.sqlite").path
    let migrate = try CLI.run([
      "migrate", "--adal", Fixtures.url("adal-python/app-only/adal_token_cache.json").path, "--out", out, "--now",
      Self.now, "--adal-time-zone", "Europe/Berlin", "--report-format", "json", "--report", "-",
    ])
    #expect(migrate.exitCode == 0, "\(migrate.stderr.prefix(600))")
    #expect(migrate.stdout.components(separatedBy: "adal.app-only-entry").count - 1 == 2)
    #expect(migrate.stdout.contains("3 item(s): 1 migrated, 0 unchanged, 0 merged into another, 2 skipped by policy"))
    let cacheFile = scratch.appendingPathComponent("msal.json")
    let export = try CLI.run(["export", out, "--for", "python", "--output", cacheFile.path])
    #expect(export.exitCode == 0, "\(export.stderr)")
    let cache = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: cacheFile)) as? [String: Any])
    let accounts = ((cache["Account"] as? [String: Any]) ?? [:]).values.compactMap {
      ($0 as? [String: Any])?["home_account_id"] as? String
    }
    #expect(accounts == [Self.alice])
    #expect(((cache["AccessToken"] as? [String: Any]) ?? [:]).count == 1)
  }
}
