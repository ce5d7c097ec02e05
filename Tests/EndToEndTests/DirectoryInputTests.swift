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

  /// A fleet copied from Macs has a `.DS_Store` in every folder: standard error names the first five, the report
  /// all of them.
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
    let notes = run.stderr.split(separator: "\n").filter { $0.contains("[input.hidden-entry]") }
    #expect(notes.map { String($0.dropFirst("adal2msal: ".count).prefix { $0 != ":" }) } == Array(hidden.prefix(5)))
    #expect(run.stderr.contains("adal2msal: note: and 3 more hidden entries not read (see the report)\n"))
    let report = try #require(JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
    let diagnostics = try #require(report["diagnostics"] as? [[String: Any]])
    let named = diagnostics.filter { $0["code"] as? String == "input.hidden-entry" }
    #expect(named.compactMap { ($0["location"] as? [String: Any])?["file"] as? String } == hidden)
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
    #expect(outcome.directoryDiagnostics.map { "\($0)" }.contains(String(warning.dropFirst("adal2msal: ".count))))
    #expect(outcome.directoryDiagnostics.map(\.code) == ["input.hidden-entry", "input.empty-directory"])
    #expect(outcome.accounting.files.keys.sorted() == fleet.dumps)
  }
}
