import Adal2MSALSynthetic
import ArgumentParser
import Foundation

/// `adal2msal-bench compare`: adal2msal against the straightforward Python migration a user would write
/// (scripts/bench/straightforward_migrate.py) and against the floor, side by side, in one run (issue 23).
struct CompareBenchmark: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "compare",
    abstract: "adal2msal migrate vs the straightforward Python script vs the floor, on one generated dump.",
    discussion: """
      For each --users size, one binary-plist keychain dump is generated (about 4 ADAL items a user; reused from \
      --work-dir), then --rounds rounds run, each spawning in turn: the Python script (plistlib, the keyed-archive \
      walk, sqlite3 executemany into one plain table per entity type), the release `adal2msal migrate --adal DUMP \
      --out NEW.sqlite --report FILE`, the same dump against the store it made (every entity unchanged), as a dry \
      run and as a migration, its dry run without a store (`--dry-run --report FILE`: read, plan and report), and \
      the floor (a child that reads the file into memory and inserts as many rows as adal2msal's store has \
      entity rows, each a blob of the store's mean secret size, into a plain rowid table), and the store's write \
      alone (a `pipeline-stages` child, as `pipeline` runs it: CacheStore.apply of the dump's plan, provenance \
      included), set beside the floor's insert loop alone. Each run is timed in its own \
      `measure-command` child (wall, CPU, peak RSS). The dump and the adal2msal binary are read once \
      before the first round, so that no run reads them from disk. Sizes of the issue: \
      --users 2500 (10k items), 10000 (40k items, the default), 40000 (160k items).
      """)

  @Option(parsing: .upToNextOption, help: "Dump sizes in users (about 4 ADAL items each).")
  var users: [Int] = [10_000]

  @Option(help: "Rounds of the runs, interleaved.")
  var rounds: Int = 3

  @Option(help: "The seed of the generated dump.")
  var seed: UInt64 = 1

  @Option(help: "The Python interpreter (default: /usr/bin/python3, the system one, else python3 on PATH).")
  var python: String?

  @Option(help: "The straightforward script (default: scripts/bench/straightforward_migrate.py of this source tree).")
  var script: String?

  @OptionGroup var endToEnd: EndToEndBenchOptions

  func validate() throws {
    guard rounds > 0, !users.isEmpty, users.allSatisfy({ $0 > 0 }) else {
      throw ValidationError("--rounds and --users must be positive")
    }
  }

  func run() throws {
    let (work, scratch, binary) = try endToEnd.prepare()
    defer { try? FileManager.default.removeItem(at: scratch) }
    let interpreter = try CompareContenders.python(python)
    let scriptPath = script ?? CompareContenders.defaultScript
    guard FileManager.default.fileExists(atPath: scriptPath) else {
      throw ValidationError("no script at \(scriptPath)")
    }
    BenchMachine.printHeader()
    print("python: \(CompareContenders.version(of: interpreter)) (\(interpreter)); script: \(scriptPath)")
    print("adal2msal: \(binary); Swift runtime: \(EndToEndBenchOptions.swiftRuntime(of: binary))")
    for size in users {
      let dump = try CompareInputs.dump(users: size, seed: seed, work: work)
      // Before the first round, so that no timed run reads the dump or the binary from disk: this VM drops the
      // pages of a file no process has read for about a minute from its page cache, and the first run of the
      // first round, the script's, paid for them alone (docs/benchmarks.md, "Side by side").
      let warming = ContinuousClock.now
      _ = try ReadFloor.read([dump.path, binary])
      let warmed = BenchFormat.seconds(ContinuousClock.now - warming)
      print("read the dump and adal2msal into the page cache in \(warmed) s")
      var results = CompareTable.Results(users: size, dump: dump)
      for round in 1...rounds {
        let tag = "\(size)-\(round)"
        let pythonStore = scratch.appendingPathComponent("script-\(tag).sqlite").path
        results.script.append(
          try CompareRun.measure(
            [interpreter, scriptPath, dump.path, pythonStore, "--now", SyntheticGenerator.referenceNowISO],
            store: pythonStore))
        results.scriptRows = try CompareStores.scriptRows(pythonStore)
        CompareStores.remove(pythonStore)

        let store = scratch.appendingPathComponent("adal2msal-\(tag).sqlite").path
        let report = scratch.appendingPathComponent("report-\(tag).txt").path
        results.adal2msal.append(
          try CompareRun.measure(
            [
              binary, "migrate", "--adal", dump.path, "--out", store, "--now", SyntheticGenerator.referenceNowISO,
              "--report", report,
            ],
            store: store))
        let shape = try CompareStores.adal2msalShape(store)
        results.adal2msalRows = shape.rows
        results.adal2msalPayloadBytes = try CompareStores.adal2msalPayloadBytes(store)
        // What a team runs before migrating again, and the migration again: the same dump against the store it
        // made, every entity unchanged (the dry run opens the store read-only; the run adds a run record).
        let rerunReport = scratch.appendingPathComponent("rerun-\(tag).txt").path
        let rerun = [
          binary, "migrate", "--adal", dump.path, "--out", store, "--now", SyntheticGenerator.referenceNowISO,
          "--report", rerunReport,
        ]
        results.rerunDryRun.append(try CompareRun.measure(rerun + ["--dry-run"], store: store))
        results.rerun.append(try CompareRun.measure(rerun, store: store))
        try? FileManager.default.removeItem(atPath: rerunReport)
        CompareStores.remove(store)
        try? FileManager.default.removeItem(atPath: report)

        let dryReport = scratch.appendingPathComponent("dry-run-\(tag).txt").path
        results.dryRun.append(
          try CompareRun.measure(
            [
              binary, "migrate", "--adal", dump.path, "--dry-run", "--now", SyntheticGenerator.referenceNowISO,
              "--report", dryReport,
            ],
            store: scratch.appendingPathComponent("dry-run-\(tag).sqlite").path))
        try? FileManager.default.removeItem(atPath: dryReport)

        let floor = try CompareRun.measureFloor(
          input: dump.path, rows: shape.rows, rowBytes: shape.meanSecretBytes, scratch: scratch, tag: tag)
        results.floor.append(floor.run)
        results.floorRowBytes = shape.meanSecretBytes
        results.floorInserts.append(floor.insertSeconds)

        results.writes.append(try CompareRun.measureWrite(dump: dump.path))
        print("round \(round) of \(rounds) done (\(size) users)")
      }
      CompareTable.print(results)
    }
  }
}

/// Where the contenders come from.
enum CompareContenders {
  /// The script in this source tree: found from this file's path, so a release build in a checkout finds it.
  static var defaultScript: String {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("scripts/bench/straightforward_migrate.py").path
  }

  /// The interpreter to run: the given one, else the system Python, else the first `python3` on PATH.
  static func python(_ given: String?) throws -> String {
    if let given { return try resolve(given) }
    if FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") { return "/usr/bin/python3" }
    return try resolve("python3")
  }

  private static func resolve(_ name: String) throws -> String {
    if name.contains("/") { return name }
    for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
      let candidate = "\(directory)/\(name)"
      if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    throw ValidationError("no \(name) on PATH: pass --python")
  }

  static func version(of interpreter: String) -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: interpreter)
    process.arguments = ["--version"]
    let pipe = Pipe()
    process.standardOutput = pipe
    guard (try? process.run()) != nil else { return "unknown Python" }
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
  }
}

/// The generated dump of a size: one binary plist, written by a `generate` child and reused when present.
enum CompareInputs {
  struct Dump {
    var path: String
    var bytes: Int
    var items: Int
  }

  static func dump(users: Int, seed: UInt64, work: URL) throws -> Dump {
    let directory = work.appendingPathComponent("compare-\(users)-users-seed\(seed)")
    let path = directory.appendingPathComponent("synthetic-\(users)-users.bplist").path
    let marker = directory.appendingPathComponent(".complete")
    if let recorded = try? String(contentsOf: marker, encoding: .utf8),
      let items = Int(recorded.trimmingCharacters(in: .whitespacesAndNewlines))
    {
      return Dump(path: path, bytes: try fileSize(path), items: items)
    }
    try? FileManager.default.removeItem(at: directory)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: BenchChild.executable)
    process.arguments = [
      "generate", "--users", String(users), "--format", "binary-plist", "--seed", String(seed),
      "--out", directory.path,
    ]
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    // "PATH: N ADAL items, B bytes"; the dump also holds one unrelated keychain item.
    guard process.terminationStatus == 0,
      let line = output.split(separator: "\n").first(where: { $0.contains(" ADAL items") }),
      let items = Int(line.split(separator: ": ").last?.split(separator: " ").first ?? "")
    else { throw ValidationError("generate --users \(users) failed") }
    try Data("\(items)\n".utf8).write(to: URL(fileURLWithPath: marker.path))
    let dump = Dump(path: path, bytes: try fileSize(path), items: items)
    print("generated \(path): \(items) ADAL items, \(dump.bytes) bytes")
    return dump
  }

  static func fileSize(_ path: String) throws -> Int {
    (try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue ?? 0
  }
}
