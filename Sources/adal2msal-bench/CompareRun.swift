import Foundation
import GRDB

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One timed run of a contender of `compare`, in its own `measure-command` child (so peaks do not mix).
enum CompareRun {
  struct Sample {
    var seconds: Double
    var cpuSeconds: Double
    var peakMiB: Int
    /// The store file after the run (with its WAL, if one is left).
    var storeBytes: Int
    /// The CPU the rest of the machine used during the run, in cores (other users' builds on a shared host):
    /// all CPU time /proc/stat counted, steal included, minus the run's own. Runs above 0.25 are marked loaded.
    var othersCores: Double?
    /// The run's exit status: 0, or 2 where `measure` accepted it (a user's dump holding items adal2msal could not
    /// migrate).
    var status: Int32 = 0

    var loaded: Bool { (othersCores ?? 0) > CompareRun.loadedAbove }
  }

  /// The store's write as the `pipeline` benchmark times it, in a `pipeline-stages` child (the stages one after
  /// another in one process): `CacheStore.apply` of the dump's plan into a new store, provenance, the store's
  /// opening and its commit included.
  struct WriteSample {
    var seconds: Double
    /// Entity rows written.
    var rows: Int
    /// The ADAL items the child read from the dump.
    var items: Int
    /// As `Sample.othersCores`, over the child's whole life (its read, plan and report too).
    var othersCores: Double?
    /// Every stage of the child, one after another: how busy the cores were in each (`CompareTable.coresBusy`).
    var stages: [PipelineStagesChild.Stage]

    var loaded: Bool { (othersCores ?? 0) > CompareRun.loadedAbove }
  }

  static let loadedAbove = 0.25

  /// Runs `command` measured; an exit status outside `accepted` is an error: a generated dump is meant to migrate
  /// whole, and a contender that failed was not timed doing its work.
  static func measure(_ command: [String], store: String, accepted: Set<Int32> = [0]) throws -> Sample {
    let before = busyTicks()
    let result = try BenchChild.run(["measure-command", "--"] + command, as: MeasureCommandChild.Output.self)
    let after = busyTicks()
    guard accepted.contains(result.status) else {
      throw BenchFailure(
        "\(command.prefix(3).joined(separator: " ")) exited with status \(result.status) (accepted: "
          + "\(accepted.sorted().map(String.init).joined(separator: ", ")))")
    }
    let others = othersCores(busyTicks: before, after, ownCPU: result.cpuSeconds, seconds: result.seconds)
    let size = ["", "-wal"].reduce(0) { $0 + ((try? CompareInputs.fileSize(store + $1)) ?? 0) }
    return Sample(
      seconds: result.seconds, cpuSeconds: result.cpuSeconds, peakMiB: result.peakMiB, storeBytes: size,
      othersCores: others, status: result.status)
  }

  /// Times the store's write of `dump` (`WriteSample`).
  static func measureWrite(dump: String) throws -> WriteSample {
    let before = busyTicks()
    let cpu = CPUTime.ofChildren()
    let start = ContinuousClock.now
    let output = try BenchChild.run(["pipeline-stages", "--input", dump], as: PipelineStagesChild.Output.self)
    let seconds = BenchFormat.toSeconds(ContinuousClock.now - start)
    guard let write = output.stage("write") else {
      throw BenchFailure("pipeline-stages --input \(dump) printed no write stage")
    }
    return WriteSample(
      seconds: write.seconds, rows: output.rowsInserted, items: output.items,
      othersCores: othersCores(
        busyTicks: before, busyTicks(), ownCPU: CPUTime.ofChildren() - cpu, seconds: seconds),
      stages: output.stages)
  }

  /// `compare`'s floor in a `compare-floor` child: `input` read whole, then a plain insert loop of `rows` rows of
  /// `rowBytes` bytes into a new file in `scratch`, removed afterwards. The run, and the loop's own seconds: the
  /// store's write's peer, timed in a process of its own.
  static func measureFloor(
    input: String, rows: Int, rowBytes: Int, scratch: URL, tag: String
  ) throws -> (run: Sample, insertSeconds: Double) {
    let store = scratch.appendingPathComponent("floor-\(tag).sqlite").path
    let inserts = scratch.appendingPathComponent("floor-\(tag).seconds").path
    defer { CompareStores.remove(store) }
    let run = try measure(
      [
        BenchChild.executable, "compare-floor", "--input", input, "--out", store, "--rows", String(rows),
        "--row-bytes", String(rowBytes), "--insert-seconds-file", inserts,
      ],
      store: store)
    return (run, try seconds(in: inserts))
  }

  /// The seconds a child wrote to `path` (`compare-floor --insert-seconds-file`), which is then removed.
  private static func seconds(in path: String) throws -> Double {
    defer { try? FileManager.default.removeItem(atPath: path) }
    guard let text = try? String(contentsOfFile: path, encoding: .utf8),
      let seconds = Double(text.trimmingCharacters(in: .whitespacesAndNewlines))
    else { throw BenchFailure("no seconds in \(path)") }
    return seconds
  }

  /// The cores the rest of the machine kept busy, on average, while a child used `ownCPU` seconds of CPU in
  /// `seconds`; nil off Linux.
  private static func othersCores(busyTicks before: Int?, _ after: Int?, ownCPU: Double, seconds: Double) -> Double? {
    guard let before, let after, seconds > 0 else { return nil }
    let busy = Double(after - before) / Double(sysconf(Int32(_SC_CLK_TCK)))
    return max(0, busy - ownCPU) / seconds
  }

  /// Busy clock ticks of all CPUs so far (user, nice, system, irq, softirq, steal), or nil off Linux.
  private static func busyTicks() -> Int? {
    guard let stat = try? String(contentsOfFile: "/proc/stat", encoding: .utf8),
      let line = stat.split(separator: "\n").first, line.hasPrefix("cpu ")
    else { return nil }
    let fields = line.split(separator: " ").dropFirst().compactMap { Int($0) }
    guard fields.count >= 8 else { return nil }
    // user nice system idle iowait irq softirq steal: everything but idle and iowait.
    return fields[0] + fields[1] + fields[2] + fields[5] + fields[6] + fields[7]
  }
}

/// What `compare` reads back from the stores: row counts, and the floor's row shape.
enum CompareStores {
  /// Rows of the script's five tables.
  static func scriptRows(_ path: String) throws -> Int {
    let queue = try DatabaseQueue(path: path)
    return try queue.read { db in
      try ["accounts", "access_tokens", "refresh_tokens", "id_tokens", "app_metadata"].reduce(0) {
        $0 + (try Int.fetchOne(db, sql: "SELECT count(*) FROM \($1)") ?? 0)
      }
    }
  }

  /// adal2msal's entity rows (accounts, credentials, app metadata) and their secrets' mean size in bytes.
  static func adal2msalShape(_ path: String) throws -> (rows: Int, meanSecretBytes: Int) {
    let queue = try DatabaseQueue(path: path)
    return try queue.read { db in
      let accounts = try Int.fetchOne(db, sql: "SELECT count(*) FROM accounts") ?? 0
      let metadata = try Int.fetchOne(db, sql: "SELECT count(*) FROM app_metadata") ?? 0
      let row = try Row.fetchOne(db, sql: "SELECT count(*), total(length(secret)) FROM credentials")
      let credentials: Int = row?[0] ?? 0
      let secretBytes: Double = row?[1] ?? 0
      let rows = accounts + metadata + credentials
      return (rows, rows == 0 ? 0 : Int((secretBytes / Double(rows)).rounded()))
    }
  }

  /// Columns of adal2msal's entity tables that hold no field of the entity: row ids, hashes, the key (derived
  /// from the fields, or a kept spelling of them) and lookup columns derived from other columns.
  static let notPayload: Set<String> = [
    "id", "key", "key_hash", "home_account_hash", "username_hash", "environment_group",
  ]

  /// The bytes of the tokens and fields adal2msal's store holds (issue 23's "store at most 1.2x the bytes of
  /// the tokens and fields it holds"): every entity column's value but `notPayload`'s, as stored (text and
  /// blobs by their length, numbers by the length of their text).
  static func adal2msalPayloadBytes(_ path: String) throws -> Int {
    let queue = try DatabaseQueue(path: path)
    return try queue.read { db in
      var total = 0.0
      for table in ["accounts", "credentials", "app_metadata"] {
        let columns = try db.columns(in: table).map(\.name).filter { !notPayload.contains($0) }
        let sum = columns.map { "total(length(CAST(\($0) AS BLOB)))" }.joined(separator: " + ")
        total += try Double.fetchOne(db, sql: "SELECT \(sum) FROM \(table)") ?? 0
      }
      return Int(total)
    }
  }

  static func remove(_ path: String) {
    for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: path + suffix) }
  }
}
