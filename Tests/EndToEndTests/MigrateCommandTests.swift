import Foundation
import Testing
import _Adal2MSALTestSupport

/// `adal2msal migrate` run as a user runs it: the built binary on the bundled multi-user dump.
@Suite(.serialized) struct MigrateCommandTests {
  static let dump = Fixtures.url("adal/dump-multiuser.xml.plist").path
  static let now = "2026-11-21T00:00:00Z"
  /// Home account ids the fixture's users must end up with (Fixtures/adal/README.md): Alice by the derived
  /// oid.tid rule, Bob and Dave by their archived homeAccountId.
  static let expectedAccounts = [
    "alice@contoso.com": "a11ce000-0000-4000-8000-00000000a11c.72f988bf-86f1-41af-91ab-2d7cd011db47",
    "bob@fabrikam.com": "b0b00000-0000-4000-8000-000000000b0b.f645ad92-e38d-4d1a-b510-d1b09a74a8ca",
  ]

  func adal2msal(_ arguments: [String]) throws -> ProcessRunner.Output {
    let binary = try #require(BuiltProducts.url("adal2msal"), "adal2msal not built: run swift build --build-tests")
    return try ProcessRunner.run(binary, arguments: arguments, environment: ["NO_COLOR": "1", "PATH": "/usr/bin:/bin"])
  }

  func reportSummary(_ json: String) throws -> [String: Int] {
    let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    let summary = try #require(object["summary"] as? [String: Any])
    return try #require(summary["actions"] as? [String: Int])
  }

  /// What a person reads: a run that writes prints the summary on standard error and no report; a dry run
  /// (without a store) prints the report on standard output; `--quiet` leaves the warning only.
  @Test func theTerminalGetsTheSummaryAndTheReportGoesWhereItIsAsked() throws {
    let dir = try Fixtures.temporaryDirectory()
    let store = dir.appendingPathComponent("cache.sqlite").path
    let written = try adal2msal(["migrate", "--adal", Self.dump, "--out", store, "--now", Self.now])
    #expect(written.exitCode == 2 && written.stdout.isEmpty, "\(written.stdout.prefix(200))")
    for line in [
      // The conflict is a merge, as the closing line counts it: the dump's MSAL item of that key is kept.
      "adal2msal: planned: 14 to add, 0 to update, 0 unchanged, 1 in conflict (1 of them merged into the entry kept "
        + "for their key), 7 skipped",
      "1 merged, 7 skipped by policy, 1 not read or not modelled, 0 in conflict,",
      "adal.expired-access-token 3", "adal2msal: 1 user(s) with problems:",
      "  (no username): 1 (identity.adfs-no-id-token)", "adal2msal: full report: not written",
      "adal2msal: wrote run 1 to \(store): 14 added, 0 updated",
    ] {
      #expect(written.stderr.contains(line), "no `\(line)` in:\n\(written.stderr)")
    }

    let dry = try adal2msal(["migrate", "--adal", Self.dump, "--dry-run", "--now", Self.now])
    #expect(dry.exitCode == 2)
    #expect(dry.stdout.hasPrefix("adal2msal migration plan\n"), "\(dry.stderr)")
    #expect(dry.stderr.contains("adal2msal: full report: standard output"))
    let reportFile = dir.appendingPathComponent("report.txt").path
    let toFile = try adal2msal([
      "migrate", "--adal", Self.dump, "--dry-run", "--now", Self.now, "--report", reportFile,
    ])
    #expect(toFile.stdout.isEmpty && toFile.stderr.contains("adal2msal: full report: \(reportFile)"))
    #expect(try String(contentsOfFile: reportFile, encoding: .utf8) == dry.stdout)
    let printed = try adal2msal(["migrate", "--adal", Self.dump, "--out", store, "--now", Self.now, "--report", "-"])
    #expect(printed.stdout.hasPrefix("adal2msal migration plan\n"))

    let quiet = try adal2msal(["migrate", "--adal", Self.dump, "--out", store, "--now", Self.now, "--quiet"])
    let lines = quiet.stderr.split(separator: "\n")
    #expect(quiet.exitCode == 2 && quiet.stdout.isEmpty)
    #expect(lines.count == 1 && lines[0].hasPrefix("adal2msal: warning: 1 problem(s)"), "\(quiet.stderr)")
    let noStore = try adal2msal(["migrate", "--adal", Self.dump])
    #expect(noStore.exitCode == 64 && noStore.stderr.contains("--dry-run to plan against an empty cache"))
  }

  @Test func migrateThenLookUpThenExportThenMSALPythonReadsIt() throws {
    let dir = try Fixtures.temporaryDirectory()
    let store = dir.appendingPathComponent("cache.sqlite").path
    let migrate = try adal2msal([
      "migrate", "--adal", Self.dump, "--out", store, "--now", Self.now, "--report-format", "json", "--report", "-",
    ])
    // An ADFS user without an id token (no identity offline) makes it exit 2; its guest, tombstone and
    // expired access tokens are policy skips (docs/verdicts.md).
    #expect(migrate.exitCode == 2, "\(migrate.stderr)")
    let actions = try reportSummary(migrate.stdout)
    #expect((actions["add"] ?? 0) > 0)
    #expect(FileManager.default.fileExists(atPath: store))
    let mode = try FileManager.default.attributesOfItem(atPath: store)[.posixPermissions] as? Int
    #expect(mode == 0o600)

    for (username, homeAccountID) in Self.expectedAccounts {
      let accounts = try adal2msal(["accounts", store, "--username", username.uppercased(), "--format", "json"])
      #expect(accounts.exitCode == 0, "\(accounts.stderr)")
      let rows = try #require(try JSONSerialization.jsonObject(with: Data(accounts.stdout.utf8)) as? [[String: Any]])
      #expect(rows.contains { ($0["home_account_id"] as? String) == homeAccountID }, "\(accounts.stdout)")
    }

    let exported = dir.appendingPathComponent("export.json").path
    let export = try adal2msal(["export", store, "--output", exported])
    #expect(export.exitCode == 0, "\(export.stderr)")
    let expectations = try JSONSerialization.data(withJSONObject: Self.expectedAccounts)
    let oracle = try MSALPythonOracle.check(
      cache: URL(fileURLWithPath: exported), expectations: String(decoding: expectations, as: UTF8.self))
    #expect(oracle.exitCode == 0, "MSAL Python could not use the export: \(oracle.stdout) \(oracle.stderr)")
  }

  @Test func aSecondMigrateChangesNothing() throws {
    let dir = try Fixtures.temporaryDirectory()
    let store = dir.appendingPathComponent("cache.sqlite").path
    let first = try adal2msal([
      "migrate", "--adal", Self.dump, "--out", store, "--now", Self.now, "--report-format", "json", "--report", "-",
    ])
    #expect(first.exitCode == 2)
    let second = try adal2msal([
      "migrate", "--adal", Self.dump, "--out", store, "--now", Self.now, "--report-format", "json", "--report", "-",
    ])
    let actions = try reportSummary(second.stdout)
    #expect(actions["add"] == 0 && actions["update"] == 0, "\(actions)")
    #expect((actions["unchanged"] ?? 0) > 0)
  }

  /// ADAL before 2.7 archives no `cachedAt`, and the keychain item of a single archive no `mdat`: its access token is
  /// cached at the clock's time by the first run. A run again later (the token not yet expired) keeps that time:
  /// every entry unchanged, none in conflict, nothing rewritten with `--prefer adal`.
  @Test func aLaterRunOverAnADAL1DumpChangesNothing() throws {
    let dir = try Fixtures.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let store = dir.appendingPathComponent("cache.sqlite").path
    let dump = Fixtures.url("adal/archive-e1-at.bplist").path
    let first = try adal2msal(["migrate", "--adal", dump, "--out", store, "--now", "2016-03-28T10:00:00Z", "-q"])
    #expect(first.exitCode == 0, "\(first.stderr)")
    for prefer in ["existing", "adal"] {
      let again = try adal2msal([
        "migrate", "--adal", dump, "--out", store, "--now", "2016-03-28T11:00:00Z", "--prefer", prefer,
        "--report-format", "json", "--report", "-",
      ])
      let actions = try reportSummary(again.stdout)
      #expect(again.exitCode == 0, "\(again.stderr)")
      #expect(actions["add"] == 0 && actions["update"] == 0 && actions["conflict"] == 0, "\(prefer): \(actions)")
      #expect((actions["unchanged"] ?? 0) >= 3, "\(prefer): \(actions)")
    }
  }

  /// ADAL Python writes `expiresOn` with microseconds, some of which come back from the store a few hundred
  /// nanoseconds off: a run again over the same `accessTokens.json` (the real `adal` package's, its expiries given
  /// such fractions) finds every entry unchanged, none in conflict, nothing rewritten with `--prefer adal`.
  @Test func aLaterRunOverAnADALPythonCacheChangesNothing() throws {
    let dir = try Fixtures.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let store = dir.appendingPathComponent("cache.sqlite").path
    let cache = dir.appendingPathComponent("accessTokens.json")
    var entries = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: Fixtures.url("adal-python/accessTokens.json")))
        as? [[String: Any]])
    // Expiries the real package wrote (`expiresOn` of tokens it cached at 21:28:19.711193 and 21:28:19.107977).
    let expiries = ["2026-12-07 22:28:19.711193", "2026-12-07 22:28:19.107977"]
    for index in entries.indices where entries[index]["expiresOn"] != nil {
      entries[index]["expiresOn"] = expiries[index % expiries.count]
    }
    try JSONSerialization.data(withJSONObject: entries).write(to: cache)
    let first = try adal2msal(["migrate", "--adal", cache.path, "--out", store, "--now", "2026-12-07T21:30:00Z", "-q"])
    #expect(first.exitCode == 0, "\(first.stderr)")
    for prefer in ["existing", "adal"] {
      let again = try adal2msal([
        "migrate", "--adal", cache.path, "--out", store, "--now", "2026-12-07T21:40:00Z", "--prefer", prefer,
        "--report-format", "json", "--report", "-",
      ])
      let actions = try reportSummary(again.stdout)
      #expect(again.exitCode == 0, "\(again.stderr)")
      #expect(actions["add"] == 0 && actions["update"] == 0 && actions["conflict"] == 0, "\(prefer): \(actions)")
    }
  }

  /// `--for python` over an ADAL refresh token beside MSAL Python's family token of the same client: the store
  /// holds both, the export for MSAL Python will hold one. The terminal names it as the report does (status 0:
  /// the store lost nothing), so that nobody learns of it only from the export's status 2.
  @Test func theTerminalNamesWhatTheExportForTheLibraryWillLeaveOut() throws {
    let dir = try Fixtures.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let run = try adal2msal([
      "migrate", "--adal", Fixtures.url("adal-python/merge-msal-python-lifecycle/accessTokens.json").path,
      "--msal", Fixtures.url("msal-json/msal-python-real_lifecycle.json").path, "--for", "python",
      "--out", dir.appendingPathComponent("cache.sqlite").path, "--now", "2026-09-21T14:00:00Z",
    ])
    #expect(run.exitCode == 0, "\(run.stderr)")
    #expect(run.stderr.contains("left out the app refresh token"), "\(run.stderr)")
    #expect(run.stderr.contains("[export.same-key]"))
    #expect(
      run.stderr.contains(
        "adal2msal: warning: export --for python will leave out 1 entry(ies) of the store (named above)"))
  }

  @Test func aDryRunCreatesNothing() throws {
    let dir = try Fixtures.temporaryDirectory()
    let store = dir.appendingPathComponent("never.sqlite").path
    let run = try adal2msal(["migrate", "--adal", Self.dump, "--out", store, "--dry-run", "--now", Self.now])
    #expect(run.exitCode == 2)
    #expect(run.stdout.contains("adal2msal migration plan"))
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty)
  }

  @Test func aDryRunLeavesAnExistingStoreByteForByte() throws {
    let dir = try Fixtures.temporaryDirectory()
    let store = dir.appendingPathComponent("cache.sqlite").path
    let seed = Fixtures.url("msal-json/msal-dotnet_token_cache_one_acc_seed.json").path
    #expect(try adal2msal(["import", seed, "--out", store]).exitCode == 0)
    try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: store)
    let before = try snapshot(dir)
    let run = try adal2msal(["migrate", "--adal", Self.dump, "--out", store, "--dry-run", "--now", Self.now])
    #expect(run.exitCode == 2, "\(run.stderr)")
    #expect(try snapshot(dir) == before)
  }

  @Test func strictFailsAndWritesNothingWhenItemsAreSkipped() throws {
    let dir = try Fixtures.temporaryDirectory()
    let store = dir.appendingPathComponent("cache.sqlite").path
    let run = try adal2msal(["migrate", "--adal", Self.dump, "--out", store, "--now", Self.now, "--strict"])
    #expect(run.exitCode == 1)
    #expect(run.stderr.contains("--strict"))
    let size = (try? FileManager.default.attributesOfItem(atPath: store)[.size] as? Int) ?? 0
    if FileManager.default.fileExists(atPath: store) {
      // The store may have been created empty (schema only), but it holds no account.
      let accounts = try adal2msal(["accounts", store, "--format", "json"])
      #expect(accounts.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "[]", "size \(size)")
    }
  }

  @Test func aDirectoryOfDumpsGivesTheSameReportInAnyOrder() throws {
    let dir = try Fixtures.temporaryDirectory()
    let forward = dir.appendingPathComponent("a")
    let backward = dir.appendingPathComponent("b")
    let names = ["dump-multiuser.xml.plist", "archive-e4-at.bplist", "macos-blob.bplist", "archive-e3-frt.bplist"]
    for (folder, order) in [(forward, names), (backward, Array(names.reversed()))] {
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      for (index, name) in order.enumerated() {
        // Same files, different names: the directory order differs, the content is the same.
        let target = folder.appendingPathComponent("\(index)-\(name)")
        try FileManager.default.copyItem(at: Fixtures.url("adal/\(name)"), to: target)
      }
    }
    let one = try adal2msal([
      "migrate", "--adal", forward.path, "--out", dir.appendingPathComponent("1.sqlite").path, "--dry-run", "--now",
      Self.now, "--report-format", "json",
    ])
    let two = try adal2msal([
      "migrate", "--adal", backward.path, "--out", dir.appendingPathComponent("2.sqlite").path, "--dry-run", "--now",
      Self.now, "--report-format", "json",
    ])
    #expect(one.exitCode == two.exitCode)
    #expect(try reportSummary(one.stdout) == reportSummary(two.stdout))
  }

  /// The dump holds Bob's MSAL items too, with the client id in lowercase where his ADAL archives keep the app's
  /// uppercase spelling: a case difference in a key field is not a conflict, a different refresh token is.
  @Test func aClientIDThatDiffersOnlyInCaseIsNotAConflict() throws {
    let run = try adal2msal([
      "migrate", "--adal", Self.dump, "--out", "/nonexistent/x.sqlite", "--dry-run", "--now", Self.now,
      "--report-format", "json",
    ])
    let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
    let kinds = try #require((object["summary"] as? [String: Any])?["kinds"] as? [String: [String: Int]])
    #expect(kinds["AppMetadata"]?["conflict"] == 0)
    #expect(kinds["Account"]?["conflict"] == 0)
    #expect(kinds["RefreshToken"]?["conflict"] == 1)
    #expect(!run.stdout.contains("in client_id"))
  }

  /// The report of the demo dump, as the CLI prints it, in each format (Tests/EndToEndTests/Golden/).
  @Test(arguments: [("text", "txt"), ("json", "json"), ("markdown", "md")])
  func theDemoReportMatchesItsGoldenFile(_ format: String, _ ext: String) throws {
    // Relative to the repository, so the report (which names its inputs) is the same in any checkout.
    let binary = try #require(BuiltProducts.url("adal2msal"))
    let run = try ProcessRunner.run(
      binary,
      arguments: [
        "migrate", "--adal", "Fixtures/adal/dump-multiuser.xml.plist", "--out", "/nonexistent/x.sqlite", "--dry-run",
        "--now", Self.now, "--report-format", format,
      ],
      environment: ["NO_COLOR": "1"], currentDirectory: Fixtures.repositoryRoot)
    #expect(run.exitCode == 2)
    switch try Golden.compare(run.stdout, testTarget: "EndToEndTests", name: "demo-report.\(ext)") {
    case .matches: break
    case .recorded(let path): Issue.record("recorded \(path): review it and run again")
    case .differs(_, _, let path):
      Issue.record("the \(format) report differs from \(path) (RECORD_GOLDEN=1 rewrites it)")
    }
  }

  /// `--now` pins every expiry decision: an offset is honoured, and a time a formatter would read leniently (text
  /// after it, a day the month lacks) is a usage error, not some other moment.
  @Test func nowIsReadStrictly() throws {
    let dir = try Fixtures.temporaryDirectory()
    var reports: [String] = []
    for now in ["2026-11-21T10:00:00Z", "2026-11-21T11:00:00+01:00", "2026-11-21T05:30:00-0430", "1795255200"] {
      let report = dir.appendingPathComponent("report-\(reports.count).txt").path
      let run = try adal2msal(["migrate", "--adal", Self.dump, "--dry-run", "--now", now, "--report", report, "-q"])
      #expect(run.exitCode != 64, "\(run.stderr)")
      reports.append(try String(contentsOfFile: report, encoding: .utf8))
    }
    #expect(reports.count == 4 && Set(reports).count == 1)
    for now in ["2026-11-21T10:00:00Zjunk", "2026-02-30T10:00:00Z", "2026-11-21T10:00:00", "1e300", "0x10"] {
      let run = try adal2msal(["migrate", "--adal", Self.dump, "--dry-run", "--now", now])
      #expect(run.exitCode == 64 && run.stderr.contains("--now: '\(now)' is neither ISO 8601"), "\(run.stderr)")
      #expect(run.stderr.contains("\nUsage: adal2msal migrate <options>\n"), "migrate's usage: \(run.stderr)")
      #expect(run.stdout.isEmpty)
    }
  }

  /// A family refresh token is keyed by the client id as given: one with a pasted space or a line break would be
  /// written where no MSAL library looks, so such an id is a usage error. An id of another shape (ADFS allows
  /// any string) is taken.
  @Test func clientIDWithSpacesIsAUsageError() throws {
    let frtOnly = Fixtures.url("scenarios/frt-only-no-client/adal.xml.plist").path
    for clientID in ["", " 4b0db8c2-9f26-4417-8bde-3f0e3656f8e0", "4b0db8c2 9f26", "app\n", "app\u{1B}[31m"] {
      let run = try adal2msal(["migrate", "--adal", frtOnly, "--dry-run", "--client-id", clientID])
      #expect(run.exitCode == 64, "\(clientID.debugDescription): \(run.stderr)")
      #expect(run.stderr.contains("is no application id: it is empty or holds a space or control character"))
      #expect(!run.stderr.contains("\u{1B}"), "a control character is shown escaped: \(run.stderr)")
      #expect(run.stderr.contains("\nUsage: adal2msal migrate <options>\n"), "migrate's usage: \(run.stderr)")
      #expect(run.stdout.isEmpty)
    }
    for clientID in ["4b0db8c2-9f26-4417-8bde-3f0e3656f8e0", "https://contoso.com/app"] {
      let run = try adal2msal(["migrate", "--adal", frtOnly, "--dry-run", "--client-id", clientID, "--report", "-"])
      #expect(run.exitCode == 0, "\(clientID): \(run.stderr)")
      #expect(run.stdout.contains("RefreshToken  client \(clientID), family 1"), "\(run.stdout)")
    }
  }

  @Test func usageErrorsExit64() throws {
    let run = try adal2msal(["migrate", "--out", "/tmp/x.sqlite"])
    #expect(run.exitCode == 64)
    #expect(run.stderr.contains("at least one input"))
  }

  /// A negative number is the value of the option before it, and gets that option's own error; earlier it was
  /// taken for an option, and the error said the value was missing.
  @Test(arguments: [
    ("--max-input-size", "-5", "--max-input-size must be positive"),
    ("--items-per-part", "-1", "--items-per-part must be positive"),
    ("--plan-whole-up-to", "-1", "--plan-whole-up-to must not be negative"),
    ("--now", "-1e3", "--now: '-1e3' is neither ISO 8601"),
  ])
  func aNegativeNumberIsTheOptionsValue(option: String, value: String, error: String) throws {
    let run = try adal2msal(["migrate", "--adal", Self.dump, "--dry-run", option, value])
    #expect(run.exitCode == 64 && run.stderr.contains(error) && !run.stderr.contains("Missing value"), "\(run.stderr)")
  }

  @Test func anUnreadableInputIsOneLineAndWritesNothing() throws {
    let dir = try Fixtures.temporaryDirectory()
    let bad = dir.appendingPathComponent("garbage.plist")
    try Data("bplist00 truncated".utf8).write(to: bad)
    let store = dir.appendingPathComponent("cache.sqlite").path
    let run = try adal2msal(["migrate", "--adal", bad.path, "--out", store])
    #expect(run.exitCode == 1)
    let lines = run.stderr.split(separator: "\n")
    #expect(
      lines.count == 1 && lines[0].hasPrefix("adal2msal: error: ") && lines[0].contains("garbage.plist"),
      "\(run.stderr)")
    #expect(!FileManager.default.fileExists(atPath: store))
  }

  /// Every file's bytes and mode in a directory.
  private func snapshot(_ dir: URL) throws -> [String: String] {
    var result: [String: String] = [:]
    for name in try FileManager.default.contentsOfDirectory(atPath: dir.path) {
      let path = dir.appendingPathComponent(name).path
      let attributes = try FileManager.default.attributesOfItem(atPath: path)
      let data = try Data(contentsOf: URL(fileURLWithPath: path))
      result[name] = "\(attributes[.posixPermissions] ?? "") \(data.hashValue) \(data.count)"
    }
    return result
  }
}
