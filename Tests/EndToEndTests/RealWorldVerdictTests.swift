import Foundation
import Testing
import _Adal2MSALTestSupport

/// Every real cache file of ../shared/realworld (read in place; CI has ../shared/realworld beside the clone) through
/// `migrate`, as `--adal` and as `--msal`: each gets a truthful verdict, named here per file.
@Suite(.serialized) struct RealWorldVerdictTests {
  static let folder = Fixtures.repositoryRoot.appendingPathComponent("../shared/realworld").standardized

  /// A run's expected verdict: its exit status and a part of its first line on standard error.
  struct Verdict: Sendable, CustomStringConvertible {
    var status: Int32
    var message: String
    var description: String { "\(status) \(message)" }
  }

  static let msalHint = Verdict(
    status: 1, message: "this is an MSAL unified cache, not an ADAL cache: pass it with --msal")
  static let msalClean = Verdict(status: 0, message: "wrote run 1")
  static let msalPartial = Verdict(
    status: 2, message: "problem(s) (entries not migrated or in conflict, items unreadable")
  static let notMSAL = Verdict(status: 1, message: "not an MSAL cache: the JSON is an object with")
  static func unsupported(_ name: String) -> Verdict { Verdict(status: 1, message: "not supported yet: \(name)") }
  static func adalHint(_ kind: String) -> Verdict {
    Verdict(status: 1, message: "this is an ADAL input (\(kind)), not an MSAL cache: pass it with --adal")
  }
  /// The files `--adal` reads as ADAL caches (issue 25); a folder run names every other file as skipped.
  static let readAsADAL: Set<String> = [
    "adal-node_refresh-token-sample_adal.cacheTemplate.json",
    "azure-cli-2017_accessTokens_from-k8s-azure-plugin-test.json",
    "azure-cli_auth_tests_test.json.json", "adal-dotnet-v3_oldcache.serialized",
  ]

  /// file → (as --adal, as --msal).
  static let expected: [String: (adal: Verdict, msal: Verdict)] = [
    // ADAL.NET's test blob (issue 25): 14 entries read, each with a random string for its authority.
    "adal-dotnet-v3_oldcache.serialized": (
      Verdict(status: 1, message: "nothing usable in the inputs: 14 problem(s)"), adalHint("adal-dotnet-v3")
    ),
    "adal-dotnet-v5_ADALv5TokenCache.json": (msalHint, msalClean),
    "adal-dotnet-v5_FociTokenCacheFromMsal3.json": (msalHint, msalClean),
    // An app's template without the metadata ADAL adds (_authority, _clientId): read, but no cloud or app.
    "adal-node_refresh-token-sample_adal.cacheTemplate.json": (
      Verdict(status: 1, message: "nothing usable in the inputs"), adalHint("adal-node")
    ),
    // Two MRRT entries of one user (expired access tokens: skipped by policy); the refresh token migrates.
    "azure-cli-2017_accessTokens_from-k8s-azure-plugin-test.json": (msalClean, adalHint("adal-python-access-tokens")),
    // A service principal only: reported by id, never written (a policy skip), nothing else to do.
    "azure-cli_auth_tests_test.json.json": (msalClean, adalHint("adal-python-access-tokens")),
    "keychain-dumper_output_from-owasp-mastg.txt": (
      unsupported("Keychain-Dumper text output"), unsupported("Keychain-Dumper text output")
    ),
    "msal-common-2020_unifiedCache_serialize_cache.json": (msalHint, msalClean),
    "msal-common_cacheStore.json": (
      Verdict(status: 1, message: "not a keychain dump: the JSON is an object with 7"), notMSAL
    ),
    "msal-dotnet_ExpectedTokenCache.json": (msalHint, msalClean),
    "msal-dotnet_MultiTenantOBOTokenCache.json": (msalHint, msalClean),
    "msal-dotnet_MultiTenantTokenCache.json": (msalHint, msalClean),
    "msal-dotnet_SingleCloudTokenCache.json": (msalHint, msalClean),
    "msal-dotnet_TokenCacheWithWamId.json": (msalHint, msalClean),
    // MSAL.NET v2 dictionary cache (issue 25): read as unified entities with --msal.
    "msal-dotnet_cachecompat_dotnet_dictionary.bin": (
      Verdict(
        status: 1,
        message:
          "this is an MSAL unified cache (an MSAL.NET v2 dictionary cache), not an ADAL cache: pass it with --msal"),
      msalClean
    ),
    // An AccessToken entry without environment, client_id or secret.
    "msal-go-2020_src_test_serialized_cache.json": (msalHint, msalPartial),
    "msal-go_devapps_serialized_cache.json": (msalHint, msalClean),
    "msal-go_integration_serialized_cache_1.1.1.json": (msalHint, msalClean),
    // Partitioned sections: kept verbatim, not migrated, counted.
    "msal-go_test_partitioned_cache.json": (msalHint, msalPartial),
    "msal-go_test_serialized_cache.json": (msalHint, msalPartial),
    "msal-go_v1.0_cache.json": (msalHint, msalClean),
    "msal-java_AAD_full_cache.json": (msalHint, msalClean),
    "msal-java_AAD_token_response.json": (
      Verdict(status: 1, message: "not a keychain dump: the JSON is an object with 8"), notMSAL
    ),
    "msal-java_Foci_rt_cache_entity.json": (
      Verdict(status: 1, message: "not a keychain dump: the JSON is an object with 6"), notMSAL
    ),
    // Entries without a secret (the test suites' placeholders).
    "msal-java_multi-cloud-account-cache.json": (msalHint, msalPartial),
    "msal-java_multi-tenant-account-cache.json": (msalHint, msalPartial),
    "msal-java_sample_cache.json": (msalHint, msalPartial),
    "msal-node-extensions-sample_cache.json": (msalHint, msalClean),
    "msal-node-sample_auth-code_cacheAfterWrite.json": (msalHint, msalClean),
    // Every section empty: nothing to migrate and nothing wrong.
    "msal-node-sample_empty_cacheTemplate.json": (msalHint, msalClean),
    // A 0-byte cache file is an empty cache, as every MSAL library reads it (msal-node's sample ships one).
    "msal-node-sample_zero-byte_cache.json": (Verdict(status: 1, message: "the file is empty"), msalClean),
    // An "Unrecognized_Entity" section: kept verbatim, not migrated, counted.
    // Its unrecognised section holds no token: kept and written back, nothing left unmigrated.
    "msal-node_cache-unrecognized-entities.json": (msalHint, msalClean),
    "msal-node_default-cache.json": (msalHint, msalClean),
    "msal-node_serializer_Account.json": (msalHint, msalClean),
  ]

  static var files: [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0 != "SOURCES.txt" }.sorted()
  }

  @Test func everyFileOfTheFolderHasAnExpectedVerdict() throws {
    let files = Self.files
    try #require(!files.isEmpty, "../shared/realworld is missing beside the repository")
    #expect(Set(files) == Set(Self.expected.keys))
  }

  @Test(arguments: ["adal", "msal"])
  func eachFileGetsItsVerdict(_ role: String) throws {
    let files = Self.files
    try #require(!files.isEmpty, "../shared/realworld is missing beside the repository")
    for file in files {
      let verdict = try #require(Self.expected[file], "no expected verdict for \(file)")
      let wanted = role == "adal" ? verdict.adal : verdict.msal
      let scratch = try Fixtures.temporaryDirectory("realworld")
      defer { try? FileManager.default.removeItem(at: scratch) }
      let out = scratch.appendingPathComponent("cache.sqlite")
      let input = Self.folder.appendingPathComponent(file).path
      let output = try CLI.run(["migrate", "--\(role)", input, "--out", out.path, "--now", "2026-11-21T00:00:00Z"])
      let context = Comment(rawValue: "--\(role) \(file): \(output.stderr.prefix(600))")
      #expect(output.exitCode == wanted.status, context)
      #expect(!output.terminatedBySignal, context)
      #expect(output.stderr.contains(wanted.message), context)
      #expect(FileManager.default.fileExists(atPath: out.path) == (wanted.status != 1), context)
      if wanted.status == 1 {
        #expect(output.stderr.contains(file), "the error names the file: \(context)")
      }
    }
  }

  @Test func theFolderAsAFleetNamesEveryFileItCannotUse() throws {
    try #require(!Self.files.isEmpty, "../shared/realworld is missing beside the repository")
    let scratch = try Fixtures.temporaryDirectory("realworld-fleet")
    defer { try? FileManager.default.removeItem(at: scratch) }
    let out = scratch.appendingPathComponent("cache.sqlite")
    // The ADAL Python / Azure CLI and Node files are read (one refresh token migrates); every other file is
    // skipped and named: written, exit 2.
    let alone = try CLI.run(["migrate", "--adal", Self.folder.path, "--out", out.path, "--now", "2026-11-21T00:00:00Z"])
    #expect(alone.exitCode == 2, "\(alone.stderr.prefix(400))")
    #expect(FileManager.default.fileExists(atPath: out.path))
    for file in Self.files + ["SOURCES.txt"] {
      let named = alone.stderr.contains("adal2msal: warning: \(Self.folder.path)/\(file): skipped: ")
      #expect(named != Self.readAsADAL.contains(file), "\(file): named as skipped = \(named)")
    }
    try FileManager.default.removeItem(at: out)
    // With an ADAL dump beside it, the dump migrates and the folder's files are counted skips: exit 2.
    let mixed = try CLI.run([
      "migrate", "--adal", Self.folder.path, Fixtures.url("adal/dump-multiuser.xml.plist").path, "--out", out.path,
      "--now", "2026-11-21T00:00:00Z", "--report-format", "json", "--report", "-",
    ])
    #expect(mixed.exitCode == 2, "\(mixed.stderr.prefix(400))")
    #expect(FileManager.default.fileExists(atPath: out.path))
    #expect(
      mixed.stderr.contains("\(Self.files.count + 1 - Self.readAsADAL.count) files skipped"),
      "\(mixed.stderr.suffix(600))")
    #expect(mixed.stdout.contains("input.file-skipped"))
  }
}
