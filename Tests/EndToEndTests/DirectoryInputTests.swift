import Adal2MSAL
import Foundation
import Testing
import _Adal2MSALTestSupport

/// A directory given as `--adal`: its subdirectories are read (dumps kept a folder per device), hidden entries
/// are named and not read, and a directory with no file to read is a warning, never an empty store unsaid.
@Suite struct DirectoryInputTests {
  static let clock = "2025-06-01T12:00:00Z"

  /// `fleet/device-1/keychain.plist`, `fleet/device-2/keychain.plist` and a Mac's `fleet/.DS_Store`.
  private struct Fleet {
    let scratch: URL
    var fleet: String { scratch.appendingPathComponent("fleet").path }
    var dumps: [String] { ["device-1", "device-2"].map { "\(fleet)/\($0)/keychain.plist" } }
    var dsStore: String { "\(fleet)/.DS_Store" }

    init() throws {
      scratch = try Fixtures.temporaryDirectory("directory-input")
      for (dump, scenario) in zip(dumps, ["guest-user", "expired-ats"]) {
        try FileManager.default.createDirectory(
          atPath: (dump as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
          atPath: Fixtures.url("scenarios/\(scenario)/adal.xml.plist").path, toPath: dump)
      }
      #expect(FileManager.default.createFile(atPath: dsStore, contents: Data("\0\0\0\u{1}Bud1".utf8)))
    }

    func store(_ name: String) -> String { scratch.appendingPathComponent(name).path }
  }

  @Test func aFleetKeptAFolderPerDeviceMigratesAsItsDumpsNamedOneByOne() throws {
    let fleet = try Fleet()
    defer { try? FileManager.default.removeItem(at: fleet.scratch) }
    let common = ["--now", Self.clock, "--report", "-", "--report-format", "json"]
    let byDirectory = try CLI.run(["migrate", "--adal", fleet.fleet, "--out", fleet.store("dir.sqlite")] + common)
    #expect(byDirectory.exitCode == 0, "\(byDirectory.stderr)")
    let note =
      "adal2msal: \(fleet.dsStore): note: not read: its name starts with \".\" (hidden); name it as an input to read "
      + "it [input.hidden-entry]"
    #expect(byDirectory.stderr.hasPrefix(note + "\n"), "\(byDirectory.stderr)")
    let report = try #require(
      JSONSerialization.jsonObject(with: Data(byDirectory.stdout.utf8)) as? [String: Any], "\(byDirectory.stdout)")
    let inputs = try #require(report["inputs"] as? [[String: Any]])
    #expect(inputs.compactMap { $0["path"] as? String } == fleet.dumps)
    let diagnostics = try #require(report["diagnostics"] as? [[String: Any]])
    let hidden = diagnostics.filter { $0["code"] as? String == "input.hidden-entry" }
    #expect(hidden.compactMap { ($0["location"] as? [String: Any])?["file"] as? String } == [fleet.dsStore])

    let named = try CLI.run(
      ["migrate", "--adal", fleet.dumps[0], "--adal", fleet.dumps[1], "--out", fleet.store("named.sqlite")] + common)
    #expect(named.exitCode == 0, "\(named.stderr)")
    for command in [["export"], ["accounts", "--format", "json"]] {
      let fromDirectory = try CLI.run(command + [fleet.store("dir.sqlite")])
      let fromFiles = try CLI.run(command + [fleet.store("named.sqlite")])
      #expect(fromDirectory.exitCode == 0, "\(fromDirectory.stderr)")
      #expect(fromDirectory.stdout.count > 100, "\(command): \(fromDirectory.stdout)")
      #expect(fromDirectory.stdout == fromFiles.stdout, "\(command)")
    }
    // A file of a subdirectory is an input like any other: no output may overwrite it.
    let before = try Data(contentsOf: URL(fileURLWithPath: fleet.dumps[1]))
    let clash = try CLI.run(["migrate", "--adal", fleet.fleet, "--dry-run", "--report", fleet.dumps[1]])
    #expect(
      CLI.contractViolations(clash, expected: ["--report \(fleet.dumps[1]) is the same file as the --adal input"])
        .isEmpty, "\(clash.stderr)")
    #expect(try Data(contentsOf: URL(fileURLWithPath: fleet.dumps[1])) == before)
    // --quiet leaves the notes out; the report keeps them.
    let quiet = try CLI.run(["migrate", "--adal", fleet.fleet, "--dry-run", "--quiet", "--now", Self.clock])
    #expect(quiet.exitCode == 0)
    #expect(quiet.stderr.isEmpty, "\(quiet.stderr)")
    #expect(quiet.stdout.contains("[input.hidden-entry]"), "\(quiet.stdout)")
  }

  /// A fleet copied from Macs has a `.DS_Store` in every folder: standard error names the first three and counts
  /// the rest, as every command prints its notes (`DiagnosticLines`), the report all of them.
  @Test func manyHiddenEntriesAreCountedOnStandardErrorAndNamedInTheReport() throws {
    let fleet = try Fleet()
    defer { try? FileManager.default.removeItem(at: fleet.scratch) }
    let folders = (3...9).map { "\(fleet.fleet)/device-\($0)" }
    for folder in folders {
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
      #expect(FileManager.default.createFile(atPath: "\(folder)/.DS_Store", contents: Data("Bud1".utf8)))
    }
    let run = try CLI.run([
      "migrate", "--adal", fleet.fleet, "--dry-run", "--now", Self.clock, "--report-format", "json",
    ])
    #expect(run.exitCode == 0, "\(run.stderr)")
    let hidden = ([fleet.dsStore] + folders.map { "\($0)/.DS_Store" }).sorted()
    let notes = run.stderr.split(separator: "\n").filter { $0.contains(": note: not read: ") }
    #expect(notes.map { String($0.dropFirst("adal2msal: ".count).prefix { $0 != ":" }) } == Array(hidden.prefix(3)))
    #expect(run.stderr.contains("adal2msal: note: 5 more like the notes above [input.hidden-entry]\n"))
    let report = try #require(JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
    let diagnostics = try #require(report["diagnostics"] as? [[String: Any]])
    let named = diagnostics.filter { $0["code"] as? String == "input.hidden-entry" }
    #expect(named.compactMap { ($0["location"] as? [String: Any])?["file"] as? String } == hidden)
  }

  /// `cd dumps && adal2msal migrate --adal . --out cache.sqlite`, run again: the store is the run's target, not
  /// an input (it was refused as "the same file as the --adal input", and as a store given as an input).
  @Test func aStoreKeptBesideItsDumpsIsTheTargetNotAnInput() throws {
    let fleet = try Fleet()
    defer { try? FileManager.default.removeItem(at: fleet.scratch) }
    let directory = URL(fileURLWithPath: fleet.fleet)
    let run = ["migrate", "--adal", ".", "--out", "cache.sqlite", "--now", Self.clock]
    let first = try CLI.run(run, in: directory)
    #expect(first.exitCode == 0, "\(first.stderr)")
    #expect(first.stderr.contains("wrote run 1 to cache.sqlite: 5 added, 0 updated"), "\(first.stderr)")
    let again = try CLI.run(run + ["--report", "-", "--report-format", "json"], in: directory)
    #expect(again.exitCode == 0, "\(again.stderr)")
    #expect(again.stderr.contains("wrote run 2 to cache.sqlite: 0 added, 0 updated"), "\(again.stderr)")
    #expect(!again.stderr.contains("input.run-file"), "named in the report only: \(again.stderr)")
    let report = try #require(JSONSerialization.jsonObject(with: Data(again.stdout.utf8)) as? [String: Any])
    let inputs = try #require(report["inputs"] as? [[String: Any]])
    #expect(inputs.compactMap { $0["path"] as? String } == ["./device-1/keychain.plist", "./device-2/keychain.plist"])
    let diagnostics = try #require(report["diagnostics"] as? [[String: Any]])
    let runFiles = diagnostics.filter { $0["code"] as? String == "input.run-file" }
    #expect(runFiles.compactMap { ($0["location"] as? [String: Any])?["file"] as? String } == ["./cache.sqlite"])
    // Named as an input, the store is still refused.
    let named = try CLI.run(["migrate", "--adal", "cache.sqlite", "--out", "cache.sqlite"], in: directory)
    #expect(CLI.contractViolations(named, expected: ["is the same file as the --adal input"]).isEmpty)
  }

  /// `cd dumps && adal2msal migrate --adal . --out cache.sqlite --report report.txt`, run again: the last run's
  /// report, in any format, is the run's output, not an input (it was refused as "the same file as the --adal
  /// input"). A file there that holds no report is still refused as `--report`: it may be a dump.
  @Test(arguments: ["text", "json", "markdown"])
  func aReportKeptBesideItsDumpsIsAnOutputNotAnInput(format: String) throws {
    let fleet = try Fleet()
    defer { try? FileManager.default.removeItem(at: fleet.scratch) }
    let directory = URL(fileURLWithPath: fleet.fleet)
    let run = [
      "migrate", "--adal", ".", "--out", "cache.sqlite", "--now", Self.clock, "--report", "report", "--report-format",
      format, "-q",
    ]
    let first = try CLI.run(run, in: directory)
    #expect(first.exitCode == 0 && first.stderr.isEmpty, "\(first.stderr)")
    let firstReport = try String(contentsOfFile: fleet.fleet + "/report", encoding: .utf8)
    let again = try CLI.run(run, in: directory)
    #expect(again.exitCode == 0 && again.stderr.isEmpty, "\(again.stderr)")
    let report = try String(contentsOfFile: fleet.fleet + "/report", encoding: .utf8)
    #expect(report != firstReport && report.contains("input.run-file") && report.contains("./report"))
    #expect(!report.contains("not a recognised ADAL input"), "the report was read as an input")

    try FileManager.default.copyItem(atPath: fleet.dumps[0], toPath: fleet.fleet + "/notes")
    let notes = try CLI.run(
      ["migrate", "--adal", ".", "--out", "cache.sqlite", "--report", "notes", "--report-format", format],
      in: directory)
    #expect(CLI.contractViolations(notes, expected: ["--report notes is the same file as the --adal input"]).isEmpty)
  }

  /// Azure CLI (2.29 and earlier) leaves `[]` in `accessTokens.json` when its last user signs out: an empty token
  /// cache, alone or in a fleet's folder, is nothing to migrate and nothing wrong (it was refused as "not a keychain
  /// dump": status 1 alone, a skipped file beside others).
  @Test func azureCLIsEmptyTokenCacheIsNoItemsNotAnUnknownFile() throws {
    let scratch = try Fixtures.temporaryDirectory("directory-input")
    defer { try? FileManager.default.removeItem(at: scratch) }
    let signedOut = scratch.appendingPathComponent("fleet/signed-out").path
    let signedIn = scratch.appendingPathComponent("fleet/signed-in").path
    for directory in [signedOut, signedIn] {
      try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
      try FileManager.default.copyItem(
        atPath: Fixtures.url("azure-cli/azureProfile.json").path, toPath: "\(directory)/azureProfile.json")
    }
    try Data("[]".utf8).write(to: URL(fileURLWithPath: "\(signedOut)/accessTokens.json"))
    try FileManager.default.copyItem(
      atPath: Fixtures.url("adal-python/accessTokens.json").path, toPath: "\(signedIn)/accessTokens.json")
    for input in [signedOut, "\(signedOut)/accessTokens.json", scratch.appendingPathComponent("fleet").path] {
      let run = try CLI.run([
        "migrate", "--adal", input, "--dry-run", "--now", "2099-11-20T09:30:00Z", "--adal-time-zone", "Europe/Berlin",
        "--report-format", "json",
      ])
      #expect(run.exitCode == 0, "\(input): \(run.stderr)")
      #expect(run.stdout.contains("adal.empty-cache"), "\(input)")
      #expect(!run.stderr.contains(": skipped:"), "\(input): \(run.stderr)")
    }
  }

  /// A file the run skipped in a directory (a FIFO) failed the Azure CLI step, which read the directory again,
  /// after the store was written: status 1, "nothing written", with the store written and no Azure CLI files.
  @Test func azureCLIFilesAreWrittenPastAFileTheRunSkipped() throws {
    let scratch = try Fixtures.temporaryDirectory("directory-input")
    defer { try? FileManager.default.removeItem(at: scratch) }
    let inputs = scratch.appendingPathComponent("azure").path
    let azure = scratch.appendingPathComponent("dot-azure").path
    for directory in [inputs, azure] {
      try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }
    try FileManager.default.copyItem(
      atPath: Fixtures.url("adal-python/accessTokens.json").path, toPath: "\(inputs)/accessTokens.json")
    #expect(mkfifo("\(inputs)/pipe", 0o600) == 0)
    let store = scratch.appendingPathComponent("cache.sqlite").path
    let run = try CLI.run([
      "migrate", "--adal", inputs, "--out", store, "--azure-cli-dir", azure, "--adal-time-zone", "UTC", "-q",
    ])
    #expect(!run.timedOut)
    #expect(run.exitCode == 2, "\(run.stderr)")
    #expect(run.stderr.hasPrefix("adal2msal: warning: \(inputs)/pipe: skipped: is a FIFO"), "\(run.stderr)")
    let cache = try Data(contentsOf: URL(fileURLWithPath: "\(azure)/msal_token_cache.json"))
    let sections = try #require(JSONSerialization.jsonObject(with: cache) as? [String: Any])
    #expect((sections["RefreshToken"] as? [String: Any])?.isEmpty == false)
    #expect(FileManager.default.fileExists(atPath: "\(azure)/service_principal_entries.json"))
  }

  /// `--msal DIR` reads a directory of MSAL caches as `--adal DIR` reads a fleet: a file there that is no unified
  /// cache (a note, an ADAL dump) is skipped and named, the run goes on and exits 2, and the store is the one of
  /// the caches named one by one. It refused the whole run (status 1) for the first such file.
  @Test func anMSALDirectorySkipsAFileThatIsNoUnifiedCache() async throws {
    let scratch = try Fixtures.temporaryDirectory("msal-directory")
    defer { try? FileManager.default.removeItem(at: scratch) }
    let caches = scratch.appendingPathComponent("caches").path
    let fixtures = ["msal-python-2019_via-msal-dotnet_cachecompat_python.json", "msal-python-real_lifecycle.json"]
    let named = ["\(caches)/a/cache.json", "\(caches)/b.json"]
    for (fixture, path) in zip(fixtures, named) {
      try FileManager.default.createDirectory(
        atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
      try FileManager.default.copyItem(atPath: Fixtures.url("msal-json/\(fixture)").path, toPath: path)
    }
    let skipped = ["\(caches)/c-dump.plist", "\(caches)/d-notes.txt"]
    try FileManager.default.copyItem(atPath: Fixtures.url("adal/dump-multiuser.xml.plist").path, toPath: skipped[0])
    #expect(FileManager.default.createFile(atPath: skipped[1], contents: Data("copied from the laptops\n".utf8)))
    func store(_ name: String) -> String { scratch.appendingPathComponent(name).path }

    let run = try CLI.run(["migrate", "--msal", caches, "--out", store("dir.sqlite"), "-q"])
    #expect(run.exitCode == 2, "\(run.stderr)")
    #expect(
      run.stderr.hasPrefix(
        "adal2msal: warning: \(skipped[0]): skipped: this is an ADAL input (keychain-plist-array), not an MSAL cache: "
          + "pass it with --adal\nadal2msal: warning: \(skipped[1]): skipped: offset 0, line 1:1: "), "\(run.stderr)")
    #expect(
      run.stderr.contains("(25 to add or update, 0 unchanged, 0 merged, 12 skipped by policy, ")
        && run.stderr.contains("2 files skipped"))
    let byName = try CLI.run(["migrate", "--msal"] + named + ["--out", store("named.sqlite"), "-q"])
    #expect(byName.exitCode == 0, "\(byName.stderr)")
    let fromDirectory = try CLI.run(["export", store("dir.sqlite")])
    #expect(fromDirectory.exitCode == 0 && fromDirectory.stdout.contains("\"RefreshToken\""))
    #expect(fromDirectory.stdout == (try CLI.run(["export", store("named.sqlite")])).stdout)

    let strict = try CLI.run(["migrate", "--msal", caches, "--out", store("strict.sqlite"), "--strict", "-q"])
    #expect(strict.exitCode == 1 && strict.stderr.contains("--strict: 2 problem(s)"), "\(strict.stderr)")
    // The counts say what the plan holds, beside "nothing written": they said "37 written" (12 of them expired access tokens).
    #expect(
      strict.stderr.contains("(25 to add or update, 0 unchanged, 0 merged, 12 skipped by policy, "), "\(strict.stderr)")
    #expect(!FileManager.default.fileExists(atPath: store("strict.sqlite")))
    let direct = try CLI.run(["migrate", "--msal", skipped[1], "--dry-run", "-q"])
    #expect(direct.exitCode == 1, "a file named directly ends the run: \(direct.stderr)")

    let outcome = try await MigrationRun(msal: [caches], store: store("lib.sqlite")).run()
    #expect(outcome.result == .partial)
    #expect(outcome.skippedFiles.map(\.path) == skipped)
    #expect(outcome.accounting.files.keys.sorted() == named.sorted())
  }

  /// A file of a directory that the other option names too (`--adal DIR --msal DIR/cache.json`, or both options
  /// given the directory) is read as that option's input and passed over in the directory, named in a note: it
  /// was also skipped there, "pass it with --msal", as if it had not been read, and the run exited 2.
  @Test func aFileTheOtherOptionReadsIsPassedOverNotSkipped() throws {
    let scratch = try Fixtures.temporaryDirectory("other-kind")
    defer { try? FileManager.default.removeItem(at: scratch) }
    let directory = scratch.appendingPathComponent("inputs").path
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    let (dump, cache) = ("\(directory)/device.plist", "\(directory)/msal.json")
    try FileManager.default.copyItem(atPath: Fixtures.url("scenarios/expired-ats/adal.xml.plist").path, toPath: dump)
    try FileManager.default.copyItem(
      atPath: Fixtures.url("msal-json/msal-python-real_lifecycle.json").path, toPath: cache)
    func store(_ name: String) -> String { scratch.appendingPathComponent(name).path }
    let common = ["--now", Self.clock, "--report-format", "json", "--report", "-"]
    let named = try CLI.run(["migrate", "--adal", dump, "--msal", cache, "--out", store("named.sqlite")] + common)
    #expect(named.exitCode == 0, "\(named.stderr)")
    let note = { (path: String, kind: String) in
      "adal2msal: \(path): note: not read as an \(kind == "MSAL" ? "ADAL" : "MSAL") file of the directory: it is an "
        + "\(kind) input of this run, read as such [input.read-as-other-kind]"
    }
    let cases: [(inputs: [String], notes: [String])] = [
      (["--adal", directory, "--msal", cache], [note(cache, "MSAL")]),
      (["--adal", dump, "--msal", directory], [note(dump, "ADAL")]),
      (["--adal", directory, "--msal", directory], [note(cache, "MSAL"), note(dump, "ADAL")]),
    ]
    for (number, (inputs, notes)) in cases.enumerated() {
      let run = try CLI.run(["migrate"] + inputs + ["--out", store("\(number).sqlite")] + common)
      #expect(run.exitCode == 0, "\(inputs): \(run.stderr)")
      for line in notes { #expect(run.stderr.contains(line + "\n"), "\(inputs): \(run.stderr)") }
      #expect(!run.stdout.contains("input.file-skipped") && run.stdout.contains("input.read-as-other-kind"))
      #expect(
        try CLI.run(["export", store("\(number).sqlite")]).stdout == CLI.run(["export", store("named.sqlite")]).stdout)
    }
    // Not given to the other option, it is a file the directory's reader cannot use: skipped and counted.
    let alone = try CLI.run(["migrate", "--adal", directory, "--dry-run", "-q", "--now", Self.clock])
    #expect(alone.exitCode == 2 && alone.stderr.contains("\(cache): skipped: "), "\(alone.stderr)")
  }

  @Test func aDirectoryWithNoFileToReadIsAWarningNotASilentEmptyStore() async throws {
    let fleet = try Fleet()
    defer { try? FileManager.default.removeItem(at: fleet.scratch) }
    let empty = fleet.scratch.appendingPathComponent("not-yet-copied").path
    try FileManager.default.createDirectory(atPath: "\(empty)/device-3", withIntermediateDirectories: true)
    let warning = "adal2msal: \(empty): warning: the directory holds no file to read [input.empty-directory]"
    for quiet in [[], ["--quiet"]] {
      let alone = try CLI.run(["migrate", "--adal", empty, "--dry-run", "--now", Self.clock] + quiet)
      #expect(alone.exitCode == 0, "nothing was lost: \(alone.stderr)")
      #expect(alone.stderr.hasPrefix(warning + "\n"), "\(alone.stderr)")
      #expect(alone.stdout.contains("[input.empty-directory]"), "\(alone.stdout)")
    }
    // A pipeline gets the same from the library, beside the fleet's note.
    let outcome = try await MigrationRun(adal: [fleet.fleet, empty], store: fleet.store("lib.sqlite")).run()
    #expect(outcome.result == .complete)
    #expect(outcome.inputDiagnostics.map { "\($0)" }.contains(String(warning.dropFirst("adal2msal: ".count))))
    #expect(outcome.inputDiagnostics.map(\.code) == ["input.hidden-entry", "input.empty-directory"])
    #expect(outcome.accounting.files.keys.sorted() == fleet.dumps)
  }

  /// A dump given by name besides its directory (and again) is read once: the store, the plan and the accounting
  /// are those of the fleet given once, and a warning names each repetition, under `--quiet` too. Read twice, it
  /// was counted as two files, its items each migrated twice over, and half of them "duplicates" of themselves.
  @Test func aDumpGivenAgainIsReadOnce() throws {
    let fleet = try Fleet()
    defer { try? FileManager.default.removeItem(at: fleet.scratch) }
    let common = ["--now", Self.clock, "--report-format", "json", "-q"]
    let once = try CLI.run(
      ["migrate", "--adal", fleet.fleet, "--out", fleet.store("once.sqlite"), "--report", fleet.store("once.json")]
        + common)
    #expect(once.exitCode == 0 && once.stderr.isEmpty, "\(once.stderr)")
    let again = try CLI.run(
      [
        "migrate", "--adal", fleet.fleet, "--adal", fleet.dumps[1], "--adal", fleet.fleet, "--out",
        fleet.store("again.sqlite"), "--report", fleet.store("again.json"),
      ] + common)
    #expect(again.exitCode == 0, "\(again.stderr)")
    let warnings = [fleet.dumps[1], fleet.dumps[0], fleet.dumps[1]].map {
      "adal2msal: \($0): warning: given again: read once [input.repeated-file]"
    }
    #expect(again.stderr == warnings.joined(separator: "\n") + "\n")
    #expect(
      try CLI.run(["export", fleet.store("again.sqlite")]).stdout
        == CLI.run(["export", fleet.store("once.sqlite")]).stdout)
    func report(_ name: String) throws -> [String: Any] {
      try #require(
        JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: fleet.store(name)))) as? [String: Any])
    }
    let (reportOnce, reportAgain) = (try report("once.json"), try report("again.json"))
    func canonical(_ value: Any?) throws -> Data {
      try JSONSerialization.data(withJSONObject: try #require(value), options: [.sortedKeys])
    }
    for key in ["summary", "inputs", "users"] {
      #expect(try canonical(reportAgain[key]) == canonical(reportOnce[key]), "\(key) differs")
    }
    let codes = (reportAgain["diagnostics"] as? [[String: Any]] ?? []).compactMap { $0["code"] as? String }
    #expect(codes.filter { $0 == "input.repeated-file" }.count == 3)
    #expect(codes.filter { $0 == "input.accounting" }.count == 2)
  }

  /// A file of a fleet whose name holds a line break and an escape sequence is named on one line of standard
  /// error, escaped: a name can neither forge a line of the run's own ("adal2msal: wrote run …") nor colour the
  /// terminal. Earlier the line break was written as it was.
  @Test func aFileNameCannotForgeALineOfStandardError() throws {
    let fleet = try Fleet()
    defer { try? FileManager.default.removeItem(at: fleet.scratch) }
    let name = "x\u{1B}[31m\nadal2msal: wrote run 9 to forged.sqlite: 1 added, 0 updated"
    #expect(FileManager.default.createFile(atPath: "\(fleet.fleet)/\(name)", contents: Data("x".utf8)))
    let run = try CLI.run(["migrate", "--adal", fleet.fleet, "--dry-run", "--now", Self.clock, "-q"])
    #expect(run.exitCode == 2, "\(run.stderr)")
    let lines = run.stderr.split(separator: "\n")
    #expect(!lines.contains { $0.hasPrefix("adal2msal: wrote run 9") }, "\(run.stderr)")
    #expect(!run.stderr.contains("\u{1B}"))
    #expect(
      lines.contains {
        $0.hasPrefix("adal2msal: warning: \(fleet.fleet)/x\\x1B[31m\\x0Aadal2msal: wrote run 9 to forged.sqlite")
      }, "\(run.stderr)")
  }

  /// A file of a fleet whose name is not UTF-8 is skipped, named with each byte that is not UTF-8 as `\xFF`,
  /// and counted (status 2); given as an argument, it ends the run naming it (status 1). Both said "no such
  /// file": the name was read with U+FFFD for each bad byte, which named no file. A link loop says so.
  @Test func aFileWhoseNameIsNotUTF8IsSkippedAndNamedEscaped() throws {
    let fleet = try Fleet()
    defer { try? FileManager.default.removeItem(at: fleet.scratch) }
    let contents = try Data(contentsOf: Fixtures.url("adal-python/accessTokens.json"))
    let raw = (Array("\(fleet.fleet)/cache".utf8) + [0xFF, 0xFE] + Array(".json".utf8)).map { CChar(bitPattern: $0) }
    let descriptor = open(raw + [0], O_WRONLY | O_CREAT | O_EXCL, 0o600)
    #expect(descriptor >= 0)
    #expect(contents.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) } == contents.count)
    close(descriptor)
    let shown = #"\#(fleet.fleet)/cache\xFF\xFE.json"#

    let run = try CLI.run(["migrate", "--adal", fleet.fleet, "--dry-run", "--now", Self.clock, "-q"])
    #expect(run.exitCode == 2, "\(run.stderr)")
    #expect(
      run.stderr.contains(
        "adal2msal: warning: \(shown): skipped: not read: a file whose name is not UTF-8 (each byte that is not is "
          + #"shown as \xHH); adal2msal reads only UTF-8 paths: rename it to read it"#), "\(run.stderr)")
    #expect(run.stderr.contains("1 files skipped"), "\(run.stderr)")

    // As an argument (through bash: `Process` takes only strings), to each command that reads an input.
    for command in [
      ["inspect"], ["migrate", "--dry-run", "--adal"], ["import", "--dry-run", "--out", fleet.store("i.sqlite")],
    ] {
      let direct = try ProcessRunner.run(
        URL(fileURLWithPath: "/bin/bash"),
        arguments: ["-c", #"exec "$0" "$@" "$(printf '%s\377\376.json' "$FLEET/cache")""#, CLI.binary.path] + command,
        environment: ["FLEET": fleet.fleet], timeout: CLI.hangTimeout)
      let violations = CLI.contractViolations(
        direct, expected: ["argument \(command.count + 1) is not UTF-8: \(shown) (each byte that is not is shown as"])
      #expect(violations.isEmpty, "\(command): \(violations)")
    }

    let loop = fleet.store("loop.json")
    try FileManager.default.createSymbolicLink(atPath: loop, withDestinationPath: loop)
    let looped = try CLI.run(["inspect", loop])
    #expect(
      CLI.contractViolations(looped, expected: ["\(loop): cannot read the file: Too many levels of symbolic links"])
        .isEmpty, "\(looped.stderr)")
  }
}
