import Adal2MSAL
import Foundation
import Testing
import _Adal2MSALTestSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Standard output or standard error that cannot be written (`/dev/full`, a full disk): every command says so
/// in one line and exits 1, never crashes and never claims success; a run whose store had committed says that
/// the store was written and exits 2. Earlier, `inspect` and `export` crashed (SIGILL), `accounts` and
/// `import --format json` exited 0, a run with `--report -` said "nothing written" of a store it had written,
/// and a full standard error crashed every command.
@Suite struct StandardStreamTests {
  static let dump = Fixtures.url("scenarios/frt-two-apps/adal.xml.plist").path
  static let msal = Fixtures.url("msal-json/msal-dotnet_token_cache_adfs.json").path

  /// A scratch directory with a store migrated from `dump`.
  struct Scratch {
    let directory: URL
    let store: String

    init() throws {
      directory = try Fixtures.temporaryDirectory("standard-streams")
      store = directory.appendingPathComponent("cache.sqlite").path
      let made = try CLI.run(["migrate", "--adal", StandardStreamTests.dump, "--out", store, "-q"])
      try #require(made.exitCode == 0, "\(made.stderr)")
    }

    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }
  }

  @Test(arguments: [
    (["inspect", dump], "the inspection"),
    (["inspect", dump, "--format", "json"], "the inspection"),
    (["accounts", "STORE"], "the accounts"),
    (["accounts", "STORE", "--format", "json"], "the accounts"),
    (["export", "STORE"], "the export"),
    (["export", "STORE", "--for", "java", "--output", "-"], "the export"),
    (["migrate", "--adal", dump, "--dry-run", "-q"], "the report"),
    (["migrate", "--adal", dump, "--out", "STORE", "--dry-run", "--report-format", "json", "-q"], "the report"),
    (["import", msal, "--out", "NEW", "--dry-run", "--format", "json"], "the summary"),
  ])
  func aFullStandardOutputIsAnError(arguments: [String], what: String) throws {
    let scratch = try Scratch()
    defer { try? FileManager.default.removeItem(at: scratch.directory) }
    let filled = arguments.map { $0 == "STORE" ? scratch.store : $0 == "NEW" ? scratch.path("new.sqlite") : $0 }
    let run = try CLI.runInShell(prefix: "exec >/dev/full", filled)
    let expected = "cannot write \(what) to standard output (No space left on device)"
    #expect(CLI.contractViolations(run, expected: [expected]) == [], "\(filled.joined(separator: " "))")
    #expect(!FileManager.default.fileExists(atPath: scratch.path("new.sqlite")))
  }

  /// ArgumentParser's own texts: a completion script generated onto a full disk was an empty file and status 0.
  @Test(arguments: [
    (["--help"], "the help"),
    ([], "the help"),
    (["migrate", "--help"], "the help"),
    (["help", "export"], "the help"),
    (["--version"], "the version"),
    (["--generate-completion-script", "bash"], "the completion script"),
    (["--generate-completion-script=zsh"], "the completion script"),
    (["--experimental-dump-help"], "the help's description"),
  ])
  func helpTheVersionAndCompletionScriptsOnAFullStandardOutputAreAnError(arguments: [String], what: String) throws {
    let run = try CLI.runInShell(prefix: "exec >/dev/full", arguments)
    let expected = "cannot write \(what) to standard output (No space left on device)"
    #expect(CLI.contractViolations(run, expected: [expected]) == [], "\(arguments.joined(separator: " "))")
    let written = try CLI.run(arguments)
    #expect(written.exitCode == 0 && written.stdout.count > 5 && written.stderr.isEmpty, "\(arguments)")
  }

  /// `migrate --report -` and `import --format json` print after the store has committed: the store holds the
  /// run, and the error says so.
  @Test func outputAfterTheStoreCommittedSaysTheStoreWasWritten() throws {
    let scratch = try Scratch()
    defer { try? FileManager.default.removeItem(at: scratch.directory) }
    let fresh = scratch.path("fresh.sqlite")
    let migrated = try CLI.runInShell(
      prefix: "exec >/dev/full", ["migrate", "--adal", Self.dump, "--out", fresh, "--report", "-", "-q"])
    #expect(migrated.exitCode == 2 && !migrated.terminatedBySignal, "\(migrated.exitCode): \(migrated.stderr)")
    #expect(
      migrated.stderr
        == "adal2msal: error: run 1 was written to \(fresh), but cannot write the report to standard output "
        + "(No space left on device)\n")
    let accounts = try CLI.run(["accounts", fresh, "--format", "json"])
    let expected = try CLI.run(["accounts", scratch.store, "--format", "json"])
    #expect(accounts.exitCode == 0 && accounts.stdout == expected.stdout && !accounts.stdout.isEmpty)

    let imported = try CLI.runInShell(
      prefix: "exec >/dev/full", ["import", Self.msal, "--out", scratch.store, "--format", "json"])
    #expect(imported.exitCode == 2 && !imported.terminatedBySignal, "\(imported.exitCode): \(imported.stderr)")
    #expect(
      imported.stderr
        == "adal2msal: error: run 2 was written to \(scratch.store), but cannot write the summary to standard output "
        + "(No space left on device)\n")
    let runs = try ProcessRunner.run(
      URL(fileURLWithPath: "/usr/bin/sqlite3"), arguments: [scratch.store, "SELECT count(*) FROM runs"])
    #expect(runs.stdout == "2\n")
  }

  /// A reader that stops taking the standard output (`| head`) of a run that writes a store: the write fails and
  /// the error says what the store holds, status 2. Earlier SIGPIPE ended the run after its commit, with status
  /// 141 and no word. A standard error nobody reads is ignored there, as a full one is.
  @Test func aClosedPipeAfterTheCommitSaysTheStoreWasWritten() throws {
    let scratch = try Scratch()
    defer { try? FileManager.default.removeItem(at: scratch.directory) }
    let fresh = scratch.path("fresh.sqlite")
    let migrated = try Self.run(
      ["migrate", "--adal", Self.dump, "--out", fresh, "--report", "-", "-q"], closing: STDOUT_FILENO,
      in: scratch.directory)
    #expect(migrated.status == 2 && !migrated.bySignal, "\(migrated.status): \(migrated.captured)")
    #expect(
      migrated.captured
        == "adal2msal: error: run 1 was written to \(fresh), but cannot write the report to standard output "
        + "(Broken pipe)\n")
    let imported = try Self.run(
      ["import", Self.msal, "--out", scratch.store, "--format", "json"], closing: STDOUT_FILENO,
      in: scratch.directory)
    #expect(imported.status == 2 && !imported.bySignal, "\(imported.status): \(imported.captured)")
    #expect(
      imported.captured
        == "adal2msal: error: run 2 was written to \(scratch.store), but cannot write the summary to standard output "
        + "(Broken pipe)\n")
    let other = scratch.path("other.sqlite")
    let unread = try Self.run(
      ["migrate", "--adal", Self.dump, "--out", other], closing: STDERR_FILENO, in: scratch.directory)
    #expect(unread.status == 0 && !unread.bySignal, "\(unread.status)")
    #expect(try CLI.run(["accounts", other]).stdout == CLI.run(["accounts", fresh]).stdout)
  }

  /// Runs the binary with standard output or error (`closing`) a pipe that nobody reads (its reading end closed
  /// before the run starts), the other stream captured.
  static func run(
    _ arguments: [String], closing stream: Int32, in directory: URL
  ) throws -> (status: Int32, bySignal: Bool, captured: String) {
    var ends: [Int32] = [0, 0]
    try #require(pipe(&ends) == 0)
    close(ends[0])
    let unread = FileHandle(fileDescriptor: ends[1], closeOnDealloc: true)
    let file = directory.appendingPathComponent("captured-\(UUID().uuidString)")
    FileManager.default.createFile(atPath: file.path, contents: nil)
    let captured = try FileHandle(forWritingTo: file)
    let process = Process()
    process.executableURL = CLI.binary
    process.arguments = arguments
    process.standardOutput = stream == STDOUT_FILENO ? unread : captured
    process.standardError = stream == STDOUT_FILENO ? captured : unread
    try process.run()
    try unread.close()
    try captured.close()
    process.waitUntilExit()
    return (
      process.terminationStatus, process.terminationReason == .uncaughtSignal,
      try String(contentsOf: file, encoding: .utf8)
    )
  }

  /// With standard error full, a run does its work and exits as it would have: messages that cannot be shown
  /// are dropped, never a crash.
  @Test func aFullStandardErrorIsNoCrash() throws {
    let scratch = try Scratch()
    defer { try? FileManager.default.removeItem(at: scratch.directory) }
    let fresh = scratch.path("fresh.sqlite")
    let migrated = try CLI.runInShell(prefix: "exec 2>/dev/full", ["migrate", "--adal", Self.dump, "--out", fresh])
    #expect(migrated.exitCode == 0 && !migrated.terminatedBySignal, "\(migrated.exitCode)")
    #expect(try CLI.run(["accounts", fresh]).stdout == CLI.run(["accounts", scratch.store]).stdout)
    let missing = try CLI.runInShell(prefix: "exec 2>/dev/full", ["accounts", fresh, "--username", "nobody"])
    #expect(missing.exitCode == 1 && !missing.terminatedBySignal, "\(missing.exitCode)")
    let usage = try CLI.runInShell(prefix: "exec 2>/dev/full", ["migrat"])
    #expect(usage.exitCode == 64 && !usage.terminatedBySignal, "\(usage.exitCode)")
  }

  /// A closed standard output (`>&-`) is the same error, "Bad file descriptor": the stream is held by /dev/null,
  /// read-only, before any file is opened. Earlier the first file opened took its number, and the report was
  /// written into that (here one of the runtime's event descriptors: "Invalid argument").
  @Test(arguments: [
    ["inspect", dump], ["accounts", "STORE"], ["export", "STORE"], ["migrate", "--adal", dump, "--dry-run", "-q"],
  ])
  func aClosedStandardOutputIsAnError(arguments: [String]) throws {
    let scratch = try Scratch()
    defer { try? FileManager.default.removeItem(at: scratch.directory) }
    let run = try CLI.runInShell(prefix: "exec >&-", arguments.map { $0 == "STORE" ? scratch.store : $0 })
    #expect(run.exitCode == 1 && run.stderr.hasSuffix("to standard output (Bad file descriptor)\n"), "\(run.stderr)")
  }

  /// The library's side of it: a report stream that fails once the store has committed is a `StoreWrittenError`
  /// holding the outcome (with the run row), after Azure CLI's files were written.
  @Test func aFailingReportStreamAfterTheCommitGivesTheOutcome() async throws {
    let scratch = try Scratch()
    defer { try? FileManager.default.removeItem(at: scratch.directory) }
    let azure = scratch.path("azure")
    try FileManager.default.createDirectory(atPath: azure, withIntermediateDirectories: true)
    struct Closed: Error {}
    var options = MigrationRun.Options()
    options.report = .stream { _ in throw Closed() }
    options.azureCLIDirectory = azure
    let fresh = scratch.path("fresh.sqlite")
    let run = MigrationRun(adal: [Self.dump], store: fresh, options: options)
    let error = try await #require(throws: StoreWrittenError.self) { try await run.run() }
    #expect(error.outcome.applied?.runID == 1 && error.outcome.applied?.rowsInserted == 10)
    #expect(error.failures.count == 1 && error.failures.first is Closed)
    #expect(error.outcome.azureCLI != nil)
    #expect(error.description.hasPrefix("run 1 was written to \(fresh), but "))
    let store = try CacheStore.open(path: fresh, options: .reading(sealing: nil))
    #expect(try store.allAccounts().count == 1)
    #expect(FileManager.default.fileExists(atPath: azure + "/msal_token_cache.json"))
  }
}
