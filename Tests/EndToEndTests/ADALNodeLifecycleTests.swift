import Foundation
import Testing
import _Adal2MSALTestSupport

/// An ADAL Node cache (Fixtures/adal-node/adal-node-cache.json: the real `adal` 1.2.7's entries in ADAL Node's
/// form, scripts/fixtures/make_adal_node_cache.py), migrated and exported `--for python`, lives through the real
/// MSAL Python's lifecycle (Fixtures/lifecycle/adal-node.args.json): each user is found, alice's fresh access
/// tokens are served from the cache under `<resource>/.default` scopes (graph's opaque one by its ISO-8601
/// `expiresOn`), and every forced refresh posts exactly the user's ADAL refresh token.
@Suite struct ADALNodeLifecycleTests {
  static let now = "2099-11-20T09:30:00Z"

  /// Migrates `cache` and exports the store `--for python` into `directory`; returns the export.
  static func migrateAndExport(_ cache: URL, in directory: URL) throws -> URL {
    let store = directory.appendingPathComponent("store.sqlite").path
    let exported = directory.appendingPathComponent("msal_token_cache.json")
    let migrate = try CLI.run([
      "migrate", "--adal", cache.path, "--out", store, "--now", now,
      "--report", directory.appendingPathComponent("report.txt").path,
    ])
    #expect(migrate.exitCode == 0, "\(migrate.stderr)")
    let export = try CLI.run(["export", store, "--for", "python", "--output", exported.path])
    #expect(export.exitCode == 0, "\(export.stderr)")
    return exported
  }

  @Test func migratedADALNodeCacheLivesInMSALPython() throws {
    let directory = try Fixtures.temporaryDirectory("adal-node-lifecycle")
    defer { try? FileManager.default.removeItem(at: directory) }
    let exported = try Self.migrateAndExport(Fixtures.url("adal-node/adal-node-cache.json"), in: directory)
    let verdict = try ConsumerLifecycleTests.lifecycle(exported, arguments: "adal-node.args.json")
    #expect(verdict.exitCode == 0 && verdict.failed == 0 && verdict.passed == 11, "\(verdict.output)")
  }

  /// The control: the same cache with graph's `expiresOn` 20 minutes before the run's clock fails the cached
  /// access token check, so the check above reads the ISO date rather than passing regardless.
  @Test func anExpiredISODateFailsTheCachedAccessTokenCheck() throws {
    let directory = try Fixtures.temporaryDirectory("adal-node-lifecycle-control")
    defer { try? FileManager.default.removeItem(at: directory) }
    var entries = try #require(
      JSONSerialization.jsonObject(with: Fixtures.data("adal-node/adal-node-cache.json")) as? [[String: Any]])
    let graph = try #require(entries.firstIndex { $0["resource"] as? String == "https://graph.windows.net/" })
    entries[graph]["expiresOn"] = "2099-11-20T09:10:00.250Z"
    let shifted = directory.appendingPathComponent("shifted.json")
    try JSONSerialization.data(withJSONObject: entries).write(to: shifted)
    let exported = try Self.migrateAndExport(shifted, in: directory)
    let verdict = try ConsumerLifecycleTests.lifecycle(exported, arguments: "adal-node.args.json")
    #expect(verdict.exitCode == 1 && verdict.failed == 1, "\(verdict.output)")
  }
}
