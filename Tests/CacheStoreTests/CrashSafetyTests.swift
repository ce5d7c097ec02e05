import Foundation
import GRDB
import Testing
import _Adal2MSALTestSupport

@testable import CacheStore

/// Runs `adal2msal-bench store-apply-child` (a large apply in its own process), kills it with SIGKILL at
/// random moments, and checks after each kill that the store opens, passes `PRAGMA integrity_check`, and holds
/// either the state before the run or the state after it, never a mix.
@Suite(.serialized) struct CrashSafetyTests {
  /// A child that is started, waited for until it reports that its apply begins, then killed.
  final class Child {
    let process = Process()
    let output = Pipe()

    init(binary: URL, arguments: [String]) throws {
      process.executableURL = binary
      process.arguments = arguments
      process.standardOutput = output
      process.standardError = FileHandle.nullDevice
      try process.run()
    }

    /// Blocks until the child printed "applying" (its plan is built and the store open), or it exited.
    func waitUntilApplying() {
      var seen = ""
      while !seen.contains("applying") {
        let data = output.fileHandleForReading.availableData
        if data.isEmpty { return }
        seen += String(decoding: data, as: UTF8.self)
      }
    }

    func kill() {
      _ = Foundation.kill(process.processIdentifier, SIGKILL)
      _ = exitStatus()
    }

    /// Waits for the child to end; its exit code, or 128 + the signal that ended it. `waitpid` first, because
    /// `Process.waitUntilExit` was seen waiting forever for a killed child that nobody reaped (a zombie).
    func exitStatus() -> Int32 {
      var status: Int32 = 0
      var result: pid_t
      repeat { result = waitpid(process.processIdentifier, &status, 0) } while result == -1 && errno == EINTR
      guard result == process.processIdentifier else {
        process.waitUntilExit()  // Foundation reaped it first
        return process.terminationStatus
      }
      return status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + status & 0x7f
    }
  }

  static func check(_ path: String) throws -> StoreTestSupport.Counts {
    let store = try CacheStore.open(path: path)
    let integrity = try store.queue.read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check") }
    #expect(integrity == ["ok"])
    return try StoreTestSupport.counts(store)
  }

  @Test func killedAppliesLeaveTheOldOrTheNewStateNeverAMix() throws {
    let binary = try StoreTestSupport.benchBinary()
    let path = try StoreTestSupport.freshPath()
    let seedRun = try ProcessRunner.run(
      binary, arguments: ["store-apply-child", "--db", path, "--rows", "1000", "--seed", "1000"])
    #expect(seedRun.exitCode == 0, "\(seedRun.stderr)")
    var state = try Self.check(path)
    #expect(state.credentials == 1000 && state.runs == 1 && state.provenance == 1000)

    // How long a large apply takes here, uninterrupted: its kills are drawn within the first third of that time,
    // so that they land inside the transaction on a fast machine as on a loaded one, even when the load drops
    // after the timed run (a killed apply up to three times faster than the timed one is still killed midway).
    let large = 200_000
    let timed = try Child(
      binary: binary, arguments: ["store-apply-child", "--db", path, "--rows", "\(large)", "--seed", "100"])
    timed.waitUntilApplying()
    let started = ContinuousClock.now
    #expect(timed.exitStatus() == 0)
    let applyMS = Int((ContinuousClock.now - started) / .milliseconds(1))
    state.credentials += large
    state.provenance += large
    state.runs += 1
    #expect(try Self.check(path) == state)

    var generator = SystemRandomNumberGenerator()
    var killedMidway = 0
    var completed = 0
    // Large applies killed inside the transaction, then smaller ones whose kill may land in the commit or after.
    let attempts: [(rows: Int, maxDelayMS: Int)] =
      Array(repeating: (large, applyMS / 3), count: 6)
      + Array(repeating: (20_000, 3_500), count: 16)
    for (attempt, plan) in attempts.enumerated() {
      let child = try Child(
        binary: binary,
        arguments: ["store-apply-child", "--db", path, "--rows", "\(plan.rows)", "--seed", "\(attempt + 1)"])
      child.waitUntilApplying()
      Thread.sleep(forTimeInterval: Double(Int.random(in: 0...plan.maxDelayMS, using: &generator)) / 1000)
      child.kill()

      let after = try Self.check(path)
      var applied = state
      applied.credentials += plan.rows
      applied.provenance += plan.rows
      applied.runs += 1
      #expect(after == state || after == applied, "attempt \(attempt): before \(state), after \(after)")
      if after == state { killedMidway += 1 } else { completed += 1 }
      state = after
    }
    print(
      "crash safety: \(attempts.count) kills, \(killedMidway) inside the transaction, \(completed) after the commit")
    #expect(killedMidway >= 6, "most kills should land inside the transaction (\(killedMidway) did)")
    #expect(killedMidway + completed == attempts.count)
  }

  /// A new store's first run (written with the rollback journal, `FirstRunJournal`) killed at random moments:
  /// a reader is refused or sees the empty store or the whole run, never a part of it; the next writer rolls the
  /// journal back, finds the file intact and holding nothing or the whole run, and puts it in WAL mode.
  @Test func killedFirstRunsOfANewStoreLeaveItEmptyOrComplete() throws {
    let binary = try StoreTestSupport.benchBinary()
    var generator = SystemRandomNumberGenerator()
    var killedMidway = 0
    let rows = 150_000
    for attempt in 0..<8 {
      let path = try StoreTestSupport.freshPath()
      let child = try Child(
        binary: binary, arguments: ["store-apply-child", "--db", path, "--rows", "\(rows)", "--seed", "\(attempt + 1)"])
      child.waitUntilApplying()
      if attempt.isMultiple(of: 2) {
        Thread.sleep(forTimeInterval: Double(Int.random(in: 300...4_000, using: &generator)) / 1000)
      } else {
        // The run's pages fit in the page cache: they reach the file at the commit. Kill while they are written.
        let schemaSize = StoreTestSupport.size(path) ?? 0
        while StoreTestSupport.size(path) ?? 0 < schemaSize + 4_000_000, kill(child.process.processIdentifier, 0) == 0 {
          usleep(500)
        }
        usleep(UInt32.random(in: 0...20_000, using: &generator))
      }
      child.kill()

      let empty = StoreTestSupport.Counts()
      var complete = empty
      complete.credentials = rows
      complete.provenance = rows
      complete.runs = 1
      if let reader = try? CacheStore.open(path: path, options: .reading()),
        let seen = try? StoreTestSupport.counts(reader)
      {
        #expect(seen == empty || seen == complete, "attempt \(attempt): a reader saw \(seen)")
      }
      let after = try Self.check(path)
      #expect(after == empty || after == complete, "attempt \(attempt): \(after)")
      if after == empty { killedMidway += 1 }
      let journal = try CacheStore.open(path: path).queue.read { try String.fetchOne($0, sql: "PRAGMA journal_mode") }
      #expect(journal == "wal", "attempt \(attempt)")
    }
    #expect(killedMidway >= 3, "most kills should land inside the transaction (\(killedMidway) did)")
    print("first-run crash safety: 8 kills, \(killedMidway) inside the transaction")
  }

  /// A store opened and written by a second process while a new store's first run is written with the rollback
  /// journal: the second open waits for the first run (it cannot switch the file to WAL meanwhile), both runs
  /// succeed, and the store ends in WAL mode holding both.
  @Test func aStoreOpenedDuringItsFirstRunWaitsForIt() throws {
    let binary = try StoreTestSupport.benchBinary()
    let path = try StoreTestSupport.freshPath()
    let rows = 100_000
    let child = try Child(binary: binary, arguments: ["store-apply-child", "--db", path, "--rows", "\(rows)"])
    child.waitUntilApplying()
    Thread.sleep(forTimeInterval: 0.5)
    #expect(FileManager.default.fileExists(atPath: path + "-journal"), "the first run uses the rollback journal")
    let second = try CacheStore.open(path: path, options: CacheStoreOptions(busyTimeout: 120))
    let files = try StoreTestSupport.fixtureFiles()
    try StoreTestSupport.importFiles(files, into: second)
    #expect(child.exitStatus() == 0, "the first run succeeds")
    let counts = try Self.check(path)
    #expect(counts.runs == 2)
    #expect(counts.credentials > rows)
    #expect(try second.queue.read { try String.fetchOne($0, sql: "PRAGMA journal_mode") } == "wal")
  }

  /// Two processes apply different plans to one new file at the same time: both succeed, the store holds both.
  /// Small plans on fresh files, many times, because the race is in creating the file (switching it to WAL,
  /// creating the schema), which takes a few milliseconds; one large pair also overlaps the applies.
  @Test func twoProcessesApplyingAtOnceBothSucceed() throws {
    let binary = try StoreTestSupport.benchBinary()
    for (round, rows) in ([20_000] + Array(repeating: 1_000, count: 15)).enumerated() {
      let path = try StoreTestSupport.freshPath()
      let results = Results()
      DispatchQueue.concurrentPerform(iterations: 2) { index in
        let output = try? ProcessRunner.run(
          binary,
          arguments: ["store-apply-child", "--db", path, "--rows", "\(rows)", "--seed", "\(500 + 2 * round + index)"])
        results.append(output)
      }
      for output in results.all {
        #expect(output?.exitCode == 0, "round \(round): \(output?.stderr ?? "did not run")")
      }
      let counts = try Self.check(path)
      #expect(counts.credentials == 2 * rows, "round \(round)")
      #expect(counts.provenance == 2 * rows, "round \(round)")
      #expect(counts.runs == 2, "round \(round)")
    }
  }

  final class Results: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [ProcessRunner.Output?] = []
    func append(_ item: ProcessRunner.Output?) {
      lock.lock()
      defer { lock.unlock() }
      items.append(item)
    }
    var all: [ProcessRunner.Output?] {
      lock.lock()
      defer { lock.unlock() }
      return items
    }
  }
}
