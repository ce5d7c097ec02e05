import Foundation
import Testing
import _Adal2MSALTestSupport

/// The MSAL caches in ../shared/realworld (from the public test suites of MSAL.NET, Java, Node and Go; read in
/// place) and in Fixtures/msal-json (MSAL.NET's, and one the real MSAL Python library wrote), imported and
/// exported unchanged: without `--for` every entry comes back as it was (key, field names,
/// values); with `--for <its library>` every entry is written under the key that library computes, so the only
/// entries that change are the ones whose key in the file is not that library's (hand-made test data, older
/// versions), each named here with why.
@Suite struct RealWorldExportTests {
  struct Case: CustomStringConvertible, Sendable {
    var file: String
    var library: String
    /// Entries that the export as read does not give back, and why.
    var changedAsRead = 0
    /// Entries whose key or fields `--for library` writes otherwise, and why.
    var changedForLibrary = 0
    var why = ""
    var description: String { "\(file) --for \(library)" }

    /// In ../shared/realworld, or (names starting `Fixtures/`) in the project's fixtures.
    var url: URL {
      file.hasPrefix("Fixtures/")
        ? Fixtures.url(String(file.dropFirst("Fixtures/".count))) : RealWorldCaches.url(file)
    }
  }

  static let cases: [Case] = [
    Case(file: "Fixtures/msal-json/msal-dotnet_CacheFromTheFuture.json", library: "dotnet"),
    Case(
      file: "Fixtures/msal-json/msal-dotnet_MultiCloudTokenCache.json", library: "dotnet", changedForLibrary: 6,
      why: "six keys name client 872cd9fa… while the entries' fields say 0615b6ca…"),
    Case(file: "Fixtures/msal-json/msal-dotnet_token_cache_adfs.json", library: "dotnet"),
    Case(file: "Fixtures/msal-json/msal-dotnet_token_cache_one_acc_seed.json", library: "dotnet"),
    Case(
      file: "Fixtures/msal-json/msal-python-2019_via-msal-dotnet_cachecompat_python.json", library: "python",
      changedAsRead: 1, changedForLibrary: 3,
      why: "authority_type AAD is read as MSSTS (current MSAL lists only MSSTS accounts); written by MSAL.NET's "
        + "cache-compat test, so its keys are MSAL.NET's"),
    Case(file: "Fixtures/msal-json/msal-python-real_lifecycle.json", library: "python"),
    Case(file: "msal-dotnet_ExpectedTokenCache.json", library: "dotnet"),
    Case(file: "msal-dotnet_MultiTenantOBOTokenCache.json", library: "dotnet"),
    Case(file: "msal-dotnet_MultiTenantTokenCache.json", library: "dotnet"),
    Case(
      file: "msal-dotnet_SingleCloudTokenCache.json", library: "dotnet", changedForLibrary: 2,
      why:
        "two entries' keys name login.windows.net while their environment field says sts.windows.net / login.microsoft.com"
    ),
    Case(file: "msal-dotnet_TokenCacheWithWamId.json", library: "dotnet"),
    Case(file: "msal-java_AAD_full_cache.json", library: "java"),
    Case(
      file: "msal-java_multi-cloud-account-cache.json", library: "java", changedForLibrary: 3,
      why: "two account keys name another tenant than the account's realm; the public cloud's entries go under "
        + "login.windows.net, MSAL Java's cache host (the test data's login.microsoftonline.com tokens have empty "
        + "secrets and are kept verbatim)"),
    Case(file: "msal-java_multi-tenant-account-cache.json", library: "java"),
    Case(
      file: "msal-java_sample_cache.json", library: "java", changedForLibrary: 1,
      why:
        "the refresh token is keyed the MSAL Python way (ending in its target); Java computes '…-refreshtoken-<client>--'"
    ),
    Case(
      file: "msal-node_default-cache.json", library: "node", changedForLibrary: 8,
      why:
        "hand-made test data under login.microsoftonline.com: msal-node writes every entry under its cache host "
        + "login.windows.net (also: the account was keyed by realm, the PoP token spelled keyId/tokenType)"
    ),
    Case(
      file: "msal-node_cache-unrecognized-entities.json", library: "node", changedForLibrary: 7,
      why: "hand-made test data under login.microsoftonline.com; msal-node's cache host is login.windows.net"),
    Case(
      file: "msal-node_serializer_Account.json", library: "node", changedForLibrary: 1,
      why: "the account is keyed by realm; msal-node 2.x keys it by the home tenant"),
    Case(
      file: "msal-node-sample_auth-code_cacheAfterWrite.json", library: "node", changedForLibrary: 4,
      why: "written by an older msal-node (three-part keys); 2.x adds the claims-hash and scheme parts, and "
        + "the account's tenantProfiles"),
    Case(
      file: "msal-node-extensions-sample_cache.json", library: "node", changedAsRead: 1, changedForLibrary: 10,
      why: "two entries of one refresh token (one keyed as family 1 without a family_id) are one entity; "
        + "keys from an older msal-node; every entry goes under msal-node's cache host login.windows.net"),
    Case(
      file: "msal-common-2020_unifiedCache_serialize_cache.json", library: "node", changedAsRead: 1,
      changedForLibrary: 6,
      why: "the same duplicate refresh token; keys from msal-common 2020; every entry goes under login.windows.net"),
    Case(file: "msal-node-sample_empty_cacheTemplate.json", library: "node"),
    Case(file: "msal-node-sample_zero-byte_cache.json", library: "node"),
    Case(
      file: "msal-go_integration_serialized_cache_1.1.1.json", library: "go", changedForLibrary: 1,
      why: "the access token gains token_type Bearer, which current MSAL Go compares on reads"),
    Case(
      file: "msal-go_test_serialized_cache.json", library: "go", changedForLibrary: 4,
      why: "test data with Python-style refresh-token and id-token keys and an 'AppMetadata-…' key; token_type Bearer"),
    Case(
      file: "msal-go_devapps_serialized_cache.json", library: "go", changedForLibrary: 3,
      why: "the same Python-style keys as the test data"),
    Case(
      file: "msal-go-2020_src_test_serialized_cache.json", library: "go", changedForLibrary: 3,
      why: "the same Python-style keys; token_type Bearer"),
    Case(
      file: "msal-go_v1.0_cache.json", library: "go", changedForLibrary: 5,
      why: "MSAL Go 1.0 wrote keys in mixed case; later versions lowercase them"),
  ]

  @Test(arguments: cases)
  func exportGivesTheFileBack(_ testCase: Case) throws {
    let directory = try Fixtures.temporaryDirectory()
    let original = testCase.url
    let store = directory.appendingPathComponent("store.sqlite").path
    let imported = try CLI.run(["import", original.path, "--out", store])
    #expect(imported.exitCode == 0 || imported.exitCode == 2, "import failed: \(imported.stderr)")

    let asRead = directory.appendingPathComponent("as-read.json")
    #expect(try CLI.run(["export", store, "--output", asRead.path]).exitCode == 0)
    let kept = try ExportComparison.differences(
      original: Data(contentsOf: original), exported: Data(contentsOf: asRead))
    #expect(kept.changed.count == testCase.changedAsRead && kept.added == 0, "as read: \(kept)")

    let forLibrary = directory.appendingPathComponent("for.json")
    #expect(try CLI.run(["export", store, "--for", testCase.library, "--output", forLibrary.path]).exitCode == 0)
    let rekeyed = try ExportComparison.differences(
      original: Data(contentsOf: original), exported: Data(contentsOf: forLibrary))
    #expect(
      rekeyed.changed.count == testCase.changedForLibrary + testCase.changedAsRead,
      "--for \(testCase.library): \(rekeyed.changed) (expected \(testCase.changedForLibrary): \(testCase.why))")
  }
}
