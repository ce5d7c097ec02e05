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
  static let expectations = MSALPythonOracle.fixtureExpectations

  static func oracle(_ file: URL, expectations: String) throws -> ProcessRunner.Output {
    try MSALPythonOracle.check(cache: file, expectations: expectations)
  }

  @Test(arguments: expectations.keys.sorted())
  func msalPythonLoadsTheExport(fixture: String) throws {
    let sealing = try SecretSealing(keyBytes: Data(repeating: 5, count: 32))
    let store = try CacheStore.open(
      path: try StoreTestSupport.freshPath(), options: CacheStoreOptions(sealing: sealing))
    try StoreTestSupport.importFiles([Fixtures.url("msal-json/\(fixture)")], into: store)
    let exported = URL(fileURLWithPath: store.path + ".export.json")
    try store.export().data.write(to: exported)
    let output = try Self.oracle(exported, expectations: Self.expectations[fixture] ?? "{}")
    #expect(
      output.exitCode == 0,
      "MSAL Python disagrees for the export of \(fixture) (run scripts/bootstrap.sh if msal is missing):\n\(output.stdout)\(output.stderr)"
    )
  }

  /// Every fixture in one store, exported once: MSAL Python finds every expected account in the merged file.
  @Test func msalPythonLoadsTheMergedExport() throws {
    let store = try CacheStore.open(path: try StoreTestSupport.freshPath())
    try StoreTestSupport.importFiles(try StoreTestSupport.fixtureFiles(), into: store)
    let exported = URL(fileURLWithPath: store.path + ".export.json")
    try store.export().data.write(to: exported)
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
