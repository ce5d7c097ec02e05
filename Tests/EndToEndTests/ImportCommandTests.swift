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
    }
    #expect(try CLI.run(["migrate", "--msal", input, "--dry-run", "-q"]).exitCode == 2)
  }
}
