import Foundation
import Testing
import _Adal2MSALTestSupport

/// A path given as the store (`--out`, or the store `accounts` and `export` read) that holds something else is
/// refused by every command, the file left byte for byte as it was: an MSAL cache an app reads (a wrong path
/// would have been overwritten by nothing, but the refusal said only "SQLite error 26"), and another
/// application's SQLite database, into which `migrate` and `import` wrote adal2msal's tables and tokens. An
/// empty file is a new store, to a dry run as to the run it previews.
@Suite(.serialized) struct NotAStoreCommandTests {
  static let adalDump = Fixtures.url("adal/dump-multiuser.objection.json").path
  static let msalCache = Fixtures.url("msal-json/msal-dotnet_token_cache_one_acc_seed.json").path

  /// Every command that takes `store` as the store, with what it then says (one line, status 1).
  static func commands(store: String, export: String) -> [[String]] {
    [
      ["migrate", "--adal", adalDump, "--out", store, "--now", "2025-06-01T12:00:00Z"],
      ["migrate", "--adal", adalDump, "--out", store, "--dry-run", "--now", "2025-06-01T12:00:00Z"],
      ["import", msalCache, "--out", store],
      ["import", msalCache, "--out", store, "--dry-run"],
      ["accounts", store],
      ["export", store, "--for", "python", "--output", export],
    ]
  }

  /// Writes another application's database with Python's sqlite3: a table of its own and a row.
  static func otherDatabase(at path: String) throws {
    let script = """
      import sqlite3, sys
      db = sqlite3.connect(sys.argv[1])
      db.execute("CREATE TABLE notes (body TEXT)")
      db.execute("INSERT INTO notes VALUES ('keep me')")
      db.commit()
      """
    let made = try ProcessRunner.run(BuiltProducts.oraclePython, arguments: ["-c", script, path])
    try #require(made.exitCode == 0, "\(made.stderr)")
  }

  @Test func aFileThatIsNoStoreIsRefusedAndLeftAsItWas() throws {
    let scratch = try Fixtures.temporaryDirectory("not-a-store")
    defer { try? FileManager.default.removeItem(at: scratch) }
    let cache = scratch.appendingPathComponent("msal_cache.json").path
    try FileManager.default.copyItem(atPath: Self.msalCache, toPath: cache)
    let database = scratch.appendingPathComponent("app.db").path
    try Self.otherDatabase(at: database)
    let export = scratch.appendingPathComponent("export.json").path
    let cases = [
      (cache, "the file is not an SQLite database, so not an adal2msal store"),
      (database, "the file is an SQLite database with tables of its own, not an adal2msal store"),
    ]
    for (store, message) in cases {
      let before = try Data(contentsOf: URL(fileURLWithPath: store))
      let listing = try FileManager.default.contentsOfDirectory(atPath: scratch.path).sorted()
      for arguments in Self.commands(store: store, export: export) {
        let output = try CLI.run(arguments)
        #expect(CLI.contractViolations(output, expected: [store, message]).isEmpty, "\(arguments): \(output.stderr)")
        #expect(
          output.stderr.contains("give the path of an adal2msal store, or of a new file for a new store"),
          "\(arguments): \(output.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before, "\(arguments)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path).sorted() == listing, "\(arguments)")
      }
    }
  }

  /// A directory, a FIFO and a device: `accounts` and `export` waited forever on a FIFO (SQLite opens it and
  /// waits for a writer) and called a directory "SQLite error 10: disk I/O error". Every command refuses each
  /// unopened, in one line that names it and what it is.
  @Test func aPathThatIsNoRegularFileIsRefusedUnopened() throws {
    let scratch = try Fixtures.temporaryDirectory("not-a-file")
    defer { try? FileManager.default.removeItem(at: scratch) }
    let directory = scratch.appendingPathComponent("a-directory").path
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
    let fifo = scratch.appendingPathComponent("a-fifo").path
    #expect(mkfifo(fifo, 0o600) == 0)
    let export = scratch.appendingPathComponent("export.json").path
    let listing = try FileManager.default.contentsOfDirectory(atPath: scratch.path).sorted()
    for (store, kind) in [
      (directory, "a directory"), (fifo, "a FIFO (named pipe)"), ("/dev/null", "a character device"),
    ] {
      for arguments in Self.commands(store: store, export: export) {
        let output = try CLI.run(arguments)
        #expect(!output.timedOut, "\(arguments) waited on \(store)")
        #expect(CLI.contractViolations(output, expected: [store, kind]).isEmpty, "\(arguments): \(output.stderr)")
        if ["accounts", "export"].contains(arguments[0]) {
          #expect(
            output.stderr.hasPrefix("adal2msal: error: \(store): the path is \(kind), not an adal2msal store; "),
            "\(output.stderr)")
        }
      }
      #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path).sorted() == listing, "\(store)")
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory).isEmpty)
  }

  @Test func anEmptyFileIsANewStoreToADryRunAsToTheRunItPreviews() throws {
    let scratch = try Fixtures.temporaryDirectory("empty-store")
    defer { try? FileManager.default.removeItem(at: scratch) }
    let store = scratch.appendingPathComponent("made-by-mktemp").path
    #expect(FileManager.default.createFile(atPath: store, contents: nil))
    let clock = ["--now", "2025-06-01T12:00:00Z"]
    let preview = try CLI.run(["migrate", "--adal", Self.adalDump, "--out", store, "--dry-run", "-q"] + clock)
    #expect(preview.exitCode == 2, "\(preview.stderr)")
    #expect(preview.stdout.contains("total          14       0          0         1     7     22"), "\(preview.stdout)")
    let imported = try CLI.run(["import", Self.msalCache, "--out", store, "--dry-run"])
    #expect(imported.exitCode == 0, "\(imported.stderr)")
    #expect(
      imported.stderr.contains("import (dry run, nothing written): 5 to add, 0 to update, 0 unchanged"),
      "\(imported.stderr)")
    #expect(try Data(contentsOf: URL(fileURLWithPath: store)).isEmpty)
    let listed = try CLI.run(["accounts", store])
    #expect(CLI.contractViolations(listed, expected: [store, "the file holds no store yet (it is empty)"]).isEmpty)
    let migrated = try CLI.run(["migrate", "--adal", Self.adalDump, "--out", store, "-q"] + clock)
    #expect(migrated.exitCode == 2, "\(migrated.stderr)")
    #expect(try CLI.run(["accounts", store]).stdout.contains("Alice@Contoso.com"))
  }
}
