import Adal2MSALSynthetic
import Foundation
import Testing
import _Adal2MSALTestSupport

/// `migrate --for LIB`: the report names the library and shows each entry under the key that library will store
/// it at, and says beforehand what the export for it will leave out.
@Suite struct ReportTargetLibraryTests {
  static let dump = Fixtures.url("adal/dump-multiuser.xml.plist").path
  static let aliceFamilyPythonKey =
    "a11ce000-0000-4000-8000-00000000a11c.72f988bf-86f1-41af-91ab-2d7cd011db47-login.microsoftonline.com-refreshtoken-c1e8e3b2-7d4a-4f5e-9b6c-0a1b2c3d4e5f--"

  static func dryRun(_ extra: [String]) throws -> ProcessRunner.Output {
    let directory = try Fixtures.temporaryDirectory()
    return try CLI.run(
      [
        "migrate", "--adal", dump, "--out", directory.appendingPathComponent("none.sqlite").path, "--dry-run",
        "--now", "2026-11-21T00:00:00Z",
      ] + extra)
  }

  @Test func textReportShowsPythonKeysAndWhatTheExportLeavesOut() throws {
    let output = try Self.dryRun(["--for", "python"])
    #expect(output.stdout.contains("keys as MSAL Python stores them (--for python)"))
    #expect(output.stdout.contains("key:  " + Self.aliceFamilyPythonKey))
    #expect(output.stdout.components(separatedBy: "[export.same-key]").count - 1 == 3)
  }

  /// `--redact-usernames` hides the home account ids in a diagnostic's place as in its message: the export's
  /// `export.same-key` warnings and an MSAL cache's reader notes place an entry by its key, which starts with the
  /// id. Only the message was redacted, so every format showed the id in the place.
  @Test(arguments: ["text", "json", "markdown"])
  func aRedactedReportHidesTheIdsInADiagnosticsPlace(format: String) throws {
    let msal = Fixtures.url("msal-json/msal-python-2019_via-msal-dotnet_cachecompat_python.json").path
    let ids = ["a11ce000-0000-4000-8000-00000000a11c.72f988bf", "13dd2c19-84cd-416a-ae7d-49573e425619.26039cce"]
    let plain = try Self.dryRun(["--msal", msal, "--for", "python", "--report-format", format])
    let redacted = try Self.dryRun(
      ["--msal", msal, "--for", "python", "--report-format", format, "--redact-usernames"])
    #expect(plain.exitCode == 2 && redacted.exitCode == 2, "\(redacted.stderr)")
    for id in ids {
      #expect(plain.stdout.contains("RefreshToken.\(id)") || plain.stdout.contains("Account.\(id)"), "\(id)")
      #expect(!redacted.stdout.contains(id), "\(id) in the redacted \(format) report")
    }
    #expect(redacted.stdout.contains("RefreshToken.account-") && redacted.stdout.contains("Account.account-"))
  }

  @Test func jsonReportKeysAreTheLibrarys() throws {
    let output = try Self.dryRun(["--for", "go", "--report-format", "json"])
    let report = try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
    #expect(report["targetLibrary"] as? String == "go")
    let users = report["users"] as? [[String: Any]] ?? []
    let keys = users.flatMap { ($0["entries"] as? [[String: Any]] ?? []).compactMap { $0["key"] as? String } }
    #expect(keys.contains { $0.hasSuffix("-login.microsoftonline.com-refreshtoken-1") }, "\(keys)")
    #expect(!keys.contains { $0.hasSuffix("-refreshtoken-1--") })
  }

  @Test func withoutForTheReportShowsNoLibraryKeys() throws {
    let output = try Self.dryRun([])
    #expect(!output.stdout.contains("keys as "))
    #expect(!output.stdout.contains("key:  "))
    #expect(!output.stdout.contains("export.same-key"))
  }

  /// Synthetic devices, where ADAL stored each user's family and app refresh token as one token: the report and
  /// the export say so in notes, never a warning, and the export names the first three and counts the rest, so a
  /// fleet's store does not print a line per user.
  @Test func oneTokenKeyedTwiceIsANoteCountedOnStandardError() throws {
    let directory = try Fixtures.temporaryDirectory("same-token")
    defer { try? FileManager.default.removeItem(at: directory) }
    let dumps = directory.appendingPathComponent("dumps")
    try FileManager.default.createDirectory(at: dumps, withIntermediateDirectories: true)
    _ = try SyntheticFleet.writeFleet(
      devices: 4, minItems: 10, maxItems: 20, format: nil, seed: 7, directory: dumps, workers: 2)
    let store = directory.appendingPathComponent("cache.sqlite").path
    let report = directory.appendingPathComponent("report.txt")
    let migrate = try CLI.run([
      "migrate", "--adal", dumps.path, "--out", store, "--now", "2026-01-01T00:00:00Z", "--for", "python",
      "--report", report.path,
    ])
    #expect(migrate.exitCode == 0, "\(migrate.stderr)")
    let text = try String(contentsOf: report, encoding: .utf8)
    let notes = text.components(separatedBy: "[export.same-token]").count - 1
    let listed = 3  // DiagnosticLines.notesListedPerCode, in the command's module
    #expect(notes > listed && !text.contains("export.same-key"), "\(notes) notes")
    let exported = directory.appendingPathComponent("e.json").path
    let export = try CLI.run(["export", store, "--for", "python", "--output", exported])
    #expect(export.exitCode == 0)
    let lines = export.stderr.split(separator: "\n")
    #expect(lines.count == listed + 1, "\(export.stderr)")
    #expect(lines.last == "adal2msal: note: \(notes - listed) more like the notes above [export.same-token]")
  }
}
