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
      process.waitUntilExit()
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

    var generator = SystemRandomNumberGenerator()
    var killedMidway = 0
    var completed = 0
    // Large applies killed inside the transaction, then smaller ones whose kill may land in the commit or after.
    let attempts: [(rows: Int, maxDelayMS: Int)] =
      Array(repeating: (200_000, 4_000), count: 6)
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
