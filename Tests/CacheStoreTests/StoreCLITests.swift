import Foundation
import Testing
import UnifiedCache
import _Adal2MSALTestSupport

@testable import CacheStore

/// `adal2msal accounts`, `export` and `import`, run as the built binary.
@Suite struct StoreCLITests {
  static func cli(_ arguments: [String], environment: [String: String]? = nil) throws -> ProcessRunner.Output {
    let binary = try StoreTestSupport.benchBinary().deletingLastPathComponent().appendingPathComponent("adal2msal")
    return try ProcessRunner.run(binary, arguments: arguments, environment: environment)
  }

  static let seed = Fixtures.url("msal-json/msal-dotnet_token_cache_one_acc_seed.json").path
  static let adfs = Fixtures.url("msal-json/msal-dotnet_token_cache_adfs.json").path

  @Test func importDryRunThenImportThenAgain() throws {
    let cache = try StoreTestSupport.freshPath()
    let dry = try Self.cli(["import", Self.seed, Self.adfs, "--out", cache, "--dry-run"])
    #expect(dry.exitCode == 0)
    #expect(dry.stderr.hasPrefix("import (dry run, nothing written): ") && dry.stdout.isEmpty, "\(dry.stderr)")
    #expect(!FileManager.default.fileExists(atPath: cache))
    let total = try [Self.seed, Self.adfs].map { try StoreTestSupport.read(URL(fileURLWithPath: $0)).allEntities.count }
      .reduce(0, +)

    let first = try Self.cli(["import", Self.seed, Self.adfs, "--out", cache])
    #expect(first.exitCode == 0, "\(first.stderr)")
    #expect(first.stderr.contains("\(total) added, 0 updated, 0 unchanged"), "\(first.stderr)")
    #expect(StoreTestSupport.mode(cache) == 0o600)
    let again = try Self.cli(["import", Self.seed, Self.adfs, "--out", cache])
    #expect(again.stderr.contains("0 added, 0 updated, \(total) unchanged"), "\(again.stderr)")
    #expect(again.stderr.split(separator: "\n").count == 1 && again.stdout.isEmpty)
    let quiet = try Self.cli(["import", Self.seed, Self.adfs, "--out", cache, "--quiet"])
    #expect(quiet.exitCode == 0 && quiet.stderr.isEmpty && quiet.stdout.isEmpty, "\(quiet.stderr)")
  }

  @Test func accountsLookupsAndFormats() throws {
    let cache = try StoreTestSupport.freshPath()
    #expect(try Self.cli(["import", Self.seed, Self.adfs, "--out", cache]).exitCode == 0)
    let table = try Self.cli(["accounts", cache])
    let lines = table.stdout.split(separator: "\n")
    #expect(lines.first?.hasPrefix("USERNAME") == true)
    #expect(lines.count == 3)
    let byName = try Self.cli([
      "accounts", cache, "--username", " LIU.KANG@bogavrilltd.onmicrosoft.com", "--environment",
      "login.microsoftonline.com", "--format", "json",
    ])
    #expect(byName.exitCode == 0)
    let array = try JSONSerialization.jsonObject(with: Data(byName.stdout.utf8)) as? [[String: Any]]
    #expect(array?.count == 1)
    #expect(
      array?.first?["home_account_id"] as? String
        == "ae821e4d-f408-451a-af82-882691148603.49f548d0-12b7-4169-a390-bb5304d24462")
    let byID = try Self.cli(["accounts", cache, "--identifier", "UNZYJM1NUGFLHP1L338BXHRYYHBTCYOWX1P+F2FCSIQ="])
    #expect(byID.stdout.contains("fidlab@msidlab8.com"))

    let none = try Self.cli(["accounts", cache, "--username", "nobody@contoso.com"])
    #expect(none.exitCode == 1)
    #expect(none.stderr == "adal2msal: error: \(cache): no account for username nobody@contoso.com\n")
    // The user is there, in another cloud: the message names the cloud the lookup was narrowed to.
    for lookup in [
      ["--username", "liu.kang@bogavrilltd.onmicrosoft.com"],
      ["--identifier", "ae821e4d-f408-451a-af82-882691148603.49f548d0-12b7-4169-a390-bb5304d24462"],
    ] {
      let elsewhere = try Self.cli(["accounts", cache] + lookup + ["--environment", "login.chinacloudapi.cn"])
      #expect(elsewhere.exitCode == 1)
      #expect(
        elsewhere.stderr
          == "adal2msal: error: \(cache): no account for \(lookup[0].dropFirst(2)) \(lookup[1]) "
          + "(in the cloud of login.chinacloudapi.cn)\n"
      )
    }
    let both = try Self.cli(["accounts", cache, "--username", "a", "--identifier", "b"])
    #expect(both.exitCode != 0)
    // An empty value (an unset variable) is a usage error, not a lookup of nothing or a listing narrowed to none.
    // So is one of spaces, empty once trimmed as the lookup trims it (it looked up nothing, status 1).
    for option in ["--username", "--identifier", "--environment"] {
      for value in ["", "   "] {
        let empty = try Self.cli(["accounts", cache, option, value])
        #expect(empty.exitCode == 64 && empty.stderr.hasPrefix("Error: \(option) is empty"), "\(empty.stderr)")
      }
    }
    // An authority URL for --environment matched no host, and listed nothing with status 0.
    let url = try Self.cli(["accounts", cache, "--environment", "https://login.microsoftonline.com/common"])
    #expect(url.exitCode == 64, "\(url.stderr)")
    #expect(url.stderr.contains("--environment takes a host, not a URL: give login.microsoftonline.com"))
  }

  @Test func exportWritesAnOwnerOnlyFileThatReadsBackTheSame() throws {
    let cache = try StoreTestSupport.freshPath()
    #expect(try Self.cli(["import", Self.seed, "--out", cache]).exitCode == 0)
    let output = cache + ".json"
    let export = try Self.cli(["export", cache, "--output", output])
    #expect(export.exitCode == 0, "\(export.stderr)")
    #expect(export.stdout.isEmpty)
    #expect(StoreTestSupport.mode(output) == 0o600)
    let written = try UnifiedCacheJSONReader().read(Data(contentsOf: URL(fileURLWithPath: output))).contents
    #expect(written == (try StoreTestSupport.read(URL(fileURLWithPath: Self.seed))))
    let toStdout = try Self.cli(["export", cache])
    #expect(Data(toStdout.stdout.utf8) == (try Data(contentsOf: URL(fileURLWithPath: output))))
  }

  @Test func encryptedStoreErrorsAreOneLineWithoutSecrets() throws {
    let directory = try Fixtures.temporaryDirectory("cli-keys")
    let keyFile = directory.appendingPathComponent("key").path
    let hex = String(repeating: "0123456789abcdef", count: 4)
    try Data(hex.utf8).write(to: URL(fileURLWithPath: keyFile))
    let cache = directory.appendingPathComponent("cache.sqlite").path
    #expect(try Self.cli(["import", Self.seed, "--out", cache, "--encryption-key-file", keyFile]).exitCode == 0)

    let noKey = try Self.cli(["export", cache])
    #expect(noKey.exitCode == 1)
    #expect(noKey.stdout.isEmpty)
    #expect(noKey.stderr.hasPrefix("adal2msal: error: \(cache): the store is encrypted and no key was given; "))
    #expect(noKey.stderr.split(separator: "\n").count == 1)
    // The command line's words for the library's remedy (`SecretSealing`), through both ways it prints an error.
    let remedy = "give its key with --encryption-key-file or ADAL2MSAL_ENCRYPTION_KEY"
    #expect(noKey.stderr.hasSuffix(remedy + "\n"), "\(noKey.stderr)")
    let migrateNoKey = try Self.cli(["migrate", "--msal", Self.seed, "--out", cache, "--dry-run"])
    #expect(migrateNoKey.exitCode == 1)
    #expect(
      migrateNoKey.stderr.hasSuffix(remedy + "\n") && !migrateNoKey.stderr.contains("`"), "\(migrateNoKey.stderr)")

    let wrongKey = directory.appendingPathComponent("wrong").path
    try Data(String(repeating: "ff", count: 32).utf8).write(to: URL(fileURLWithPath: wrongKey))
    let wrong = try Self.cli(["accounts", cache, "--encryption-key-file", wrongKey])
    #expect(wrong.exitCode == 1)
    #expect(wrong.stderr.contains("not the key of this store"))
    #expect(!wrong.stderr.contains(hex) && !wrong.stderr.contains("ffff"))

    var environment = ProcessInfo.processInfo.environment
    environment["ADAL2MSAL_ENCRYPTION_KEY"] = hex
    let viaEnvironment = try Self.cli(["export", cache], environment: environment)
    #expect(viaEnvironment.exitCode == 0)
    let secrets = try StoreTestSupport.read(URL(fileURLWithPath: Self.seed)).refreshTokens.map(\.secret.value)
    #expect(secrets.allSatisfy { viaEnvironment.stdout.contains($0) })
  }

  /// A store of an older schema read by a command that does not write (`accounts`, a dry run) is refused with
  /// the commands that upgrade it.
  @Test func anOlderStoreReadOnlyNamesTheCommandsThatUpgradeIt() throws {
    let contents = try ApplyTests.seedContents()
    let store = try SchemaMigrationTests.store(
      upTo: "v5", holding: contents,
      tables: ["accounts", "credentials", "app_metadata", "runs", "provenance_rows", "provenance_files", "provenance"])
    let remedy = "run adal2msal migrate or import on it (without --dry-run) to upgrade it"
    let accounts = try Self.cli(["accounts", store])
    #expect(accounts.exitCode == 1)
    #expect(accounts.stderr.hasSuffix(remedy + "\n"), "\(accounts.stderr)")
    let dryRun = try Self.cli(["migrate", "--msal", Self.seed, "--out", store, "--dry-run"])
    #expect(dryRun.exitCode == 1)
    #expect(dryRun.stderr.hasSuffix(remedy + "\n"), "\(dryRun.stderr)")
    let upgraded = try Self.cli(["import", Self.seed, "--out", store])
    #expect(upgraded.exitCode == 0, "\(upgraded.stderr)")
    #expect(try Self.cli(["accounts", store]).exitCode == 0)
  }

  /// Two files with another token under one key: the later file wins for its key, and the earlier entry is
  /// counted (merged) and named in a note by its fingerprint, never dropped without a word.
  @Test func importNamesTheEntryALaterFileReplaced() throws {
    let cache = try StoreTestSupport.freshPath()
    let later = cache + ".later.json"
    var root = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: Self.seed))) as? [String: Any])
    var tokens = try #require(root["RefreshToken"] as? [String: [String: Any]])
    let key = try #require(tokens.keys.sorted().first)
    tokens[key]?["secret"] = "another-refresh-token"
    root["RefreshToken"] = tokens
    try JSONSerialization.data(withJSONObject: root).write(to: URL(fileURLWithPath: later))
    let imported = try Self.cli(["import", Self.seed, later, "--out", cache, "--format", "json"])
    #expect(imported.exitCode == 0, "\(imported.stderr)")
    let summary = try #require(
      try JSONSerialization.jsonObject(with: Data(imported.stdout.utf8)) as? [String: Any])
    #expect(summary["merged"] as? Int == 1 && summary["result"] as? String == "complete", "\(summary)")
    #expect(imported.stderr.contains("is replaced by the one of \(later), which differs"), "\(imported.stderr)")
    #expect(imported.stderr.contains("[import.replaced-by-later-file]"))
  }

  /// An app's own section in an MSAL cache: `migrate --msal` keeps it verbatim and says so (a note names it, the
  /// closing lines count it), and a later run over a file whose section holds other members joins them with the
  /// stored ones, so that the store never drops what an earlier run kept. Nothing is lost: status 0.
  @Test func migrateKeepsAnAppsSectionAndNeverDropsItsMembers() throws {
    let cache = try StoreTestSupport.freshPath()
    let (first, second) = (cache + ".1.json", cache + ".2.json")
    try Data(#"{"Account": {}, "AppData": {"theme": "blue", "size": 2}}"#.utf8).write(to: URL(fileURLWithPath: first))
    try Data(#"{"Account": {}, "AppData": {"size": 3}}"#.utf8).write(to: URL(fileURLWithPath: second))
    let migrated = try Self.cli(["migrate", "--msal", first, "--out", cache, "--report", cache + ".txt"])
    #expect(migrated.exitCode == 0, "\(migrated.stderr)")
    #expect(migrated.stderr.contains("wrote run 1 to \(cache): 0 added, 0 updated, 1 section(s) kept verbatim"))
    #expect(
      try String(contentsOfFile: cache + ".txt", encoding: .utf8).contains(
        "at AppData: a section adal2msal does not model (an object, 2 members), kept verbatim"))
    let again = try Self.cli(["migrate", "--msal", second, "--out", cache, "-q"])
    #expect(again.exitCode == 0, "\(again.stderr)")
    let exported = try Self.cli(["export", cache])
    let root = try #require(try JSONSerialization.jsonObject(with: Data(exported.stdout.utf8)) as? [String: Any])
    let section = try #require(root["AppData"] as? [String: Any])
    #expect(section["theme"] as? String == "blue")
    #expect(section["size"] as? Int == 3)
  }

  /// A credential in a section the model does not know (MSAL Go's partitions) is named by `import` as it is by
  /// `migrate --msal`, kept, and written back by `export`; not stored as an entity, it makes the import partial
  /// (status 2), by the codes a migration counts as problems.
  @Test func importNamesTheCredentialsItKeepsVerbatim() throws {
    let cache = try StoreTestSupport.freshPath()
    let input = cache + ".json"
    try Data(
      #"{"Account": {}, "AccessTokensPartition": {"p1": {"k1": {"credential_type": "AccessToken", "secret": "s"}}}}"#
        .utf8
    ).write(to: URL(fileURLWithPath: input))
    let imported = try Self.cli(["import", input, "--out", cache])
    #expect(imported.exitCode == 2, "\(imported.stderr)")
    #expect(imported.stderr.contains("0 added, 0 updated, 0 unchanged, 1 section(s) kept verbatim"))
    #expect(
      imported.stderr.hasSuffix(
        "adal2msal: warning: 1 entry(ies), section(s) or file(s) could not be read or modelled (named above)\n"))
    #expect(
      imported.stderr.contains(
        "at AccessTokensPartition.p1.k1: warning: a credential in a section adal2msal does not model, kept verbatim "
          + "and written back by export, not stored as an entity [unified.unmodelled-entry]"), "\(imported.stderr)")
    let exported = try Self.cli(["export", cache])
    let root = try #require(try JSONSerialization.jsonObject(with: Data(exported.stdout.utf8)) as? [String: Any])
    #expect(((root["AccessTokensPartition"] as? [String: Any])?["p1"] as? [String: Any])?["k1"] != nil)
  }

  @Test func unreadableInputIsAOneLineError() throws {
    let cache = try StoreTestSupport.freshPath()
    let bad = cache + ".txt"
    try Data("not json".utf8).write(to: URL(fileURLWithPath: bad))
    let result = try Self.cli(["import", bad, "--out", cache])
    #expect(result.exitCode == 1)
    #expect(result.stderr.hasPrefix("adal2msal: error: "))
    #expect(result.stderr.contains(bad))
    #expect(result.stderr.split(separator: "\n").count == 1)
  }
}
