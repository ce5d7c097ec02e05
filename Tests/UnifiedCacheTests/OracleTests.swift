import Foundation
import Testing
import UnifiedCache
import _Adal2MSALTestSupport

/// The real MSAL Python library (scripts/oracle/msal_python_check.py) loads what our writer produces and
/// finds each account with get_accounts(username=...). Needs `bash scripts/bootstrap.sh` (CI runs it first).
@Suite struct OracleTests {
  static let expectations = MSALPythonOracle.fixtureExpectations

  static func runOracle(cache: URL, expectations: String) throws -> ProcessRunner.Output {
    try MSALPythonOracle.check(cache: cache, expectations: expectations)
  }

  @Test func oracleIsInstalled() throws {
    let python = BuiltProducts.oraclePython
    let probe = try? ProcessRunner.run(python, arguments: ["-c", "import msal; print(msal.__version__)"])
    #expect(probe?.exitCode == 0, "\(MSALPythonOracle.Missing(path: python.path))")
  }

  @Test(arguments: expectations.keys.sorted())
  func msalPythonReadsOurOutput(fixture: String) throws {
    let contents = try TestCache.read(fixture: fixture).contents
    let directory = try Fixtures.temporaryDirectory("unified-oracle")
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent(fixture)
    try UnifiedCacheJSONWriter.export(contents).data.write(to: file)
    let output: ProcessRunner.Output
    do {
      output = try Self.runOracle(cache: file, expectations: Self.expectations[fixture] ?? "{}")
    } catch {
      Issue.record(
        "cannot run the MSAL Python oracle (\(error)): run `bash scripts/bootstrap.sh` (or set ADAL2MSAL_PYTHON)")
      return
    }
    #expect(
      output.exitCode == 0,
      """
      MSAL Python disagrees for \(fixture) (if msal is missing, run `bash scripts/bootstrap.sh`):
      \(output.stdout)\(output.stderr)
      """)
  }

  /// The oracle can fail: the unconverted 2019 Python file (authority_type "AAD") is invisible to get_accounts,
  /// and a .NET file with its BOM does not load at all.
  @Test func oracleRejectsWhatMSALPythonCannotUse() throws {
    for fixture in [
      "msal-python-2019_via-msal-dotnet_cachecompat_python.json", "msal-dotnet_token_cache_one_acc_seed.json",
    ] {
      let output = try Self.runOracle(
        cache: Fixtures.url("msal-json/\(fixture)"), expectations: Self.expectations[fixture] ?? "{}")
      #expect(output.exitCode == 1, "\(fixture): \(output.stdout)")
    }
  }
}
