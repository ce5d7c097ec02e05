import Adal2MSAL
import Foundation
import Synchronization
import Testing
import _Adal2MSALTestSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

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
    // The principal is named as the inputs' and counted as already there: the line said "0 … added: <its id>".
    #expect(
      again.stderr.contains(
        "(service principal(s) of the inputs: 55555555-5555-4555-8555-555555555555; 0 added, 1 already there)\n"),
      "\(again.stderr)")
    #expect(
      first.stderr.contains(
        "(service principal(s) of the inputs: 55555555-5555-4555-8555-555555555555; 1 added, 0 already there)\n"),
      "\(first.stderr)")
  }

  /// The same service principal in two inputs, into a new directory: added once, the other counted as repeated in
  /// the inputs, not as "already there" (the file held nothing).
  @Test func aServicePrincipalInTwoInputsIsAddedOnce() throws {
    let scratch = try Fixtures.temporaryDirectory("azure-cli-repeated")
    defer { try? FileManager.default.removeItem(at: scratch) }
    let azure = scratch.appendingPathComponent("azure")
    try FileManager.default.createDirectory(at: azure, withIntermediateDirectories: true)
    let copies = ["a.json", "b.json"].map { scratch.appendingPathComponent($0) }
    for copy in copies { try FileManager.default.copyItem(at: Self.fixture, to: copy) }
    let run = try CLI.run(
      ["migrate"] + copies.flatMap { ["--adal", $0.path] } + [
        "--out", scratch.appendingPathComponent("cache.sqlite").path, "--now", "2099-11-20T09:30:00Z",
        "--azure-cli-dir", azure.path,
      ])
    #expect(run.exitCode == 0, "\(run.stderr)")
    #expect(
      run.stderr.contains(
        "; 1 added, 0 already there, 1 repeated in the inputs)\n"), "\(run.stderr)")
    let entries = try JSONSerialization.jsonObject(
      with: Data(contentsOf: azure.appendingPathComponent("service_principal_entries.json")))
    #expect((entries as? [Any])?.count == 1)
  }

  /// Azure CLI's token cache is an export for MSAL Python: an app's refresh token that MSAL Python keys like the
  /// family token of another secret is left out of it, named, and makes the run partial (status 2), though the
  /// store holds both; the library's outcome counts it. Earlier the run exited 0.
  @Test func aTokenLeftOutOfTheTokenCacheMakesTheRunPartial() async throws {
    let scratch = try Fixtures.temporaryDirectory("azure-cli-left-out")
    defer { try? FileManager.default.removeItem(at: scratch) }
    let cache = scratch.appendingPathComponent("msal.json")
    func refreshToken(_ familyID: String?, _ secret: String) -> [String: Any] {
      var token: [String: Any] = [
        "home_account_id": "u.t", "environment": "login.microsoftonline.com", "credential_type": "RefreshToken",
        "client_id": "04b07795-8ddb-461a-bbee-02f9e1bf7b46", "secret": secret,
      ]
      token["family_id"] = familyID
      return token
    }
    let account: [String: Any] = [
      "home_account_id": "u.t", "environment": "login.microsoftonline.com", "realm": "t", "local_account_id": "u",
      "username": "a@contoso.com", "authority_type": "MSSTS",
    ]
    let prefix = "u.t-login.microsoftonline.com-refreshtoken-"
    try JSONSerialization.data(withJSONObject: [
      "Account": ["u.t-login.microsoftonline.com-t": account],
      "RefreshToken": [
        prefix + "04b07795-8ddb-461a-bbee-02f9e1bf7b46--": refreshToken(nil, "app-rt"),
        prefix + "1--": refreshToken("1", "family-rt"),
      ],
    ]).write(to: cache)
    let azure = scratch.appendingPathComponent("azure")
    try FileManager.default.createDirectory(at: azure, withIntermediateDirectories: true)
    let run = try CLI.run([
      "migrate", "--msal", cache.path, "--out", scratch.appendingPathComponent("cli.sqlite").path, "--azure-cli-dir",
      azure.path, "-q",
    ])
    #expect(run.exitCode == 2, "\(run.stderr)")
    #expect(run.stderr.contains("[export.same-key]"))
    #expect(run.stderr.contains("warning: 1 entry(ies) of the store left out of \(azure.path)/msal_token_cache.json"))
    var options = MigrationRun.Options()
    options.azureCLIDirectory = scratch.path  // a directory without Azure CLI's files yet
    let outcome = try await MigrationRun(
      msal: [cache.path], store: scratch.appendingPathComponent("library.sqlite").path, options: options
    ).run()
    #expect(outcome.result == .partial && outcome.azureCLI?.entriesLeftOut == 1)
    #expect(outcome.verdict.outcome(strict: false) == .complete)
  }

  /// `--redact-usernames` hides the account ids on standard error as in the report: in the first problems the
  /// closing line names (an entry placed by its key) and in what Azure CLI's token cache left out. Both showed
  /// the home account id.
  @Test func aRedactedRunHidesTheIdsOnStandardErrorToo() throws {
    let scratch = try Fixtures.temporaryDirectory("azure-cli-redacted")
    defer { try? FileManager.default.removeItem(at: scratch) }
    let (home, client) = ("uid-4711.tid-0815", "04b07795-8ddb-461a-bbee-02f9e1bf7b46")
    func refreshToken(_ familyID: String?, _ secret: String) -> [String: Any] {
      var token: [String: Any] = [
        "home_account_id": home, "environment": "login.microsoftonline.com", "credential_type": "RefreshToken",
        "client_id": client, "secret": secret,
      ]
      token["family_id"] = familyID
      return token
    }
    let account: [String: Any] = [
      "home_account_id": home, "environment": "login.microsoftonline.com", "realm": "tid-0815",
      "local_account_id": "uid-4711", "username": "a@contoso.com", "authority_type": "MSSTS",
    ]
    let prefix = "\(home)-login.microsoftonline.com-"
    let cache = scratch.appendingPathComponent("msal.json")
    try JSONSerialization.data(withJSONObject: [
      "Account": ["\(prefix)tid-0815": account],
      "RefreshToken": [
        prefix + "refreshtoken-\(client)--": refreshToken(nil, "app-rt"),
        prefix + "refreshtoken-1--": refreshToken("1", "family-rt"),
      ],
      "AccessToken": [prefix + "accesstoken-\(client)-tid-0815-scope": ["home_account_id": home]],
    ]).write(to: cache)
    for (name, redact) in [("plain", false), ("redacted", true)] {
      let azure = scratch.appendingPathComponent("azure-\(name)")
      try FileManager.default.createDirectory(at: azure, withIntermediateDirectories: true)
      let run = try CLI.run(
        [
          "migrate", "--msal", cache.path, "--out", scratch.appendingPathComponent("\(name).sqlite").path,
          "--azure-cli-dir", azure.path, "-q",
        ] + (redact ? ["--redact-usernames"] : []))
      #expect(run.exitCode == 2, "\(run.stderr)")
      let lines = run.stderr.split(separator: "\n")
      let leftOut = try #require(lines.first { $0.hasSuffix("[export.same-key]") }, "\(run.stderr)")
      let closing = try #require(lines.last { $0.contains("; first: ") }, "\(run.stderr)")
      for line in [leftOut, closing] {
        #expect(line.contains(home) != redact, "\(name): \(line)")
        #expect(line.contains("account-") == redact, "\(name): \(line)")
      }
    }
  }

  /// An Azure CLI directory whose token cache holds sign-ins (an MSAL Python cache), in a new scratch directory.
  static func signedInDirectory(_ name: String) throws -> (scratch: URL, azure: String, tokenCache: String) {
    let scratch = try Fixtures.temporaryDirectory(name)
    let azure = scratch.appendingPathComponent("azure").path
    try FileManager.default.createDirectory(atPath: azure, withIntermediateDirectories: true)
    let tokenCache = "\(azure)/msal_token_cache.json"
    try FileManager.default.copyItem(
      atPath: Fixtures.url("msal-json/msal-python-real_lifecycle.json").path, toPath: tokenCache)
    return (scratch, azure, tokenCache)
  }

  /// The token cache after a sign-in Azure CLI makes while a run goes on: another user's.
  static let newSignIn = Fixtures.url("msal-json/msal-python-2019_via-msal-dotnet_cachecompat_python.json")

  /// Azure CLI may sign a user in while the run goes on: a token cache that is not the file the run read is not
  /// replaced, nor are the service principals written, and the run says so after its store (`StoreWrittenError`,
  /// status 2). Run again, it merges the new sign-in. Earlier the new sign-in was overwritten, and lost.
  @Test func aTokenCacheChangedDuringTheRunIsNotReplaced() async throws {
    let (scratch, azure, tokenCache) = try Self.signedInDirectory("azure-cli-changed")
    defer { try? FileManager.default.removeItem(at: scratch) }
    let signedIn = try Data(contentsOf: Self.newSignIn)
    var options = MigrationRun.Options()
    options.azureCLIDirectory = azure
    let store = scratch.appendingPathComponent("cache.sqlite").path
    let signsIn = Mutex(true)
    do {
      _ = try await MigrationRun(msal: [tokenCache], store: store, options: options).run { progress in
        guard progress.stage == .writing else { return }
        let first = signsIn.withLock { pending in
          defer { pending = false }
          return pending
        }
        if first { try? signedIn.write(to: URL(fileURLWithPath: tokenCache)) }
      }
      Issue.record("the run replaced a token cache that changed while it ran")
    } catch let error as StoreWrittenError {
      #expect(error.failures.count == 1 && "\(error)".contains("changed after the run read it"), "\(error)")
      #expect(error.outcome.applied != nil)
    }
    #expect(try Data(contentsOf: URL(fileURLWithPath: tokenCache)) == signedIn)
    #expect(!FileManager.default.fileExists(atPath: "\(azure)/service_principal_entries.json"))
    let again = try await MigrationRun(msal: [tokenCache], store: store, options: options).run()
    #expect(again.azureCLI != nil && again.result == .complete)
    let merged = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: tokenCache)))
    let accounts = ((merged as? [String: Any])?["Account"] as? [String: Any])?.keys.map { $0.prefix(8) } ?? []
    #expect(accounts.contains("13dd2c19"), "the sign-in made during the first run: \(accounts)")
  }

  /// Azure CLI changes its token cache under its own lock (msal-extensions' `CrossPlatLock`, the real library, in
  /// scripts/oracle/azure_cli_sign_in_locked.py): while it holds the lock, the run waits, then finds the new
  /// sign-in and leaves the file to it (status 2, run again). Without the lock the run replaced the file at once,
  /// and Azure CLI's write then replaced the migration's.
  @Test func theRunWaitsForAzureCLIsLockOnItsTokenCache() async throws {
    let (scratch, azure, tokenCache) = try Self.signedInDirectory("azure-cli-lock")
    defer { try? FileManager.default.removeItem(at: scratch) }
    let signedIn = Self.newSignIn
    let python = Process()
    python.executableURL = BuiltProducts.oraclePython
    python.arguments = [
      Fixtures.repositoryRoot.appendingPathComponent("scripts/oracle/azure_cli_sign_in_locked.py").path, tokenCache,
      signedIn.path, "2",
    ]
    let output = Pipe()
    python.standardOutput = output
    try python.run()
    defer { python.waitUntilExit() }
    let said = output.fileHandleForReading.readData(ofLength: 7)
    #expect(String(decoding: said, as: UTF8.self) == "locked\n")
    var options = MigrationRun.Options()
    options.azureCLIDirectory = azure
    do {
      _ = try await MigrationRun(
        msal: [tokenCache], store: scratch.appendingPathComponent("s.sqlite").path, options: options
      )
      .run()
      Issue.record("the run replaced the token cache while Azure CLI held its lock")
    } catch let error as StoreWrittenError {
      #expect("\(error)".contains("changed after the run read it"), "\(error)")
    }
    python.waitUntilExit()
    #expect(python.terminationStatus == 0)
    #expect(try Data(contentsOf: URL(fileURLWithPath: tokenCache)) == Data(contentsOf: signedIn))
    #expect(!FileManager.default.fileExists(atPath: tokenCache + ".lockfile"))
  }

  /// Azure CLI's token cache is an input when `--msal` names it through a link or its directory, which is what
  /// the run reads: its sign-ins are merged. Named by a path that only looks like it (a `..` after a link), it is
  /// another file, and the run is refused before it replaces the cache. Earlier the paths were compared as
  /// standardized text, and the directory and the link were refused.
  @Test func theTokenCacheIsKnownAsAnInputByWhatFileItIs() throws {
    let scratch = try Fixtures.temporaryDirectory("azure-cli-token-cache")
    defer { try? FileManager.default.removeItem(at: scratch) }
    let azure = scratch.appendingPathComponent("azure").path
    let elsewhere = scratch.appendingPathComponent("elsewhere").path
    for directory in [azure, "\(elsewhere)/deep", "\(elsewhere)/azure"] {
      try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }
    let tokenCache = "\(azure)/msal_token_cache.json"
    let signIns = Fixtures.url("msal-json/msal-python-real_lifecycle.json").path
    try FileManager.default.copyItem(atPath: signIns, toPath: tokenCache)
    try FileManager.default.copyItem(atPath: signIns, toPath: "\(elsewhere)/azure/msal_token_cache.json")
    try FileManager.default.createSymbolicLink(atPath: "\(scratch.path)/link", withDestinationPath: azure)
    try FileManager.default.createSymbolicLink(
      atPath: "\(scratch.path)/deep", withDestinationPath: "\(elsewhere)/deep")
    func refreshTokens() throws -> Int {
      let cache = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: tokenCache)))
      return ((cache as? [String: Any])?["RefreshToken"] as? [String: Any])?.count ?? 0
    }
    let before = try refreshTokens()
    #expect(before > 0)
    let common = ["--azure-cli-dir", azure, "-q"]
    func store(_ name: String) -> String { scratch.appendingPathComponent(name).path }
    let throughLink = try CLI.run(
      ["migrate", "--msal", "\(scratch.path)/link/msal_token_cache.json", "--out", store("a.sqlite")] + common)
    #expect(throughLink.exitCode == 0, "\(throughLink.stderr)")
    let throughDirectory = try CLI.run(
      ["migrate", "--msal", azure, "--out", store("b.sqlite"), "--report", store("b.json"), "--report-format", "json"]
        + common)
    // The directory's other file, the service principals the first run wrote, is the run's own: passed over,
    // named in the report, not skipped as a file that is no cache.
    #expect(throughDirectory.exitCode == 0, "\(throughDirectory.stderr)")
    let report = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: store("b.json"))))
    let notes = ((report as? [String: Any])?["diagnostics"] as? [[String: Any]] ?? []).filter {
      $0["code"] as? String == "input.run-file"
    }
    #expect(
      notes.compactMap { ($0["location"] as? [String: Any])?["file"] as? String }
        == ["\(azure)/service_principal_entries.json"])
    #expect(try refreshTokens() == before)
    let lookAlike = "\(scratch.path)/deep/../azure/msal_token_cache.json"
    let refused = try CLI.run(["migrate", "--msal", lookAlike, "--out", store("c.sqlite")] + common)
    #expect(refused.exitCode == 64, "\(refused.stderr)")
    #expect(refused.stderr.contains("\(tokenCache) exists: pass it with --msal"), "\(refused.stderr)")
    #expect(!FileManager.default.fileExists(atPath: store("c.sqlite")))
  }

  /// Service principals that could not be merged into, found before the store is written: each run is refused
  /// with the file named, no store is left, and the file is as it was. Earlier, a file that was no JSON array
  /// failed the run after its store had committed, and one that could not be read was taken for none.
  /// The service principals file already holds the input's service principal with another secret (the user signed
  /// it in again with Azure CLI 2.30+): the file's is kept, and the input's is named on standard error, by the
  /// two secrets' fingerprints, not counted as "already there". Status 0: a stated policy, nothing unsaid.
  @Test func aServicePrincipalHeldWithAnotherSecretIsKeptAndTheInputsNamed() throws {
    let scratch = try Fixtures.temporaryDirectory("azure-cli-other-secret")
    defer { try? FileManager.default.removeItem(at: scratch) }
    let azure = scratch.appendingPathComponent("azure")
    try FileManager.default.createDirectory(at: azure, withIntermediateDirectories: true)
    let principals = azure.appendingPathComponent("service_principal_entries.json")
    let existing =
      #"[{"client_id": "55555555-5555-4555-8555-555555555555", "#
      + #""tenant": "11111111-1111-4111-8111-111111111111", "client_secret": "rotated-secret"}]"#
    try Data(existing.utf8).write(to: principals)
    let out = scratch.appendingPathComponent("cache.sqlite").path
    for quiet in [false, true] {
      try? FileManager.default.removeItem(atPath: out)
      try? FileManager.default.removeItem(at: azure.appendingPathComponent("msal_token_cache.json"))
      let run = try CLI.run(
        [
          "migrate", "--adal", Self.fixture.path, "--out", out, "--now", "2099-11-20T09:30:00Z", "--azure-cli-dir",
          azure.path,
        ] + (quiet ? ["-q"] : []))
      #expect(run.exitCode == 0, "\(run.stderr.prefix(600))")
      #expect(
        run.stderr.contains(
          "adal2msal: \(Self.fixture.path), item 4: warning: service principal 55555555-5555-4555-8555-555555555555 "
            + "in 11111111-1111-4111-8111-111111111111: secret \(ADALSecret("fake-client-secret-sp").fingerprint) "
            + "left out: service_principal_entries.json already holds secret "
            + "\(ADALSecret("rotated-secret").fingerprint) for it"), "\(run.stderr)")
      #expect(
        quiet
          || run.stderr.contains(
            "(service principal(s) of the inputs: 55555555-5555-4555-8555-555555555555; 0 added, 0 already there, "
              + "1 left out for another credential (named above))\n"),
        "\(run.stderr)")
      #expect(!run.stderr.contains("fake-client-secret-sp") && !run.stderr.contains("rotated-secret"))
      #expect(try String(contentsOf: principals, encoding: .utf8).contains(#""client_secret":"rotated-secret""#))
    }
  }

  /// `--adal ~/.azure`: Azure CLI's configuration directory holds its settings, subscriptions, command index,
  /// extensions and logs beside its token cache. They are passed over with a note (`input.azure-cli-file`), status
  /// 0, and the store is the one the token cache gives named alone. A token cache of Azure CLI's that cannot be read
  /// stays a skip (2); without `azureProfile.json` the same files are strays of a fleet, each skipped (2). `import`
  /// passes them over too.
  @Test func azureCLIsConfigurationDirectoryGivesItsTokenCacheAndPassesOverTheRest() throws {
    let scratch = try Fixtures.temporaryDirectory("azure-cli-config")
    defer { try? FileManager.default.removeItem(at: scratch) }
    let azure = scratch.appendingPathComponent("dot-azure")
    let others = [
      "config": "[cloud]\nname = AzureCloud\n", "commandIndex.json": #"{"version": "2.29.0", "index": {}}"#,
      "cliextensions/ext/setup.py": "from setuptools import setup\n", "logs/az.log": "command ran\n",
    ]
    for (name, text) in others {
      let file = azure.appendingPathComponent(name)
      try FileManager.default.createDirectory(
        at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data(text.utf8).write(to: file)
    }
    try FileManager.default.copyItem(at: Self.fixture, to: azure.appendingPathComponent("accessTokens.json"))
    let profile = azure.appendingPathComponent("azureProfile.json")
    try FileManager.default.copyItem(at: Fixtures.url("azure-cli/azureProfile.json"), to: profile)
    func migrate(_ input: String, _ name: String) throws -> (run: ProcessRunner.Output, export: String) {
      let store = scratch.appendingPathComponent("\(name).sqlite").path
      let run = try CLI.run(["migrate", "--adal", input, "--out", store, "--now", "2099-11-20T09:30:00Z"])
      let export = FileManager.default.fileExists(atPath: store) ? try CLI.run(["export", store]).stdout : ""
      return (run, export)
    }
    let alone = try migrate(azure.appendingPathComponent("accessTokens.json").path, "alone")
    #expect(alone.run.exitCode == 0, "\(alone.run.stderr)")
    let directory = try migrate(azure.path, "directory")
    #expect(directory.run.exitCode == 0 && !directory.run.stderr.contains("skipped:"), "\(directory.run.stderr)")
    #expect(directory.export == alone.export && directory.export.contains("RefreshToken"))
    let notes = directory.run.stderr.split(separator: "\n").filter { $0.hasSuffix("[input.azure-cli-file]") }
    #expect(notes.count == 4, "\(directory.run.stderr)")  // three, then "2 more like the notes above"
    #expect(
      notes.first?.contains(
        "note: not read: a file of Azure CLI's configuration directory \(azure.path) (its settings, subscriptions, "
          + "command index, extensions or logs), no token cache") == true, "\(directory.run.stderr)")

    let broken = azure.appendingPathComponent("accessTokens-old.json")
    try Data("[{".utf8).write(to: broken)
    let withBroken = try migrate(azure.path, "with-broken")
    #expect(withBroken.run.exitCode == 2, "\(withBroken.run.stderr)")
    #expect(withBroken.run.stderr.contains("adal2msal: warning: \(broken.path): skipped: "), "\(withBroken.run.stderr)")
    try FileManager.default.removeItem(at: broken)

    try FileManager.default.copyItem(
      at: Fixtures.url("msal-json/msal-python-real_lifecycle.json"),
      to: azure.appendingPathComponent("msal_token_cache.json"))
    let imported = try CLI.run(["import", azure.path, "--out", scratch.appendingPathComponent("i.sqlite").path])
    let skips = imported.stderr.split(separator: "\n").filter { $0.contains("[input.file-skipped]") }
    #expect(imported.exitCode == 2 && skips.count == 1, "\(imported.stderr)")  // the ADAL accessTokens.json
    #expect(skips.first?.contains("accessTokens.json") == true && imported.stderr.contains("[input.azure-cli-file]"))
    try FileManager.default.removeItem(at: azure.appendingPathComponent("msal_token_cache.json"))

    try FileManager.default.removeItem(at: profile)
    let noProfile = try migrate(azure.path, "no-profile")
    #expect(noProfile.run.exitCode == 2 && !noProfile.run.stderr.contains("[input.azure-cli-file]"))
    for name in others.keys {
      #expect(
        noProfile.run.stderr.contains("adal2msal: warning: \(azure.appendingPathComponent(name).path): skipped: "),
        "\(name): \(noProfile.run.stderr)")
    }
  }

  @Test func aServicePrincipalsFileThatCannotBeMergedIsRefusedBeforeTheStore() throws {
    let scratch = try Fixtures.temporaryDirectory("azure-cli-refused")
    defer { try? FileManager.default.removeItem(at: scratch) }
    let azure = scratch.appendingPathComponent("azure")
    let principals = azure.appendingPathComponent("service_principal_entries.json")
    let out = scratch.appendingPathComponent("cache.sqlite").path
    let cases: [(name: String, make: () throws -> Void, expected: String)] = [
      ("not JSON", { try Data("garbage".utf8).write(to: principals) }, "is not valid JSON (at byte 0)"),
      ("an object", { try Data("{}".utf8).write(to: principals) }, "is not a JSON array"),
      ("a FIFO", { #expect(mkfifo(principals.path, 0o600) == 0) }, "is a FIFO (named pipe), not a regular file"),
      (
        "a directory", { try FileManager.default.createDirectory(at: principals, withIntermediateDirectories: true) },
        "is a directory, not a regular file"
      ),
    ]
    for (name, make, expected) in cases {
      try? FileManager.default.removeItem(at: azure)
      try FileManager.default.createDirectory(at: azure, withIntermediateDirectories: true)
      try make()
      let before = try FileManager.default.attributesOfItem(atPath: principals.path)[.modificationDate] as? Date
      let run = try CLI.run(["migrate", "--adal", Self.fixture.path, "--out", out, "--azure-cli-dir", azure.path])
      #expect(run.exitCode == 64 && !run.timedOut, "\(name): \(run.exitCode) \(run.stderr.prefix(600))")
      #expect(run.stderr.contains(principals.path) && run.stderr.contains(expected), "\(name): \(run.stderr)")
      #expect(!FileManager.default.fileExists(atPath: out), "\(name): a store was left")
      #expect(!FileManager.default.fileExists(atPath: azure.appendingPathComponent("msal_token_cache.json").path))
      let after = try FileManager.default.attributesOfItem(atPath: principals.path)[.modificationDate] as? Date
      #expect(before == after, "\(name): the file was replaced")
    }
  }

  /// Azure CLI's files that cannot be written once the store has committed (a directory that takes no new
  /// file): the run says that its store was written, exits 2 (not 1, "nothing written"), and the store holds
  /// the run; the next run, with the directory writable, writes the files.
  @Test func filesThatCannotBeWrittenAfterTheStoreSayTheStoreWasWritten() throws {
    let scratch = try Fixtures.temporaryDirectory("azure-cli-after-commit")
    defer { try? FileManager.default.removeItem(at: scratch) }
    let azure = scratch.appendingPathComponent("azure")
    try FileManager.default.createDirectory(at: azure, withIntermediateDirectories: true)
    let out = scratch.appendingPathComponent("cache.sqlite").path
    let arguments = ["migrate", "--adal", Self.fixture.path, "--out", out, "--azure-cli-dir", azure.path, "-q"]
    let undo = try #require(Faults.makeReadOnly(azure), "cannot make a directory read-only here")
    let run = try CLI.run(arguments)
    undo()
    #expect(run.exitCode == 2, "\(run.exitCode): \(run.stderr.prefix(600))")
    let tokenCache = azure.appendingPathComponent("msal_token_cache.json").path
    #expect(
      run.stderr.hasPrefix(
        "adal2msal: error: run 1 was written to \(out), but \(tokenCache): cannot write an Azure CLI file ("),
      "\(run.stderr)")
    let accounts = try CLI.run(["accounts", out])
    #expect(accounts.exitCode == 0 && accounts.stdout.split(separator: "\n").count == 3, "\(accounts.stdout)")
    let again = try CLI.run(arguments)
    #expect(again.exitCode == 0, "\(again.stderr.prefix(600))")
    #expect(FileManager.default.fileExists(atPath: azure.appendingPathComponent("msal_token_cache.json").path))
  }

  /// A directory named relative to the working directory (`.`, `./dir`): a file to skip in it crashed the run
  /// (Foundation traps on `deletingLastPathComponent` of `.`, which the search for Azure CLI's directory reached).
  @Test("a directory given as . or ./dir: its stray file skipped, or passed over in Azure CLI's directory")
  func relativeDirectoriesAreWalkedWithoutCrashing() throws {
    let scratch = try Fixtures.temporaryDirectory("relative-dirs")
    defer { try? FileManager.default.removeItem(at: scratch) }
    let fleet = scratch.appendingPathComponent("fleet")
    try FileManager.default.createDirectory(at: fleet, withIntermediateDirectories: true)
    try FileManager.default.copyItem(
      at: Fixtures.url("scenarios/single-user-mrrt-at/adal.xml.plist"), to: fleet.appendingPathComponent("a.plist"))
    try Data("hello\n".utf8).write(to: fleet.appendingPathComponent("junk.txt"))
    let out = scratch.appendingPathComponent("s.sqlite").path
    // With `--msal` and `import`, neither file is an MSAL cache: nothing usable, 1.
    let runs: [(arguments: [String], in: URL, status: Int32)] = [
      (["migrate", "--adal", "./fleet", "--dry-run"], scratch, 2), (["migrate", "--adal", ".", "--dry-run"], fleet, 2),
      (["migrate", "--msal", "./fleet", "--dry-run"], scratch, 1), (["import", "./fleet", "--out", out], scratch, 1),
    ]
    for run in runs {
      let output = try CLI.run(run.arguments, in: run.in)
      #expect(!output.terminatedBySignal && output.exitCode == run.status, "\(run.arguments): \(output.stderr)")
      #expect(output.stderr.contains("junk.txt"), "\(run.arguments): \(output.stderr)")
    }

    let azure = scratch.appendingPathComponent("dot-azure")
    try FileManager.default.createDirectory(at: azure, withIntermediateDirectories: true)
    try FileManager.default.copyItem(at: Self.fixture, to: azure.appendingPathComponent("accessTokens.json"))
    try FileManager.default.copyItem(
      at: Fixtures.url("azure-cli/azureProfile.json"), to: azure.appendingPathComponent("azureProfile.json"))
    try Data("[cloud]\nname = AzureCloud\n".utf8).write(to: azure.appendingPathComponent("config"))
    for (input, directory) in [(".", azure), ("./dot-azure", scratch)] {
      let output = try CLI.run(
        ["migrate", "--adal", input, "--dry-run", "--now", "2099-11-20T09:30:00Z"], in: directory)
      #expect(output.exitCode == 0, "\(input): \(output.stderr)")
      #expect(
        output.stderr.contains("configuration directory \(azure.path) ")
          && output.stderr.contains("[input.azure-cli-file]"),
        "\(input): \(output.stderr)")
    }
  }
}
