import Adal2MSALSupport
import Foundation
import MigrationEngine
import Testing
import UnifiedCache
import _Adal2MSALTestSupport

/// The migrated cache as the real MSAL Python library (msal 1.39.0) sees it: it finds the account by
/// username, returns the migrated access token silently without a network call, and, with the access token
/// gone, sends the migrated refresh token (to a fake HTTP client). scripts/oracle/msal_python_silent.py.
@Suite struct MSALPythonSilentTests {
  static let checked = Scenario.names.filter { name in ((try? Scenario(name))?.spec.oracle.isEmpty == false) }

  static func interpreter() -> URL {
    if let path = ProcessInfo.processInfo.environment["ADAL2MSAL_PYTHON"], !path.isEmpty {
      return URL(fileURLWithPath: path)
    }
    return Fixtures.repositoryRoot.appendingPathComponent(".venv-oracle/bin/python")
  }

  @Test func scenariosWithOracleChecksExist() {
    #expect(Self.checked.count >= 10)
  }

  @Test(arguments: checked)
  func migratedCacheWorksInMSALPython(_ name: String) throws {
    let python = Self.interpreter()
    guard FileManager.default.isExecutableFile(atPath: python.path) else {
      Issue.record("no Python interpreter at \(python.path): run `bash scripts/bootstrap.sh` (or set ADAL2MSAL_PYTHON)")
      return
    }
    let scenario = try Scenario(name)
    let plan = scenario.plan()
    let migrated = plan.applied(to: scenario.existing)
    let folder = try Fixtures.temporaryDirectory("msal-silent")
    defer { try? FileManager.default.removeItem(at: folder) }
    let cacheFile = folder.appendingPathComponent("cache.json")
    try UnifiedCacheJSONWriter.export(migrated).data.write(to: cacheFile)
    let script = Fixtures.repositoryRoot.appendingPathComponent("scripts/oracle/msal_python_silent.py")

    for check in scenario.spec.oracle {
      let target = check.resource + "/.default"
      let tenant = try #require(
        URLComponents(string: check.authority)?.path.split(separator: "/").first.map(String.init))
      let host = try #require(URLComponents(string: check.authority)?.host)
      let at = try #require(
        migrated.accessTokens.first {
          $0.homeAccountID == check.homeAccountId && $0.clientID == check.clientId && $0.target == target
            && $0.realm.lowercased() == tenant.lowercased() && $0.environment == host
        }, "\(name): no migrated access token for \(target) in \(tenant)")
      let family = migrated.appMetadata.first { $0.clientID == check.clientId && $0.environment == host }?.familyID
      let rt = try #require(
        migrated.refreshTokens.first {
          $0.homeAccountID == check.homeAccountId && $0.environment == host
            && (family != nil ? $0.familyID == family : ($0.clientID == check.clientId && $0.familyID == nil))
        }, "\(name): no migrated refresh token for \(check.clientId)")
      let arguments: [String: Any] = [
        "cache": cacheFile.path, "clientId": check.clientId, "authority": check.authority, "username": check.username,
        "scopes": [target], "expectedHomeAccountId": check.homeAccountId,
        "expectedAccessTokenFingerprint": at.secret.fingerprint,
        "expectedRefreshTokenFingerprint": rt.secret.fingerprint,
      ]
      let json = try JSONSerialization.data(withJSONObject: arguments, options: [.sortedKeys])
      let output = try ProcessRunner.run(python, arguments: [script.path, String(decoding: json, as: UTF8.self)])
      #expect(output.exitCode == 0, "\(name) \(check.username) @ \(check.authority): \(output.stdout) \(output.stderr)")
    }
  }
}
