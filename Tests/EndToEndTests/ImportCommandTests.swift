import Adal2MSAL
import Foundation
import Testing
import _Adal2MSALTestSupport

/// `adal2msal import --format json`: the summary scripts read.
@Suite struct ImportCommandTests {
  @Test func theJSONSummaryCountsWhatWasPlannedAndWritten() throws {
    let binary = try #require(BuiltProducts.url("adal2msal"))
    let store = try Fixtures.temporaryDirectory().appendingPathComponent("cache.sqlite").path
    let file = Fixtures.url("msal-json/msal-dotnet_token_cache_adfs.json").path
    func summary(_ extra: [String]) throws -> [String: Any] {
      let run = try ProcessRunner.run(binary, arguments: ["import", file, "--out", store, "--format", "json"] + extra)
      #expect(run.exitCode == 0, "\(run.stderr)")
      return try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
    }
    let dry = try summary(["--dry-run"])
    #expect(dry["dryRun"] as? Bool == true && dry["added"] as? Int == 5 && dry["add"] == nil && dry["runID"] == nil)
    #expect(dry["result"] as? String == "complete" && dry["sectionsKept"] as? Int == 0)
    #expect(!FileManager.default.fileExists(atPath: store))
    let real = try summary([])
    #expect(real["added"] as? Int == 5 && real["runID"] as? Int == 1)
    let again = try summary([])
    #expect(again["added"] as? Int == 0 && again["unchanged"] as? Int == 5)
    // A dry run against the store plans against what it holds, and leaves it as it was.
    let stored = try Data(contentsOf: URL(fileURLWithPath: store))
    let dryAgain = try summary(["--dry-run"])
    #expect(dryAgain["added"] as? Int == 0 && dryAgain["unchanged"] as? Int == 5)
    #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == stored)
  }

  /// A section that is skipped (not an object of entries) is lost to the store: the import is partial, status 2,
  /// as `migrate --msal` of the same file is, with the count in the JSON summary. Earlier it exited 0.
  @Test func aSkippedSectionMakesTheImportPartial() throws {
    let directory = try Fixtures.temporaryDirectory("import-partial")
    defer { try? FileManager.default.removeItem(at: directory) }
    let input = directory.appendingPathComponent("cache.json").path
    let store = directory.appendingPathComponent("cache.sqlite").path
    let account = """
      {"home_account_id": "u.t", "environment": "login.microsoftonline.com", "realm": "t", "local_account_id": "u", \
      "username": "a@b.c", "authority_type": "MSSTS"}
      """
    try Data(#"{"AccessToken": 3, "Account": {"u.t-login.microsoftonline.com-t": \#(account)}}"#.utf8)
      .write(to: URL(fileURLWithPath: input))
    for extra in [["--dry-run"], []] {
      let run = try CLI.run(["import", input, "--out", store, "--format", "json"] + extra)
      #expect(run.exitCode == 2, "\(extra): \(run.stderr)")
      #expect(run.stderr.contains("at AccessToken: warning: expected an object of entries, found number; skipped"))
      let summary = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
      #expect(summary["notReadOrModelled"] as? Int == 1 && summary["added"] as? Int == 1)
      #expect(summary["result"] as? String == "partial")
    }
    #expect(try CLI.run(["migrate", "--msal", input, "--dry-run", "-q"]).exitCode == 2)
  }

  /// Each entry that could not be modelled is named: the warning that counts them says "named above". Earlier
  /// the first ten were, and the rest was "2 more diagnostics".
  @Test func everyEntryNotModelledIsNamed() throws {
    let directory = try Fixtures.temporaryDirectory("import-named")
    defer { try? FileManager.default.removeItem(at: directory) }
    let input = directory.appendingPathComponent("cache.json")
    let entries = (0..<12).map { #""k\#($0)": 3"# }.joined(separator: ", ")
    let account = """
      {"home_account_id": "u.t", "environment": "login.microsoftonline.com", "realm": "t", "local_account_id": "u", \
      "username": "a@b.c", "authority_type": "MSSTS"}
      """
    try Data(#"{"AccessToken": {\#(entries)}, "Account": {"u.t-login.microsoftonline.com-t": \#(account)}}"#.utf8)
      .write(to: input)
    let run = try CLI.run(["import", input.path, "--out", directory.appendingPathComponent("s.sqlite").path, "-q"])
    #expect(run.exitCode == 2, "\(run.stderr)")
    for index in 0..<12 { #expect(run.stderr.contains("at AccessToken.k\(index): warning:"), "k\(index)") }
    #expect(run.stderr.contains("12 entry(ies), section(s) or file(s) could not be read or modelled (named above)"))
  }

  /// `--quiet` prints nothing but errors and warnings, as its help says and as `migrate` does: a note (an
  /// `authority_type` read as MSAL reads it) is for a run that is not quiet. It was printed either way.
  @Test func quietLeavesTheNotesOut() throws {
    let input = Fixtures.url("msal-json/msal-python-2019_via-msal-dotnet_cachecompat_python.json").path
    let store = FileManager.default.temporaryDirectory.appendingPathComponent("never-written.sqlite").path
    let loud = try CLI.run(["import", input, "--out", store, "--dry-run"])
    #expect(loud.exitCode == 0 && loud.stderr.contains("note: authority_type 'AAD' read as 'MSSTS'"), "\(loud.stderr)")
    let quiet = try CLI.run(["import", input, "--out", store, "--dry-run", "-q"])
    #expect(quiet.exitCode == 0 && quiet.stderr.isEmpty, "\(quiet.stderr)")
  }
}

/// Files that hold nothing but sections that cannot be read give nothing to import: the import is refused, status
/// 1, as `migrate --msal` of them is, and writes nothing: no new store, no run in an existing one. Earlier it exited
/// 2 and wrote an empty run. (A credential kept verbatim is something to import: `StoreCLITests`.)
@Suite struct ImportRefusalTests {
  static let unreadable = [#"{"AccessToken": 3}"#, #"{"RefreshToken": [], "Account": {}}"#]

  @Test(arguments: unreadable) func filesWithOnlyProblemsAreRefused(_ json: String) throws {
    let directory = try Fixtures.temporaryDirectory("import-refused")
    defer { try? FileManager.default.removeItem(at: directory) }
    let input = directory.appendingPathComponent("cache.json").path
    try Data(json.utf8).write(to: URL(fileURLWithPath: input))
    let store = directory.appendingPathComponent("cache.sqlite").path
    for extra in [["--dry-run"], [], ["--format", "json"]] {
      let run = try CLI.run(["import", input, "--out", store] + extra)
      #expect(run.exitCode == 1, "\(extra): \(run.stderr)")
      #expect(
        run.stderr.contains("error: nothing usable in the files: 1 entry(ies), section(s) or file(s) could not be read")
      )
      #expect(!run.stderr.contains("imported") && !run.stderr.contains("import (dry run"), "\(run.stderr)")
      #expect(!FileManager.default.fileExists(atPath: store), "\(extra)")
      if extra == ["--format", "json"] {
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        #expect(summary["result"] as? String == "failed" && summary["runID"] == nil)
      }
    }
    #expect(try CLI.run(["migrate", "--msal", input, "--dry-run", "-q"]).exitCode == 1)

    let good = Fixtures.url("msal-json/msal-dotnet_token_cache_adfs.json").path
    #expect(try CLI.run(["import", good, "--out", store]).exitCode == 0)
    let stored = try Data(contentsOf: URL(fileURLWithPath: store))
    #expect(try CLI.run(["import", input, "--out", store]).exitCode == 1)
    #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == stored, "a run was written into the store")
    let both = try CLI.run(["import", good, input, "--out", store, "--format", "json"])
    #expect(both.exitCode == 2, "\(both.stderr)")
    let summary = try #require(try JSONSerialization.jsonObject(with: Data(both.stdout.utf8)) as? [String: Any])
    #expect(summary["result"] as? String == "partial" && summary["unchanged"] as? Int == 5)
  }

  /// The library says it as the command does: the outcome is `.failed` and nothing is written.
  @Test func theLibraryRunRefusesThemToo() throws {
    let directory = try Fixtures.temporaryDirectory("import-refused-library")
    defer { try? FileManager.default.removeItem(at: directory) }
    let input = directory.appendingPathComponent("cache.json").path
    try Data(Self.unreadable[0].utf8).write(to: URL(fileURLWithPath: input))
    let store = directory.appendingPathComponent("cache.sqlite").path
    let outcome = try ImportRun(files: [input], store: store).run()
    #expect(outcome.result == .failed && outcome.applied == nil && outcome.notReadOrModelled == 1)
    #expect(!FileManager.default.fileExists(atPath: store))
  }
}

/// `import DIR`: every file in the directory and its subdirectories, in path order, as `migrate --msal DIR` reads
/// it; hidden entries and the store itself are passed over and named, and a file that is no unified cache is
/// skipped and named (the import is then partial). Earlier a directory was refused ("is a directory").
@Suite struct ImportDirectoryTests {
  static func directory(_ files: [String: URL?]) throws -> URL {
    let directory = try Fixtures.temporaryDirectory("import-directory")
    for (name, source) in files {
      let target = directory.appendingPathComponent(name)
      try FileManager.default.createDirectory(
        at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
      if let source {
        try FileManager.default.copyItem(at: source, to: target)
      } else {
        try Data("not a cache".utf8).write(to: target)
      }
    }
    return directory
  }

  static let adfs = Fixtures.url("msal-json/msal-dotnet_token_cache_adfs.json")
  static let python = Fixtures.url("msal-json/msal-python-real_lifecycle.json")

  static func summary(_ run: ProcessRunner.Output) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], "\(run.stderr)")
  }

  @Test func aDirectoryIsImportedFileByFileInPathOrder() throws {
    let directory = try Self.directory([
      "a.json": Self.adfs, "sub/b.json": Self.python, "c.txt": nil, ".DS_Store": nil,
      "d.plist": Fixtures.url("adal/dump-multiuser.xml.plist"),
    ])
    defer { try? FileManager.default.removeItem(at: directory) }
    let store = directory.appendingPathComponent("cache.sqlite").path
    for round in 1...2 {
      let run = try CLI.run(["import", directory.path, "--out", store, "--format", "json"])
      #expect(run.exitCode == 2, "\(run.stderr)")
      let summary = try Self.summary(run)
      let read = ["a.json", "sub/b.json"].map { directory.appendingPathComponent($0).path }
      #expect(summary["filesRead"] as? [String] == read && summary["notReadOrModelled"] as? Int == 2)
      #expect(summary[round == 1 ? "added" : "unchanged"] as? Int == 38, "\(summary)")
      for name in ["c.txt", "d.plist"] {
        #expect(run.stderr.contains("\(directory.path)/\(name): warning: file skipped: "), "\(run.stderr)")
      }
      // The reason names the place in the file, not the file again.
      #expect(run.stderr.contains("/c.txt: warning: file skipped: offset 0, line 1:1: "), "\(run.stderr)")
      #expect(run.stderr.contains("/.DS_Store: note: not read: its name starts with"))
      #expect(run.stderr.contains("/cache.sqlite: note: not read: it is one of this run's own files") == (round == 2))
    }
  }

  /// An import's verdict is a migration's of the same files, by the same rules (`RunVerdict`): a file skipped, an
  /// entry that cannot be read, the outcome.
  @Test func anImportsVerdictIsAMigrationsOfTheSameFiles() async throws {
    let directory = try Self.directory(["a.json": Self.adfs, "c.txt": nil])
    defer { try? FileManager.default.removeItem(at: directory) }
    try Data(#"{"AccessToken": 3}"#.utf8).write(to: directory.appendingPathComponent("b.json"))
    var options = ImportRun.Options()
    options.dryRun = true
    let imported = try ImportRun(files: [directory.path], store: directory.path + "/cache.sqlite", options: options)
      .run()
    let migrated = try await MigrationRun(msal: [directory.path], store: nil).run()
    #expect(imported.verdict.unreadable == 1 && imported.verdict.skippedFiles == 1, "\(imported.verdict)")
    #expect(imported.verdict.unreadable == migrated.verdict.unreadable)
    #expect(imported.verdict.skippedFiles == migrated.verdict.skippedFiles)
    #expect(imported.verdict.problems == migrated.verdict.problems && imported.notReadOrModelled == 2)
    #expect(imported.result == .partial && migrated.result == .partial)
  }

  /// The same files imported one by one and as a directory give the same store, as its export shows; a bad file
  /// named directly still ends the run, and a directory of nothing but bad files writes nothing.
  @Test func aDirectoryIsItsFilesInPathOrder() throws {
    let directory = try Self.directory(["a.json": Self.adfs, "b/c.json": Self.python])
    defer { try? FileManager.default.removeItem(at: directory) }
    let stores = try Fixtures.temporaryDirectory("import-directory-stores")
    defer { try? FileManager.default.removeItem(at: stores) }
    let (byName, byDirectory) = (stores.path + "/by-name.sqlite", stores.path + "/by-directory.sqlite")
    let files = ["a.json", "b/c.json"].map { directory.appendingPathComponent($0).path }
    #expect(try CLI.run(["import"] + files + ["--out", byName, "-q"]).exitCode == 0)
    let imported = try CLI.run(["import", directory.path, "--out", byDirectory])
    #expect(imported.exitCode == 0, "\(imported.stderr)")
    #expect(imported.stderr.contains("imported 2 file(s) into"), "\(imported.stderr)")
    #expect(try CLI.run(["export", byName]).stdout == CLI.run(["export", byDirectory]).stdout)

    let bad = try Self.directory(["x.txt": nil, "y/z.txt": nil])
    defer { try? FileManager.default.removeItem(at: bad) }
    let store = bad.appendingPathComponent("cache.sqlite").path
    let refused = try CLI.run(["import", bad.path, "--out", store])
    #expect(refused.exitCode == 1 && refused.stderr.contains("nothing usable in the files: 2 "), "\(refused.stderr)")
    #expect(!FileManager.default.fileExists(atPath: store))
    let named = try CLI.run(["import", files[0], bad.appendingPathComponent("x.txt").path, "--out", store])
    #expect(named.exitCode == 1 && !FileManager.default.fileExists(atPath: store), "\(named.stderr)")
  }
}
