import Foundation
import Testing
import UnifiedCache
import _Adal2MSALTestSupport

@testable import CacheStore

/// The export of a store loads in the real MSAL Python library (scripts/oracle/msal_python_check.py, from the
/// UnifiedCache tests): every account is found with get_accounts(username=...) and its refresh token with
/// MSAL's own lookup. Needs `bash scripts/bootstrap.sh`; a missing interpreter is a failure, not a skip.
@Suite struct StoreOracleTests {
  /// Username → home_account_id that MSAL Python must find (the same facts as Tests/UnifiedCacheTests/OracleTests).
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
    ProcessInfo.processInfo.environment["ADAL2MSAL_PYTHON"].map { URL(fileURLWithPath: $0) }
      ?? Fixtures.repositoryRoot.appendingPathComponent(".venv-oracle/bin/python")
  }

  static func oracle(_ file: URL, expectations: String) throws -> ProcessRunner.Output {
    let script = Fixtures.repositoryRoot.appendingPathComponent("scripts/oracle/msal_python_check.py")
    guard FileManager.default.isExecutableFile(atPath: python.path) else {
      throw OracleMissing(path: python.path)
    }
    return try ProcessRunner.run(python, arguments: [script.path, file.path], stdin: Data(expectations.utf8))
  }

  struct OracleMissing: Error, CustomStringConvertible {
    var path: String
    var description: String { "no Python at \(path): run scripts/bootstrap.sh (or set ADAL2MSAL_PYTHON)" }
  }

  @Test(arguments: expectations.keys.sorted())
  func msalPythonLoadsTheExport(fixture: String) throws {
    let sealing = try SecretSealing(keyBytes: Data(repeating: 5, count: 32))
    let store = try CacheStore.open(path: try StoreTestSupport.freshPath(), options: CacheStoreOptions(sealing: sealing))
    try StoreTestSupport.importFiles([Fixtures.url("msal-json/\(fixture)")], into: store)
    let exported = URL(fileURLWithPath: store.path + ".export.json")
    try store.exportJSON().write(to: exported)
    let output = try Self.oracle(exported, expectations: Self.expectations[fixture] ?? "{}")
    #expect(output.exitCode == 0, "MSAL Python disagrees for the export of \(fixture) (run scripts/bootstrap.sh if msal is missing):\n\(output.stdout)\(output.stderr)")
  }

  /// Every fixture in one store, exported once: MSAL Python finds every expected account in the merged file.
  @Test func msalPythonLoadsTheMergedExport() throws {
    let store = try CacheStore.open(path: try StoreTestSupport.freshPath())
    try StoreTestSupport.importFiles(try StoreTestSupport.fixtureFiles(), into: store)
    let exported = URL(fileURLWithPath: store.path + ".export.json")
    try store.exportJSON().write(to: exported)
    // Accounts whose keys occur in one fixture only (two fixtures share the liu.kang account key).
    let output = try Self.oracle(
      exported,
      expectations: """
        {"accounts": [
          {"username": "fidlab@msidlab8.com", "home_account_id": "unZYjm1NugFLhP1l338bxhRYyHbtCYOWX1P+F2fCsiQ=", "client_id": "PublicClientId"},
          {"username": "usercn@cloudcn.partner.onmschina.cn", "home_account_id": "8d6ac642-17f6-4dd8-81e2-bf5bdb9a60d7.9e5e17b6-6e3d-4515-8895-0e7756474486", "environment": "login.partner.microsoftonline.cn", "client_id": "0615b6ca-88d4-4884-8729-b178178f7c27"},
          {"username": "abhi@ddobalianoutlook.onmicrosoft.com", "home_account_id": "13dd2c19-84cd-416a-ae7d-49573e425619.26039cce-489d-4002-8293-5b0c5134eacb", "client_id": "52d50834-b9a0-4948-9f62-1a3d283003d6"}]}
        """)
    #expect(output.exitCode == 0, "\(output.stdout)\(output.stderr)")
  }
}
