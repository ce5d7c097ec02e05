import Foundation
import Testing
import UnifiedCache
import _Adal2MSALTestSupport

/// The real multi-tenant caches of MSAL.NET's and MSAL Java's test suites (../shared/realworld, read in place),
/// imported and exported `--for node`: each user's Accounts in several tenants are one entry under the key
/// msal-node computes, listing every tenant in `tenantProfiles`; nothing is left out (exit status 0). What msal-node
/// wrote comes back byte for byte; the other libraries' exports keep one Account per tenant.
@Suite struct NodeTenantProfilesExportTests {
  struct Case: CustomStringConvertible, Sendable {
    var file: String
    /// Account key (as msal-node computes it) -> the entry's realm, then each profile's tenant and home flag.
    var accounts: [String: (realm: String, tenants: [String], home: [Bool])]
    var description: String { file }
  }

  static let dotnetHome = "6eeda3a1-c3b9-4e92-a94d-965a50c06de7.72f988bf-86f1-41af-91ab-2d7cd011db47"
  static let dotnetOther = "ae821e4d-f408-451a-af82-882691148603.49f548d0-12b7-4169-a390-bb5304d24462"
  static let tenant1 = "72f988bf-86f1-41af-91ab-2d7cd011db47"
  static let tenant2 = "49f548d0-12b7-4169-a390-bb5304d24462"

  static let cases = [
    Case(
      file: "msal-dotnet_MultiTenantTokenCache.json",
      accounts: [
        "\(dotnetHome)-login.windows.net-\(tenant1)": (tenant1, [tenant1, tenant2], [true, false]),
        "\(dotnetOther)-login.windows.net-\(tenant2)": (tenant2, [tenant2], [true]),
      ]),
    Case(
      file: "msal-java_multi-tenant-account-cache.json",
      accounts: [
        "uid1.utid1-login.windows.net-utid1": ("utid1", ["utid1", "utid2", "utid3"], [true, false, false]),
        "uid5.utid4-login.windows.net-utid4": ("utid4", ["utid4"], [true]),
        "uid6.utid5-login.windows.net-utid5": ("utid5", ["utid5"], [true]),
      ]),
  ]

  static func accounts(_ url: URL) throws -> JSONObject {
    try JSONParser().parse(Data(contentsOf: url)).objectValue?["Account"]?.objectValue ?? [:]
  }

  @Test(arguments: cases)
  func everyTenantIsInTheNodeExport(_ testCase: Case) throws {
    let directory = try Fixtures.temporaryDirectory()
    let store = directory.appendingPathComponent("store.sqlite").path
    let original = RealWorldCaches.url(testCase.file)
    let imported = try CLI.run(["import", original.path, "--out", store])
    #expect(imported.exitCode == 0 || imported.exitCode == 2, "\(imported.stderr)")
    let node = directory.appendingPathComponent("node.json")
    let exported = try CLI.run(["export", store, "--for", "node", "--output", node.path])
    #expect(exported.exitCode == 0, "\(exported.stderr)")
    #expect(!exported.stderr.contains("warning"), "\(exported.stderr)")

    let written = try Self.accounts(node)
    #expect(Set(written.keys) == Set(testCase.accounts.keys))
    let originalAccounts = try Self.accounts(original).compactMap(\.value.objectValue)
    for (key, expected) in testCase.accounts {
      let entry = try #require(written[key]?.objectValue, "\(key)")
      #expect(entry["realm"]?.stringValue == expected.realm, "\(key)")
      let profiles = try (entry["tenantProfiles"]?.arrayValue ?? []).map { value in
        try #require(try JSONParser().parse(Data((value.stringValue ?? "").utf8)).objectValue)
      }
      #expect(profiles.map { $0["tenantId"]?.stringValue ?? "" } == expected.tenants, "\(key)")
      #expect(profiles.map { $0["isHomeTenant"] } == expected.home.map(JSONValue.bool), "\(key)")
      // Each profile says what that tenant's Account in the file said.
      for profile in profiles {
        let tenant = profile["tenantId"]?.stringValue
        let source = try #require(
          originalAccounts.first {
            $0["realm"]?.stringValue == tenant
              && $0["home_account_id"]?.stringValue == entry["home_account_id"]?.stringValue
          })
        #expect(profile["localAccountId"] == source["local_account_id"], "\(key) \(tenant ?? "")")
        #expect(profile["name"] == source["name"], "\(key) \(tenant ?? "")")
        if profile["isHomeTenant"] == .bool(true) {
          #expect(entry["local_account_id"] == source["local_account_id"] && entry["username"] == source["username"])
        }
      }
    }

    // What msal-node wrote comes back byte for byte through import and export.
    let again = directory.appendingPathComponent("again.sqlite").path
    let reimported = try CLI.run(["import", node.path, "--out", again])
    #expect(reimported.exitCode == imported.exitCode, "\(reimported.stderr)")
    let node2 = directory.appendingPathComponent("node2.json")
    #expect(try CLI.run(["export", again, "--for", "node", "--output", node2.path]).exitCode == 0)
    #expect(try Data(contentsOf: node2) == Data(contentsOf: node))
    let asRead = directory.appendingPathComponent("as-read.json")
    #expect(try CLI.run(["export", again, "--output", asRead.path]).exitCode == 0)
    #expect(try Data(contentsOf: asRead) == Data(contentsOf: node))

    // The other libraries still get one Account per tenant from the original; from the msal-node file, MSAL.NET
    // gets its one entry per user, with `tenantProfiles` kept as a field it does not model.
    let dotnet = directory.appendingPathComponent("dotnet.json")
    #expect(try CLI.run(["export", store, "--for", "dotnet", "--output", dotnet.path]).exitCode == 0)
    #expect(try Self.accounts(dotnet).count == Self.accounts(original).count)
    let dotnetFromNode = directory.appendingPathComponent("dotnet-from-node.json")
    #expect(try CLI.run(["export", again, "--for", "dotnet", "--output", dotnetFromNode.path]).exitCode == 0)
    let fromNode = try Self.accounts(dotnetFromNode)
    #expect(fromNode.count == testCase.accounts.count)
    #expect(fromNode.allSatisfy { $0.value.objectValue?["tenantProfiles"] != nil })
  }

  /// An ADAL user with tokens in two tenants (Fixtures/scenarios/two-tenants): the dry run's report `--for node`
  /// warns of nothing left out, and the export of the migrated store holds both tenants, status 0.
  @Test func aMigratedUserInTwoTenants() throws {
    let directory = try Fixtures.temporaryDirectory()
    let store = directory.appendingPathComponent("store.sqlite").path
    let input = Fixtures.url("scenarios/two-tenants/adal.xml.plist").path
    let arguments = ["migrate", "--adal", input, "--now", "2025-06-01T12:00:00Z", "--out", store, "--for", "node"]
    let dryRun = try CLI.run(arguments + ["--dry-run"])
    #expect(dryRun.exitCode == 0 && !dryRun.stdout.contains("export.same-key"), "\(dryRun.stdout)")
    #expect(try CLI.run(arguments + ["--quiet"]).exitCode == 0)
    let node = directory.appendingPathComponent("node.json")
    let exported = try CLI.run(["export", store, "--for", "node", "--output", node.path])
    #expect(exported.exitCode == 0 && exported.stderr.isEmpty, "\(exported.stderr)")
    let accounts = try Self.accounts(node)
    #expect(accounts.count == 1)
    let profiles = accounts.members.first?.value.objectValue?["tenantProfiles"]?.arrayValue ?? []
    #expect(profiles.count == 2)
  }
}
