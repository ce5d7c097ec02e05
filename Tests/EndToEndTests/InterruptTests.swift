import Foundation
import Testing
import _Adal2MSALTestSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Issue 22: SIGINT, SIGTERM or SIGHUP in the middle of a write leaves nothing behind: no temporary export (every
/// token in clear), no half-written new store (nor its temporary file) or WAL; an existing store keeps exactly its
/// rows. The run ends with 128 + the signal; once its store has committed, with 2 and the run it wrote.
@Suite("Interrupted runs", .serialized)
struct InterruptTests {
  /// An MSAL cache of `count` access tokens of `megabytes` MiB each: few rows, much to write.
  static func heavyCache(in directory: URL, count: Int = 10, megabytes: Int = 8) throws -> URL {
    var tokens: [String: Any] = [:]
    for index in 0..<count {
      tokens["uid.utid-login.microsoftonline.com-accesstoken-client-utid-scope\(index)"] = [
        "home_account_id": "uid.utid", "environment": "login.microsoftonline.com", "credential_type": "AccessToken",
        "client_id": "client", "realm": "utid", "target": "scope\(index)", "cached_at": "1700000000",
        "expires_on": "1900000000", "extended_expires_on": "1900000000",
        "secret": "heavy\(index)" + String(repeating: "x", count: megabytes << 20),
      ]
    }
    let file = directory.appendingPathComponent("heavy.json")
    try JSONSerialization.data(withJSONObject: ["AccessToken": tokens]).write(to: file)
    return file
  }

  /// Starts the binary, waits until `ready` holds (polled every millisecond), then sends `signal`. Returns
  /// the exit status, whether it ended on a signal, and whether `ready` was seen before the process ended.
  /// `standardError`, when given, is the file the run's standard error goes to.
  static func interrupt(
    _ arguments: [String], with signalNumber: Int32, standardError: URL? = nil, when ready: () -> Bool
  ) throws -> (status: Int32, bySignal: Bool, seen: Bool) {
    let process = Process()
    process.executableURL = CLI.binary
    process.arguments = arguments
    process.standardOutput = FileHandle.nullDevice
    if let standardError {
      FileManager.default.createFile(atPath: standardError.path, contents: nil)
      process.standardError = try FileHandle(forWritingTo: standardError)
    } else {
      process.standardError = FileHandle.nullDevice
    }
    try process.run()
    var seen = false
    let deadline = Date().addingTimeInterval(300)
    while process.isRunning, Date() < deadline {
      if ready() {
        seen = true
        kill(process.processIdentifier, signalNumber)
        break
      }
      usleep(1000)
    }
    if !seen { kill(process.processIdentifier, SIGKILL) }
    process.waitUntilExit()
    return (process.terminationStatus, process.terminationReason == .uncaughtSignal, seen)
  }

  /// A setup run: an 80 MB input takes seconds alone and more beside a full parallel test run, past
  /// `CLI.hangTimeout`.
  static func setUp(_ arguments: [String]) throws -> ProcessRunner.Output {
    try ProcessRunner.run(CLI.binary, arguments: arguments, timeout: 300)
  }

  static func size(_ path: String) -> Int {
    ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0
  }

  @Test("export interrupted while writing leaves no temporary file", arguments: [SIGINT, SIGTERM])
  func export(_ signalNumber: Int32) throws {
    let directory = try Fixtures.temporaryDirectory("interrupt")
    defer { try? FileManager.default.removeItem(at: directory) }
    let store = directory.appendingPathComponent("store.sqlite").path
    let imported = try Self.setUp(["import", try Self.heavyCache(in: directory).path, "--out", store])
    try #require(imported.exitCode == 0, "\(imported.stderr)")
    let output = directory.appendingPathComponent("out.json").path
    func temporaries() -> [String] {
      ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).filter { $0.hasSuffix(".tmp") }
    }
    // On a loaded machine the export can finish its last write before the signal's handler runs: that run ends
    // with a complete output and no temporary file, which is correct but proves nothing, so it is tried again
    // (up to ten times: beside a full parallel test run three tries were once not enough).
    var run = try Self.interrupt(["export", store, "--output", output], with: signalNumber) { !temporaries().isEmpty }
    for _ in 0..<9 where run.status == 0 && temporaries().isEmpty {
      try? FileManager.default.removeItem(atPath: output)
      run = try Self.interrupt(["export", store, "--output", output], with: signalNumber) { !temporaries().isEmpty }
    }
    #expect(run.seen, "the export's temporary file was never seen: the run was too quick to interrupt")
    #expect(run.status == 128 + signalNumber && !run.bySignal, "exit \(run.status) (signal: \(run.bySignal))")
    #expect(temporaries().isEmpty, "left behind: \(temporaries())")
    #expect(!FileManager.default.fileExists(atPath: output), "the output was written")
  }

  /// SIGHUP (a closed SSH session) too: it ended the run by the signal, the new store's temporary file left behind.
  @Test(
    "migrate into a new store interrupted mid-transaction removes the store", arguments: [SIGINT, SIGTERM, SIGHUP])
  func migrateNew(_ signalNumber: Int32) throws {
    let directory = try Fixtures.temporaryDirectory("interrupt")
    defer { try? FileManager.default.removeItem(at: directory) }
    let input = try Self.heavyCache(in: directory)
    let store = directory.appendingPathComponent("new.sqlite").path
    // A new store is built under a temporary name beside its path (`NewStoreFile`), its first run with the
    // rollback journal (`FirstRunJournal`): mid-transaction the journal exists and the file grows past its schema
    // (about 1.5 MB).
    let run = try Self.interrupt(["migrate", "--msal", input.path, "--out", store], with: signalNumber) {
      KilledNewStoreTests.files(of: "new.sqlite", in: directory).contains { journal in
        journal.hasSuffix("-journal")
          && Self.size(directory.appendingPathComponent(String(journal.dropLast(8))).path) > 4 << 20
      }
    }
    #expect(run.seen, "the store never grew mid-transaction: the run was not interrupted in its write")
    #expect(run.status == 128 + signalNumber && !run.bySignal, "exit \(run.status) (signal: \(run.bySignal))")
    let left = KilledNewStoreTests.files(of: "new.sqlite", in: directory)
    #expect(left.isEmpty, "left behind: \(left)")
  }

  @Test("migrate into an existing store interrupted mid-transaction keeps its rows", arguments: [SIGINT, SIGTERM])
  func migrateExisting(_ signalNumber: Int32) throws {
    let directory = try Fixtures.temporaryDirectory("interrupt")
    defer { try? FileManager.default.removeItem(at: directory) }
    let store = directory.appendingPathComponent("existing.sqlite").path
    let seeded = try CLI.run(["import", try SecretCorpus.canaryMSALCache(in: directory).file.path, "--out", store])
    try #require(seeded.exitCode == 0, "\(seeded.stderr)")
    let before = try ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/sqlite3"), arguments: [store, ".dump"]).stdout
    let input = try Self.heavyCache(in: directory)
    // A new store's first run is written with the rollback journal (`FirstRunJournal`): mid-transaction the
    // journal exists and the file grows past its schema (about 1.5 MB). Written in WAL mode (another connection
    // had the file open), the run grows the WAL instead; creating the schema writes less than 4 MiB there.
    let run = try Self.interrupt(["migrate", "--msal", input.path, "--out", store], with: signalNumber) {
      (FileManager.default.fileExists(atPath: store + "-journal") && Self.size(store) > 4 << 20)
        || Self.size(store + "-wal") > 4 << 20
    }
    #expect(run.seen, "the store never grew mid-transaction: the run was not interrupted in its write")
    #expect(run.status == 128 + signalNumber && !run.bySignal, "exit \(run.status) (signal: \(run.bySignal))")
    #expect(FileManager.default.fileExists(atPath: store), "the existing store was removed")
    let after = try ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/sqlite3"), arguments: [store, ".dump"]).stdout
    #expect(after == before, "the existing store's rows changed")
    #expect(!after.isEmpty)
  }

  /// Once the store has committed, an interrupt no longer means nothing was written: the run says which run the
  /// store holds and what it did not get to, exits 2, and leaves neither a temporary file nor Azure CLI's lock
  /// file (which made the next run wait five seconds). Earlier it ended with 128 + the signal and no word. Azure
  /// CLI's files of 1,000 users (the whole store exported, the dump read again for its service principals) take
  /// long enough to be interrupted once the store is in place.
  @Test("migrate interrupted after its commit says the store was written", arguments: [SIGINT, SIGTERM, SIGHUP])
  func afterTheCommit(_ signalNumber: Int32) throws {
    let directory = try Fixtures.temporaryDirectory("interrupt")
    defer { try? FileManager.default.removeItem(at: directory) }
    let generated = try BenchHarness.run(
      ["generate", "--users", "1000", "--format", "binary-plist", "--out", directory.path], workName: nil)
    try #require(generated.exitCode == 0, "\(generated.stderr)")
    let dump = try #require(
      try FileManager.default.contentsOfDirectory(atPath: directory.path).first { $0.hasPrefix("synthetic-") })
    let store = directory.appendingPathComponent("store.sqlite").path
    let azure = directory.appendingPathComponent("azure")
    let errors = directory.appendingPathComponent("stderr.txt")
    func leftInAzure() -> [String] {
      ((try? FileManager.default.contentsOfDirectory(atPath: azure.path)) ?? []).filter {
        $0.hasSuffix(".lockfile") || $0.hasSuffix(".tmp")
      }
    }
    let arguments = [
      "migrate", "--adal", directory.appendingPathComponent(dump).path, "--out", store, "--azure-cli-dir",
      azure.path, "-q",
    ]
    // As for the export above: a run that finished before the signal's handler ran proves nothing, and is tried
    // again.
    var run: (status: Int32, bySignal: Bool, seen: Bool) = (0, false, false)
    for _ in 0..<10 where run.status == 0 {
      try? FileManager.default.removeItem(atPath: store)
      try? FileManager.default.removeItem(at: azure)
      try FileManager.default.createDirectory(at: azure, withIntermediateDirectories: true)
      run = try Self.interrupt(arguments, with: signalNumber, standardError: errors) {
        FileManager.default.fileExists(atPath: store)
      }
    }
    #expect(run.seen, "the store was never seen in place")
    #expect(run.status == 2 && !run.bySignal, "exit \(run.status) (signal: \(run.bySignal))")
    let said = try String(contentsOf: errors, encoding: .utf8)
    let name = [SIGINT: "SIGINT", SIGTERM: "SIGTERM", SIGHUP: "SIGHUP"][signalNumber] ?? ""
    #expect(
      said.hasPrefix("adal2msal: error: run 1 was written to \(store), but stopped by \(name) before "), "\(said)")
    #expect(
      said == "adal2msal: error: run 1 was written to \(store), but stopped by \(name) before Azure CLI's files\n"
        || said.hasSuffix(" before the summary\n") || said.hasSuffix(" before the run ended\n"), "\(said)")
    #expect(leftInAzure().isEmpty, "left behind: \(leftInAzure())")
    let runs = try ProcessRunner.run(
      URL(fileURLWithPath: "/usr/bin/sqlite3"), arguments: [store, "SELECT count(*) FROM runs"])
    #expect(runs.stdout == "1\n")
  }
}
