import Adal2MSAL
import Foundation
import Testing
import _Adal2MSALTestSupport

/// An export `--for python` is what the real MSAL Python library can live with over an account's whole
/// lifecycle (scripts/oracle/msal_python_lifecycle.py: find the account, serve from cache, forced refresh leaves
/// exactly the new refresh token, sign-out leaves nothing of the user, a second app of the family redeems the
/// family token), for a cache MSAL Python itself wrote (Fixtures/msal-json/msal-python-real_lifecycle.json,
/// made by scripts/fixtures/make_msal_python_cache.py through MSAL's own flows) and for a migrated ADAL dump.
/// The same checks fail on an export in another library's key style: they can tell.
@Suite struct ConsumerLifecycleTests {
  struct Verdict {
    var passed = 0
    var failed = 0
    var exitCode: Int32 = -1
    var output = ""
  }

  static func lifecycle(_ cache: URL, arguments: String) throws -> Verdict {
    let output = try MSALPythonOracle.run(
      "msal_python_lifecycle.py", arguments: ["--cache", cache.path, Fixtures.url("lifecycle/\(arguments)").path])
    var verdict = Verdict(exitCode: output.exitCode, output: output.stdout + output.stderr)
    if let object = try? JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any] {
      verdict.passed = object["passed"] as? Int ?? 0
      verdict.failed = object["failed"] as? Int ?? 0
    }
    return verdict
  }

  static func run(_ arguments: [String]) throws -> ProcessRunner.Output {
    let output = try CLI.run(arguments)
    #expect(!output.timedOut && !output.terminatedBySignal, "\(arguments.first ?? "") crashed or hung")
    return output
  }

  /// Migrates an ADAL fixture into a new store and exports it `--for python`: the export's run and its file.
  static func migratedForPython(_ fixture: String, now: String) throws -> (ProcessRunner.Output, URL) {
    let directory = try Fixtures.temporaryDirectory()
    let store = directory.appendingPathComponent("store.sqlite").path
    let exported = directory.appendingPathComponent("export.json")
    let migrate = try run([
      "migrate", "--adal", Fixtures.url(fixture).path, "--out", store, "--now", now,
      "--report", directory.appendingPathComponent("report.txt").path,
    ])
    #expect(FileManager.default.fileExists(atPath: store), "migrate wrote no store: \(migrate.stderr)")
    return (try run(["export", store, "--for", "python", "--output", exported.path]), exported)
  }

  /// Imports the MSAL Python-written cache, exports it `--for python` (and as written): the lifecycle passes
  /// (28 checks; 8 do not apply) and the file comes back entry for entry.
  @Test(arguments: [["--for", "python"], []])
  func pythonWrittenCacheRoundTrips(exportOptions: [String]) throws {
    let directory = try Fixtures.temporaryDirectory()
    let original = Fixtures.url("msal-json/msal-python-real_lifecycle.json")
    let store = directory.appendingPathComponent("store.sqlite").path
    let exported = directory.appendingPathComponent("export.json")
    #expect(try Self.run(["import", original.path, "--out", store]).exitCode == 0)
    #expect(try Self.run(["export", store, "--output", exported.path] + exportOptions).exitCode == 0)

    let differences = try ExportComparison.differences(
      original: Data(contentsOf: original), exported: Data(contentsOf: exported))
    #expect(differences.changed.isEmpty && differences.added == 0, "not entry for entry: \(differences)")
    let verdict = try Self.lifecycle(exported, arguments: "msal-python-real_lifecycle.args.json")
    #expect(verdict.exitCode == 0 && verdict.failed == 0 && verdict.passed == 28, "\(verdict.output)")
  }

  /// The multi-user ADAL dump, migrated and exported `--for python`: each user (app and family refresh token of
  /// one client, a China-cloud user) lives through the lifecycle; the app refresh token MSAL Python would key
  /// like the family token, another token, is named on standard error and makes the export partial.
  @Test func migratedDumpLivesInMSALPython() throws {
    let (export, exported) = try Self.migratedForPython("adal/dump-multiuser.xml.plist", now: "2026-11-21T00:00:00Z")
    #expect(export.exitCode == 2)
    #expect(export.stderr.components(separatedBy: "[export.same-key]").count - 1 == 3, "\(export.stderr)")
    #expect(
      export.stderr.hasSuffix(
        "warning: 3 entry(ies) of the store left out of the export (named above); the store still holds them\n"))
    #expect(!export.stderr.contains("secret"))
    let verdict = try Self.lifecycle(exported, arguments: "dump-multiuser.args.json")
    #expect(verdict.exitCode == 0 && verdict.failed == 0 && verdict.passed == 12, "\(verdict.output)")
  }

  /// ADAL kept each item's own spelling of a client id (alice's and dave's `C1E8E3B2-…`, bob's `c1e8e3b2-…`); an
  /// MSAL Python app has one. Its sign-out finds the app's metadata under its own spelling to remove the family's
  /// refresh tokens: with the metadata written under one spelling only, an app of the other left a user's family
  /// refresh token behind. Every user lives through the lifecycle with either spelling.
  @Test(arguments: ["C1E8E3B2-7D4A-4F5E-9B6C-0A1B2C3D4E5F", "c1e8e3b2-7d4a-4f5e-9b6c-0a1b2c3d4e5f"])
  func anAppOfEitherSpellingOfItsClientIDSignsEveryUserOut(_ clientID: String) throws {
    let (_, exported) = try Self.migratedForPython("adal/dump-multiuser.xml.plist", now: "2026-11-21T00:00:00Z")
    var arguments = try #require(
      JSONSerialization.jsonObject(with: Data(contentsOf: Fixtures.url("lifecycle/dump-multiuser.args.json")))
        as? [String: Any])
    let accounts = try #require(arguments["accounts"] as? [[String: Any]])
    arguments["accounts"] = accounts.map { account in account.merging(["clientId": clientID]) { $1 } }
    let argumentsFile = exported.deletingLastPathComponent().appendingPathComponent("args.json")
    try JSONSerialization.data(withJSONObject: arguments).write(to: argumentsFile)
    let output = try MSALPythonOracle.run(
      "msal_python_lifecycle.py", arguments: ["--cache", exported.path, argumentsFile.path])
    let result = try #require(JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
    #expect(output.exitCode == 0 && result["failed"] as? Int == 0, "\(output.stdout.suffix(1500))")
  }

  /// ADAL stored the family refresh token and one app's own as one token (`frt-two-apps`): the export `--for
  /// python` writes it once, as the family token under that app's key, and says so in a note, not a warning. The
  /// app whose own entry was folded in lives through MSAL Python's lifecycle on it: it refreshes with its own
  /// client id, signs out, and a peer of the family redeems the same token.
  @Test func anAppTokenThatIsTheFamilyTokenIsWrittenOnce() throws {
    let (export, exported) = try Self.migratedForPython(
      "scenarios/frt-two-apps/adal.xml.plist", now: "2025-06-01T12:00:00Z")
    #expect(export.exitCode == 0)
    #expect(export.stderr.components(separatedBy: ": note: ").count - 1 == 1, "\(export.stderr)")
    #expect(export.stderr.contains("[export.same-token]") && !export.stderr.contains("warning"), "\(export.stderr)")
    let verdict = try Self.lifecycle(exported, arguments: "frt-two-apps.args.json")
    #expect(verdict.exitCode == 0 && verdict.failed == 0 && verdict.passed == 5, "\(verdict.output)")
  }

  /// An ADAL Python / Azure CLI `accessTokens.json` written by the real `adal` 1.2.7 package
  /// (scripts/fixtures/make_adal_python_cache.py), migrated with `--azure-cli-dir`: the `msal_token_cache.json`
  /// Azure CLI 2.30+ will load lives through MSAL Python's lifecycle, refreshing with the ADAL refresh tokens.
  @Test func azureCLITokenCacheLivesInMSALPython() throws {
    let directory = try Fixtures.temporaryDirectory()
    let azure = directory.appendingPathComponent("azure")
    try FileManager.default.createDirectory(at: azure, withIntermediateDirectories: true)
    let migrate = try CLI.run(
      [
        "migrate", "--adal", Fixtures.url("adal-python/accessTokens.json").path,
        "--out", directory.appendingPathComponent("store.sqlite").path, "--now", "2099-11-20T09:30:00Z",
        "--report", directory.appendingPathComponent("report.txt").path, "--azure-cli-dir", azure.path,
      ], environment: ["TZ": "Europe/Berlin"])
    #expect(migrate.exitCode == 0, "\(migrate.stderr)")
    let verdict = try Self.lifecycle(
      azure.appendingPathComponent("msal_token_cache.json"), arguments: "adal-python-accessTokens.args.json")
    #expect(verdict.exitCode == 0 && verdict.failed == 0 && verdict.passed == 7, "\(verdict.output)")
  }

  /// The refresh tokens of `file` (unified-cache JSON) of one user and client.
  static func refreshTokens(in file: URL, home: String, client: String) throws -> [[String: Any]] {
    let root = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any]
    let section = root?["RefreshToken"] as? [String: [String: Any]] ?? [:]
    return section.values.filter { $0["home_account_id"] as? String == home && $0["client_id"] as? String == client }
  }

  /// An Azure CLI user in both caches: her ADAL refresh token (written by the real `adal` 1.2.7,
  /// Fixtures/adal-python/merge-msal-python-lifecycle) migrated beside the family refresh token MSAL Python wrote
  /// for the same client (Fixtures/msal-json/msal-python-real_lifecycle.json). MSAL Python keeps one refresh
  /// token per account and client, though it keys them by their own targets: Azure CLI's
  /// `msal_token_cache.json` and the export `--for python` hold the family token alone and name the ADAL token
  /// left out (status 2). On both, MSAL Python's forced refresh leaves one refresh token and sign-out removes all.
  @Test func anADALRefreshTokenBesideMSALPythonsFamilyTokenIsOneEntry() throws {
    let directory = try Fixtures.temporaryDirectory()
    let azure = directory.appendingPathComponent("azure")
    try FileManager.default.createDirectory(at: azure, withIntermediateDirectories: true)
    let store = directory.appendingPathComponent("store.sqlite").path
    let msal = Fixtures.url("msal-json/msal-python-real_lifecycle.json")
    let migrate = try Self.run([
      "migrate", "--adal", Fixtures.url("adal-python/merge-msal-python-lifecycle/accessTokens.json").path,
      "--msal", msal.path, "--adal-time-zone", "UTC", "--now", "1790000555", "--out", store,
      "--report", directory.appendingPathComponent("report.txt").path, "--azure-cli-dir", azure.path,
    ])
    let exported = directory.appendingPathComponent("export.json")
    let export = try Self.run(["export", store, "--for", "python", "--output", exported.path])

    let home = "a11ce000-0000-4000-8000-000000000001.6b7c9d1e-2f3a-4b5c-8d9e-0f1a2b3c4d5e"
    let client = "04b07795-8ddb-461a-bbee-02f9e1bf7b46"
    let family = try #require(try Self.refreshTokens(in: msal, home: home, client: client).first)
    let familySecret = try #require(family["secret"] as? String)
    let adal = UnifiedSecret("fake-adal-refresh-token-alice").fingerprint
    let tokenCache = azure.appendingPathComponent("msal_token_cache.json")
    for (run, file) in [(migrate, tokenCache), (export, exported)] {
      #expect(run.exitCode == 2, "\(run.stderr)")
      let leftOut = run.stderr.split(separator: "\n").filter { $0.hasSuffix("[export.same-key]") }
      #expect(leftOut.count == 1, "\(run.stderr)")
      #expect(
        leftOut.first.map { $0.contains(adal) && $0.contains(UnifiedSecret(familySecret).fingerprint) } == true,
        "\(run.stderr)")
      #expect(!run.stderr.contains("fake-adal-refresh-token") && !run.stderr.contains(familySecret))
      let written = try Self.refreshTokens(in: file, home: home, client: client)
      #expect(written.count == 1 && written.first?["secret"] as? String == familySecret, "\(written.count)")
      let verdict = try Self.lifecycle(file, arguments: "msal-python-real_lifecycle.args.json")
      #expect(verdict.exitCode == 0 && verdict.failed == 0 && verdict.passed == 28, "\(verdict.output)")
    }
  }

  /// An access token without `expires_on` (an MSAL JSON input may hold one): MSAL Python 1.39 reads
  /// `int(entry["expires_on"])` of every access token it searches, so one such token makes every
  /// `acquire_token_silent` raise KeyError. The export `--for python` leaves it out, named (status 2), and the
  /// real MSAL Python lives through every account's lifecycle on it.
  @Test func anAccessTokenWithoutExpiryIsLeftOutForMSALPython() throws {
    let directory = try Fixtures.temporaryDirectory()
    var root = try #require(
      try JSONSerialization.jsonObject(
        with: Data(contentsOf: Fixtures.url("msal-json/msal-python-real_lifecycle.json")))
        as? [String: Any])
    var accessTokens = try #require(root["AccessToken"] as? [String: [String: Any]])
    let key = try #require(accessTokens.keys.first { $0.hasSuffix("-calendars.read email openid profile") })
    let secret = try #require(accessTokens[key]?["secret"] as? String)
    accessTokens[key]?.removeValue(forKey: "expires_on")
    root["AccessToken"] = accessTokens
    let input = directory.appendingPathComponent("msal.json")
    try JSONSerialization.data(withJSONObject: root).write(to: input)
    let store = directory.appendingPathComponent("store.sqlite").path
    let imported = try Self.run(["import", input.path, "--out", store])
    #expect(imported.exitCode == 0, "\(imported.stderr)")

    let exported = directory.appendingPathComponent("export.json")
    let export = try Self.run(["export", store, "--for", "python", "--output", exported.path])
    #expect(export.exitCode == 2, "\(export.stderr)")
    let leftOut = export.stderr.split(separator: "\n").filter { $0.hasSuffix("[export.unloadable]") }
    #expect(leftOut.count == 1, "\(export.stderr)")
    #expect(
      leftOut.first.map {
        $0.contains(UnifiedSecret(secret).fingerprint) && $0.contains("expires_on") && $0.contains(key)
      } == true, "\(export.stderr)")
    #expect(!export.stderr.contains(secret))
    let written = try JSONSerialization.jsonObject(with: Data(contentsOf: exported)) as? [String: Any]
    let writtenTokens = written?["AccessToken"] as? [String: [String: Any]] ?? [:]
    #expect(writtenTokens.count == accessTokens.count - 1)
    #expect(!writtenTokens.values.contains { $0["secret"] as? String == secret })
    let verdict = try Self.lifecycle(exported, arguments: "msal-python-real_lifecycle.args.json")
    #expect(verdict.exitCode == 0 && verdict.failed == 0 && verdict.passed == 28, "\(verdict.output)")
  }

  /// The control: the same stores exported in MSAL.NET's key style (one style for every library, as before
  /// `--for`) fail MSAL Python's lifecycle: the users are not even found, as MSAL.NET's export puts every entry,
  /// the MSAL Python-written ones too, under its cache host `login.windows.net`.
  @Test func anotherLibrarysKeyStyleFailsTheLifecycle() throws {
    let directory = try Fixtures.temporaryDirectory()
    let store = directory.appendingPathComponent("store.sqlite").path
    _ = try Self.run([
      "migrate", "--adal", Fixtures.url("adal/dump-multiuser.xml.plist").path,
      "--msal", Fixtures.url("msal-json/msal-python-real_lifecycle.json").path, "--out", store,
      "--now", "2026-11-21T00:00:00Z", "--report", directory.appendingPathComponent("report.txt").path,
    ])
    let exported = directory.appendingPathComponent("dotnet.json")
    #expect(try Self.run(["export", store, "--for", "dotnet", "--output", exported.path]).exitCode == 0)
    let adal = try Self.lifecycle(exported, arguments: "dump-multiuser.args.json")
    #expect(adal.exitCode == 1 && adal.failed == 12, "\(adal.output)")
    let python = try Self.lifecycle(exported, arguments: "msal-python-real_lifecycle.args.json")
    #expect(python.exitCode == 1 && python.failed >= 12, "\(python.output)")
  }
}
