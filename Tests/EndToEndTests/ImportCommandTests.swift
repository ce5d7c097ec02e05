import Adal2MSAL
import Foundation
import Testing
import _Adal2MSALTestSupport

/// `adal2msal import --format json`: the summary scripts read.
@Suite struct ImportCommandTests {
  @Test func theJSONSummaryCountsWhatWasPlannedAndWritten() throws {
    let binary = try #require(BuiltProducts.url("adal2msal"))
    let store = try Fixtures.temporaryDirectory().appendingPathComponent("cache.sqlite").path
    let file = Fixtures.url("msal-json/msal-dotnet_token_cache_adfs.json").path
    func summary(_ extra: [String]) throws -> [String: Any] {
      let run = try ProcessRunner.run(binary, arguments: ["import", file, "--out", store, "--format", "json"] + extra)
      #expect(run.exitCode == 0, "\(run.stderr)")
      return try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
    }
    let dry = try summary(["--dry-run"])
    #expect(dry["dryRun"] as? Bool == true && dry["added"] as? Int == 5 && dry["add"] == nil && dry["runID"] == nil)
    #expect(dry["result"] as? String == "complete" && dry["sectionsKept"] as? Int == 0)
    #expect(!FileManager.default.fileExists(atPath: store))
    let real = try summary([])
    #expect(real["added"] as? Int == 5 && real["runID"] as? Int == 1)
    let again = try summary([])
    #expect(again["added"] as? Int == 0 && again["unchanged"] as? Int == 5)
    // A dry run against the store plans against what it holds, and leaves it as it was.
    let stored = try Data(contentsOf: URL(fileURLWithPath: store))
    let dryAgain = try summary(["--dry-run"])
    #expect(dryAgain["added"] as? Int == 0 && dryAgain["unchanged"] as? Int == 5)
    #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == stored)
  }

  /// A section that is skipped (not an object of entries) is lost to the store: the import is partial, status 2,
  /// as `migrate --msal` of the same file is, with the count in the JSON summary. Earlier it exited 0.
  @Test func aSkippedSectionMakesTheImportPartial() throws {
    let directory = try Fixtures.temporaryDirectory("import-partial")
    defer { try? FileManager.default.removeItem(at: directory) }
    let input = directory.appendingPathComponent("cache.json").path
    let store = directory.appendingPathComponent("cache.sqlite").path
    let account = """
      {"home_account_id": "u.t", "environment": "login.microsoftonline.com", "realm": "t", "local_account_id": "u", \
      "username": "a@b.c", "authority_type": "MSSTS"}
      """
    try Data(#"{"AccessToken": 3, "Account": {"u.t-login.microsoftonline.com-t": \#(account)}}"#.utf8)
      .write(to: URL(fileURLWithPath: input))
    for extra in [["--dry-run"], []] {
      let run = try CLI.run(["import", input, "--out", store, "--format", "json"] + extra)
      #expect(run.exitCode == 2, "\(extra): \(run.stderr)")
      #expect(run.stderr.contains("at AccessToken: warning: expected an object of entries, found number; skipped"))
      let summary = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
      #expect(summary["notReadOrModelled"] as? Int == 1 && summary["added"] as? Int == 1)
      #expect(summary["result"] as? String == "partial")
    }
    #expect(try CLI.run(["migrate", "--msal", input, "--dry-run", "-q"]).exitCode == 2)
  }

  /// Each entry that could not be modelled is named: the warning that counts them says "named above". Earlier
  /// the first ten were, and the rest was "2 more diagnostics".
  @Test func everyEntryNotModelledIsNamed() throws {
    let directory = try Fixtures.temporaryDirectory("import-named")
    defer { try? FileManager.default.removeItem(at: directory) }
    let input = directory.appendingPathComponent("cache.json")
    let entries = (0..<12).map { #""k\#($0)": 3"# }.joined(separator: ", ")
    let account = """
      {"home_account_id": "u.t", "environment": "login.microsoftonline.com", "realm": "t", "local_account_id": "u", \
      "username": "a@b.c", "authority_type": "MSSTS"}
      """
    try Data(#"{"AccessToken": {\#(entries)}, "Account": {"u.t-login.microsoftonline.com-t": \#(account)}}"#.utf8)
      .write(to: input)
    let run = try CLI.run(["import", input.path, "--out", directory.appendingPathComponent("s.sqlite").path, "-q"])
    #expect(run.exitCode == 2, "\(run.stderr)")
    for index in 0..<12 { #expect(run.stderr.contains("at AccessToken.k\(index): warning:"), "k\(index)") }
    #expect(run.stderr.contains("12 entry(ies) or section(s) could not be read or modelled (named above)"))
  }
}

/// Files that hold nothing but sections that cannot be read give nothing to import: the import is refused, status
/// 1, as `migrate --msal` of them is, and writes nothing: no new store, no run in an existing one. Earlier it exited
/// 2 and wrote an empty run. (A credential kept verbatim is something to import: `StoreCLITests`.)
@Suite struct ImportRefusalTests {
  static let unreadable = [#"{"AccessToken": 3}"#, #"{"RefreshToken": [], "Account": {}}"#]

  @Test(arguments: unreadable) func filesWithOnlyProblemsAreRefused(_ json: String) throws {
    let directory = try Fixtures.temporaryDirectory("import-refused")
    defer { try? FileManager.default.removeItem(at: directory) }
    let input = directory.appendingPathComponent("cache.json").path
    try Data(json.utf8).write(to: URL(fileURLWithPath: input))
    let store = directory.appendingPathComponent("cache.sqlite").path
    for extra in [["--dry-run"], [], ["--format", "json"]] {
      let run = try CLI.run(["import", input, "--out", store] + extra)
      #expect(run.exitCode == 1, "\(extra): \(run.stderr)")
      #expect(run.stderr.contains("error: nothing usable in the files: 1 entry(ies) or section(s) could not be read"))
      #expect(!run.stderr.contains("imported") && !run.stderr.contains("import (dry run"), "\(run.stderr)")
      #expect(!FileManager.default.fileExists(atPath: store), "\(extra)")
      if extra == ["--format", "json"] {
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        #expect(summary["result"] as? String == "failed" && summary["runID"] == nil)
      }
    }
    #expect(try CLI.run(["migrate", "--msal", input, "--dry-run", "-q"]).exitCode == 1)

    let good = Fixtures.url("msal-json/msal-dotnet_token_cache_adfs.json").path
    #expect(try CLI.run(["import", good, "--out", store]).exitCode == 0)
    let stored = try Data(contentsOf: URL(fileURLWithPath: store))
    #expect(try CLI.run(["import", input, "--out", store]).exitCode == 1)
    #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == stored, "a run was written into the store")
    let both = try CLI.run(["import", good, input, "--out", store, "--format", "json"])
    #expect(both.exitCode == 2, "\(both.stderr)")
    let summary = try #require(try JSONSerialization.jsonObject(with: Data(both.stdout.utf8)) as? [String: Any])
    #expect(summary["result"] as? String == "partial" && summary["unchanged"] as? Int == 5)
  }

  /// The library says it as the command does: the outcome is `.failed` and nothing is written.
  @Test func theLibraryRunRefusesThemToo() throws {
    let directory = try Fixtures.temporaryDirectory("import-refused-library")
    defer { try? FileManager.default.removeItem(at: directory) }
    let input = directory.appendingPathComponent("cache.json").path
    try Data(Self.unreadable[0].utf8).write(to: URL(fileURLWithPath: input))
    let store = directory.appendingPathComponent("cache.sqlite").path
    let outcome = try ImportRun(files: [input], store: store).run()
    #expect(outcome.result == .failed && outcome.applied == nil && outcome.notReadOrModelled == 1)
    #expect(!FileManager.default.fileExists(atPath: store))
  }
}
