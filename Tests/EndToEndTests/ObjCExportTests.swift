import Foundation
import Testing
import _Adal2MSALTestSupport

/// `export --for objc` writes MSAL ObjC keychain items (IdentityCore's attributes and JSON payloads) that the
/// keychain-dump reader takes back as the same entities, and that a device-side importer can add as they are.
@Suite struct ObjCExportTests {
  @Test func keychainItemsCarryTheLayoutAndReadBackAsTheSameCache() throws {
    let directory = try Fixtures.temporaryDirectory()
    let store = directory.appendingPathComponent("store.sqlite").path
    _ = try CLI.run([
      "migrate", "--adal", Fixtures.url("adal/dump-multiuser.xml.plist").path, "--out", store,
      "--now", "2026-11-21T00:00:00Z", "--report", directory.appendingPathComponent("report.txt").path,
    ])
    let items = directory.appendingPathComponent("items.json")
    let export = try CLI.run(["export", store, "--for", "objc", "--output", items.path])
    #expect(export.exitCode == 0, "\(export.stderr)")

    let parsed = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: items)) as? [[String: Any]])
    #expect(!parsed.isEmpty)
    for item in parsed {
      #expect(item["class"] as? String == "genp" && item["agrp"] as? String == "com.microsoft.adalcache")
      let type = try #require(item["type"] as? Int)
      let account = try #require(item["acct"] as? String)
      let service = try #require(item["svce"] as? String)
      let generic = String(decoding: Data(base64Encoded: item["gena"] as? String ?? "") ?? Data(), as: UTF8.self)
      let payload = try #require(Data(base64Encoded: item["v_Data"] as? String ?? ""))
      let entity = try #require(try JSONSerialization.jsonObject(with: payload) as? [String: Any])
      switch type {
      case 2001, 2002, 2003:
        // Credentials: account `<home>-<env>`, service = generic + `-<target>` (empty for refresh and id tokens).
        #expect(
          account
            == "\(entity["home_account_id"] as? String ?? "")-\(entity["environment"] as? String ?? "")".lowercased())
        #expect(service.hasPrefix(generic + "-"))
        #expect(generic == generic.lowercased())
      case 1000...1004:
        #expect(service == (entity["realm"] as? String ?? "").lowercased())
        #expect(generic == (entity["username"] as? String ?? "").lowercased())
      case 3001:
        #expect(service == "appmetadata-" + (entity["client_id"] as? String ?? "").lowercased())
        #expect(entity["family_id"] is String, "MSAL ObjC always writes family_id")
      default:
        Issue.record("unexpected item type \(type)")
      }
    }
    // Each family refresh token is also written as the plain refresh token of its client, as MSAL ObjC does.
    let refreshServices = parsed.filter { $0["type"] as? Int == 2002 }.compactMap { $0["svce"] as? String }
    #expect(refreshServices.filter { $0 == "refreshtoken-1--" }.count == 3)

    // The items, read back as a keychain dump, are the same cache.
    let back = directory.appendingPathComponent("back.sqlite").path
    let migrateBack = try CLI.run(["migrate", "--adal", items.path, "--out", back, "--now", "2026-11-21T00:00:00Z"])
    #expect(FileManager.default.fileExists(atPath: back), "\(migrateBack.stderr)")
    let first = directory.appendingPathComponent("first.json")
    let second = directory.appendingPathComponent("second.json")
    #expect(try CLI.run(["export", store, "--for", "dotnet", "--output", first.path]).exitCode == 0)
    #expect(try CLI.run(["export", back, "--for", "dotnet", "--output", second.path]).exitCode == 0)
    let differences = try ExportComparison.differences(
      original: Data(contentsOf: first), exported: Data(contentsOf: second))
    #expect(differences.changed.isEmpty && differences.added == 0, "\(differences)")
  }
}
