import Adal2MSAL
import Adal2MSALSynthetic
import ArgumentParser
import Foundation
import GRDBSQLite

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `adal2msal-bench store`: applies a plan of N access tokens to a fresh store, beside its peer, the loop a user
/// would write (`PlainInsertLoop`: as many rows, each as many bytes as a stored row's tokens and fields, into a plain
/// rowid table, in a process of its own), and beside a raw sqlite3 C API loop that inserts the same rows
/// (credentials and provenance) into the store's own schema with the same pragmas (WAL, synchronous FULL, one
/// transaction). That last loop inherits the schema's cost, which hid it (issue 23), so the ratio to read is the
/// peer's. Prints rows/s for each and the peak memory.
struct StoreBenchmark: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "store",
    abstract: "Store apply rate (rows/s) and peak memory, beside a plain SQLite loop and a raw loop of its schema.")

  @Option(help: "How many access tokens the plan adds.")
  var rows: Int = 1_000_000

  @Flag(help: "Seal the secrets with a random key (AES-GCM) in the store run.")
  var encrypted = false

  func validate() throws {
    guard rows > 0 else { throw ValidationError("--rows must be positive") }
  }

  func run() async throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "adal2msal-bench-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }

    var clock = ContinuousClock.now
    let plan = SyntheticStorePlan.make(count: rows, seed: 42)
    let generated = seconds(since: clock)
    let afterPlan = Memory.currentMB()
    print("plan: \(rows) access tokens generated in \(format(generated)) s, RSS \(afterPlan) MB")

    let rawPath = directory.appendingPathComponent("raw.sqlite").path
    _ = try CacheStore.open(path: rawPath)  // the same schema, created by the store, then closed
    clock = ContinuousClock.now
    var cpu = CPUTime.ofSelf()
    try RawInsertLoop.run(path: rawPath, plan: plan)
    let rawSeconds = seconds(since: clock)
    let rawCPU = CPUTime.ofSelf() - cpu

    let sealing = encrypted ? try SecretSealing(keyBytes: Data((0..<32).map { _ in UInt8.random(in: 0...255) })) : nil
    let storePath = directory.appendingPathComponent("store.sqlite").path
    let store = try CacheStore.open(path: storePath, options: CacheStoreOptions(sealing: sealing))
    clock = ContinuousClock.now
    cpu = CPUTime.ofSelf()
    let summary = try store.apply(plan)
    let storeSeconds = seconds(since: clock)
    let storeCPU = CPUTime.ofSelf() - cpu
    guard summary.rowsInserted == rows else {
      throw BenchFailure("the store inserted \(summary.rowsInserted) rows, expected \(rows)")
    }

    // The peer writes what the store holds of each row: its tokens and fields, not its keys, hashes and lookup
    // columns (`CompareStores.adal2msalPayloadBytes`), sliced from random bytes so that no two rows are alike.
    let rowBytes = Int((Double(try CompareStores.adal2msalPayloadBytes(storePath)) / Double(rows)).rounded())
    let source = directory.appendingPathComponent("peer-source.bin")
    var generator = SyntheticRandom(seed: 42)
    try Data(generator.bytes(4 << 20)).write(to: source)
    sync()
    let plainSeconds = try CompareRun.measureFloor(
      input: source.path, rows: rows, rowBytes: rowBytes, scratch: directory, tag: "store"
    ).insertSeconds

    let rawRate = Double(rows) / rawSeconds
    let storeRate = Double(rows) / storeSeconds
    let plainRate = Double(rows) / plainSeconds
    print(
      "plain SQLite loop:   \(format(plainSeconds)) s, \(Int(plainRate)) rows/s (the peer: rows of \(rowBytes) bytes, "
        + "the store's tokens and fields a row, into a plain rowid table, in a process of its own)")
    print(
      "raw sqlite3 loop:    \(format(rawSeconds)) s, \(Int(rawRate)) rows/s; CPU \(cpuFigures(rawCPU)) (the store's "
        + "own schema)")
    print(
      "CacheStore.apply:    \(format(storeSeconds)) s, \(Int(storeRate)) rows/s; CPU \(cpuFigures(storeCPU))"
        + (encrypted ? " (secrets sealed)" : ""))
    print("ratio store/plain:   \(format(storeRate / plainRate))")
    print("ratio store/raw:     \(format(storeRate / rawRate)) (a loop of the store's schema, which inherits its cost)")
    print("peak RSS (process):  \(Memory.peakMB()) MB (the plan alone: \(afterPlan) MB)")
  }

  private func seconds(since start: ContinuousClock.Instant) -> Double {
    let elapsed = ContinuousClock.now - start
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
  }

  private func format(_ value: Double) -> String { String(format: "%.3f", value) }

  /// CPU seconds and the rows per CPU second: the figure to compare on a machine other jobs load.
  private func cpuFigures(_ cpu: Double) -> String { "\(format(cpu)) s, \(Int(Double(rows) / cpu)) rows/s" }
}

/// Process memory from the kernel.
enum Memory {
  /// Peak resident set size (ru_maxrss, kilobytes on Linux).
  static func peakMB() -> Int {
    var usage = rusage()
    #if canImport(Darwin)
      getrusage(RUSAGE_SELF, &usage)
      return Int(usage.ru_maxrss) / (1024 * 1024)
    #else
      getrusage(RUSAGE_SELF.rawValue, &usage)
      return Int(usage.ru_maxrss) / 1024
    #endif
  }

  /// Current resident set size, from /proc/self/statm on Linux (the peak elsewhere).
  static func currentMB() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return peakMB() }
    let fields = text.split(separator: " ")
    guard fields.count > 1, let pages = Int(fields[1]) else { return peakMB() }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE))) / (1024 * 1024)
  }
}
