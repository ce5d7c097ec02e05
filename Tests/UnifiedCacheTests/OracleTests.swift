import Foundation
import Testing
import UnifiedCache
import _Adal2MSALTestSupport

/// The real MSAL Python library (scripts/oracle/msal_python_check.py) loads what our writer produces and
/// finds each account with get_accounts(username=...). Needs `bash scripts/bootstrap.sh` (CI runs it first).
@Suite struct OracleTests {
  /// Username → home_account_id that MSAL Python must find in the written fixture. CacheFromTheFuture's
  /// accounts have authority_type "authority type", which no MSAL lists, so only loading is checked there.
  static let expectations: [String: String] = [
    "msal-dotnet_token_cache_one_acc_seed.json":
      #"{"accounts": [{"username": "LIU.KANG@bogavrilltd.onmicrosoft.com", "home_account_id": "ae821e4d-f408-451a-af82-882691148603.49f548d0-12b7-4169-a390-bb5304d24462", "client_id": "1d18b3b0-251b-4714-a02a-9956cec86c2d"}]}"#,
    "msal-dotnet_token_cache_adfs.json":
      #"{"accounts": [{"username": "fidlab@msidlab8.com", "home_account_id": "unZYjm1NugFLhP1l338bxhRYyHbtCYOWX1P+F2fCsiQ=", "client_id": "PublicClientId"}]}"#,
    "msal-dotnet_MultiCloudTokenCache.json": """
      {"accounts": [
        {"username": "user@cloud.onmicrosoft.com", "home_account_id": "ae821e4d-f408-451a-af82-882691148603.49f548d0-12b7-4169-a390-bb5304d24462", "environment": "login.windows.net", "client_id": "0615b6ca-88d4-4884-8729-b178178f7c27"},
        {"username": "userde@cloudde.onmicrosoft.de", "home_account_id": "6afc833f-49c0-4fd5-b685-2998a6cc8d8d.469fdeb4-d4fd-4fde-991e-308a78e4bea4", "environment": "login.microsoftonline.de", "client_id": "0615b6ca-88d4-4884-8729-b178178f7c27"},
        {"username": "usercn@cloudcn.partner.onmschina.cn", "home_account_id": "8d6ac642-17f6-4dd8-81e2-bf5bdb9a60d7.9e5e17b6-6e3d-4515-8895-0e7756474486", "environment": "login.partner.microsoftonline.cn", "client_id": "0615b6ca-88d4-4884-8729-b178178f7c27"}]}
      """,
    "msal-python-2019_via-msal-dotnet_cachecompat_python.json":
      #"{"accounts": [{"username": "abhi@ddobalianoutlook.onmicrosoft.com", "home_account_id": "13dd2c19-84cd-416a-ae7d-49573e425619.26039cce-489d-4002-8293-5b0c5134eacb", "client_id": "52d50834-b9a0-4948-9f62-1a3d283003d6"}]}"#,
    "msal-dotnet_CacheFromTheFuture.json": "{}",
  ]

  static var python: URL {
    let configured = ProcessInfo.processInfo.environment["ADAL2MSAL_PYTHON"]
    return configured.map { URL(fileURLWithPath: $0) }
      ?? Fixtures.repositoryRoot.appendingPathComponent(".venv-oracle/bin/python")
  }

  static func runOracle(cache: URL, expectations: String) throws -> ProcessRunner.Output {
    let script = Fixtures.repositoryRoot.appendingPathComponent("scripts/oracle/msal_python_check.py")
    return try ProcessRunner.run(python, arguments: [script.path, cache.path], stdin: Data(expectations.utf8))
  }

  @Test func oracleIsInstalled() throws {
    let probe = try? ProcessRunner.run(Self.python, arguments: ["-c", "import msal; print(msal.__version__)"])
    #expect(
      probe?.exitCode == 0,
      "MSAL Python oracle missing at \(Self.python.path): run `bash scripts/bootstrap.sh` (or set ADAL2MSAL_PYTHON)")
  }

  @Test(arguments: expectations.keys.sorted())
  func msalPythonReadsOurOutput(fixture: String) throws {
    let contents = try TestCache.read(fixture: fixture).contents
    let directory = try Fixtures.temporaryDirectory("unified-oracle")
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent(fixture)
    try UnifiedCacheJSONWriter.write(contents).write(to: file)
    let output: ProcessRunner.Output
    do {
      output = try Self.runOracle(cache: file, expectations: Self.expectations[fixture] ?? "{}")
    } catch {
      Issue.record("cannot run the MSAL Python oracle (\(error)): run `bash scripts/bootstrap.sh` (or set ADAL2MSAL_PYTHON)")
      return
    }
    #expect(output.exitCode == 0, """
      MSAL Python disagrees for \(fixture) (if msal is missing, run `bash scripts/bootstrap.sh`):
      \(output.stdout)\(output.stderr)
      """)
  }

  /// The oracle can fail: the unconverted 2019 Python file (authority_type "AAD") is invisible to get_accounts,
  /// and a .NET file with its BOM does not load at all.
  @Test func oracleRejectsWhatMSALPythonCannotUse() throws {
    for fixture in ["msal-python-2019_via-msal-dotnet_cachecompat_python.json", "msal-dotnet_token_cache_one_acc_seed.json"] {
      let output = try Self.runOracle(cache: Fixtures.url("msal-json/\(fixture)"), expectations: Self.expectations[fixture] ?? "{}")
      #expect(output.exitCode == 1, "\(fixture): \(output.stdout)")
    }
  }
}
