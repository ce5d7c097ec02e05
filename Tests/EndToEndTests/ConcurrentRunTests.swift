import Foundation
import Testing
import _Adal2MSALTestSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Issue 22: one writer at a time. A second `migrate` into the same store waits (saying so) until the first
/// has committed, then plans against what it committed: two concurrent runs end exactly as one of the two
/// serial orders, into a new store and into an existing one, and nothing either run did not create is removed.
@Suite("Concurrent runs", .serialized)
struct ConcurrentRunTests {
  /// The same items in two formats: whichever run commits second finds every entity unchanged, and a run that
  /// planned against the store as it was before the other's commit would plan them all as adds again.
  static let inputA = Fixtures.url("adal/dump-multiuser.xml.plist").path
  static let inputB = Fixtures.url("adal/dump-multiuser.bplist").path

  /// Runs, accounts, credentials, distinct home account ids, app metadata, and each run's planned counts
  /// (sorted) of a store.
  static func counts(_ store: String) throws -> String {
    let query = """
      SELECT (SELECT count(*) FROM runs), (SELECT count(*) FROM accounts), (SELECT count(*) FROM credentials),
        (SELECT count(DISTINCT lower(home_account_id)) FROM accounts), (SELECT count(*) FROM app_metadata);
      SELECT json_extract(summary, '$.planned') FROM runs ORDER BY 1;
      """
    let output = try ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/sqlite3"), arguments: [store, query])
    return output.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
  }

  static func migrate(_ input: String, into store: String) -> [String] {
    ["migrate", "--adal", input, "--out", store, "--now", "2026-11-21T10:00:00Z"]
  }

  /// Seeds `store` (when `seeded`) with the canary MSAL cache.
  static func seed(_ store: String, in directory: URL) throws {
    let seeded = try CLI.run(["import", try SecretCorpus.canaryMSALCache(in: directory).file.path, "--out", store])
    try #require(seeded.exitCode == 0, "\(seeded.stderr)")
  }

  /// The counts after A then B, and after B then A.
  static func serialOrders(seeded: Bool, in directory: URL) throws -> Set<String> {
    var results: Set<String> = []
    for (index, order) in [[inputA, inputB], [inputB, inputA]].enumerated() {
      let store = directory.appendingPathComponent("serial-\(index).sqlite").path
      if seeded { try seed(store, in: directory) }
      for input in order {
        let run = try CLI.run(migrate(input, into: store))
        try #require([0, 2].contains(run.exitCode), "\(run.stderr)")
      }
      results.insert(try counts(store))
    }
    return results
  }

  static func start(_ arguments: [String], stderr: URL) throws -> Process {
    let process = Process()
    process.executableURL = CLI.binary
    process.arguments = arguments
    process.standardOutput = FileHandle.nullDevice
    #expect(FileManager.default.createFile(atPath: stderr.path, contents: nil))
    process.standardError = try FileHandle(forWritingTo: stderr)
    try process.run()
    return process
  }

  @Test("two concurrent migrates end as a serial order", arguments: [false, true])
  func concurrent(seeded: Bool) throws {
    let directory = try Fixtures.temporaryDirectory("concurrent")
    defer { try? FileManager.default.removeItem(at: directory) }
    let serial = try Self.serialOrders(seeded: seeded, in: directory)
    for round in 0..<10 {
      let store = directory.appendingPathComponent("round-\(round).sqlite").path
      if seeded { try Self.seed(store, in: directory) }
      let first = try Self.start(
        Self.migrate(Self.inputA, into: store), stderr: directory.appendingPathComponent("a.err"))
      let second = try Self.start(
        Self.migrate(Self.inputB, into: store), stderr: directory.appendingPathComponent("b.err"))
      first.waitUntilExit()
      second.waitUntilExit()
      let errors = try ["a.err", "b.err"].map {
        try String(contentsOf: directory.appendingPathComponent($0), encoding: .utf8)
      }
      #expect(
        [0, 2].contains(first.terminationStatus) && [0, 2].contains(second.terminationStatus),
        "round \(round): \(errors)")
      #expect(FileManager.default.fileExists(atPath: store), "round \(round): the store is gone")
      let counts = try Self.counts(store)
      #expect(serial.contains(counts), "round \(round): \(counts), serial orders give \(serial.sorted())")
      #expect(!errors.joined().contains("SQLite error"), "round \(round): \(errors)")
    }
  }

  @Test("a second run waits, saying so, and touches nothing until the first is done")
  func waitsWithAMessage() throws {
    let directory = try Fixtures.temporaryDirectory("concurrent")
    defer { try? FileManager.default.removeItem(at: directory) }
    let store = directory.appendingPathComponent("new.sqlite").path
    // This test plays the first run: it holds the lock a run takes.
    let lock = open(directory.path, O_RDONLY)
    try #require(lock >= 0 && flock(lock, LOCK_EX) == 0)
    let errors = directory.appendingPathComponent("waiting.err")
    let waiting = try Self.start(Self.migrate(Self.inputA, into: store), stderr: errors)
    let deadline = Date().addingTimeInterval(30)
    var message = ""
    while waiting.isRunning, Date() < deadline, !message.contains("waiting for another adal2msal run") {
      usleep(10_000)
      message = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
    }
    #expect(
      message.contains("adal2msal: waiting for another adal2msal run writing a store in the directory of"), "\(message)"
    )
    #expect(waiting.isRunning, "the second run did not wait")
    #expect(!FileManager.default.fileExists(atPath: store), "the waiting run created the store")
    close(lock)
    waiting.waitUntilExit()
    #expect([0, 2].contains(waiting.terminationStatus), "\(message)")
    #expect(try Self.counts(store).hasPrefix("1|"), "one run recorded")
  }
}
