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
}
