import Adal2MSAL
import Adal2MSALSynthetic
import ArgumentParser
import Foundation

/// `adal2msal-bench compare`: adal2msal against the straightforward Python migration a user would write
/// (scripts/bench/straightforward_migrate.py) and against the floor, side by side, in one run (issue 23).
struct CompareBenchmark: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "compare",
    abstract: "adal2msal migrate vs the straightforward Python script vs the floor, on generated dumps or yours.",
    discussion: """
      For each --users size, one binary-plist keychain dump is generated (about 4 ADAL items a user; reused from \
      --work-dir); each --input is a dump of your own, compared the same way (an array of the keychain's \
      dictionaries saved as a binary or XML property list, which the script reads, with ADAL items in it: any \
      other file is refused before anything runs; adal2msal may exit 2 on it, naming in its report the items it \
      could not migrate, where a generated dump must migrate whole, status 0). On each dump --rounds rounds run, \
      each spawning in turn: the Python script (plistlib, the keyed-archive walk, sqlite3 executemany into one \
      plain table per entity type), the release `adal2msal migrate --adal DUMP --out NEW.sqlite --report FILE`, \
      the same dump against the store it made (on a generated dump every entity unchanged), as a dry \
      run and as a migration, its dry run without a store (`--dry-run --report FILE`: read, plan and report), and \
      the floor (a child that reads the file into memory and inserts as many rows as adal2msal's store has \
      entity rows, each a blob of the store's mean secret size, into a plain rowid table), and the store's write \
      alone (a `pipeline-stages` child, as `pipeline` runs it: CacheStore.apply of the dump's plan, provenance \
      included), set beside the floor's insert loop alone; the same child gives how many cores each stage kept \
      busy alone (decoding, planning, the text report, the write). Each run is timed in its own \
      `measure-command` child (wall, CPU, peak RSS). The dump and the adal2msal binary are read once \
      before the first round, so that no run reads them from disk. Every run is given --now \
      \(SyntheticGenerator.referenceNowISO), so that the contenders expire the same access tokens. Sizes of the \
      issue: --users 2500 (10k items), 10000 (40k items, the default without --input), 40000 (160k items).
      """)

  @Option(
    parsing: .upToNextOption,
    help: "Generated dump sizes in users (about 4 ADAL items each; default: 10000, none when --input is given).")
  var users: [Int] = []

  @Option(
    help: "A keychain dump of your own, with ADAL items (a binary or XML property list); repeat it for more.")
  var input: [String] = []

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
    guard rounds > 0, users.allSatisfy({ $0 > 0 }) else {
      throw ValidationError("--rounds and --users must be positive")
    }
    for path in input { try KeychainDumpInput.check(path) }
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
    let generated = users.isEmpty && input.isEmpty ? [10_000] : users
    let dumps =
      try input.map(CompareInputs.ownDump) + generated.map { try CompareInputs.dump(users: $0, seed: seed, work: work) }
    var unlike: [String] = []
    for (number, dump) in dumps.enumerated() {
      // Before the first round, so that no timed run reads the dump or the binary from disk: this VM drops the
      // pages of a file no process has read for about a minute from its page cache, and the first run of the
      // first round, the script's, paid for them alone (docs/benchmarks.md, "Side by side").
      let warming = ContinuousClock.now
      _ = try ReadFloor.read([dump.path, binary])
      let warmed = BenchFormat.seconds(ContinuousClock.now - warming)
      print("read the dump and adal2msal into the page cache in \(warmed) s")
      var results = CompareTable.Results(dump: dump)
      // Status 2: written, with items that could not be read or modelled, which its report names.
      let migrates: Set<Int32> = dump.isOwn ? [0, 2] : [0]
      for round in 1...rounds {
        let tag = "\(number)-\(round)"
        let pythonStore = scratch.appendingPathComponent("script-\(tag).sqlite").path
        results.script.append(
          try CompareRun.measure(
            [interpreter, scriptPath, dump.path, pythonStore, "--now", SyntheticGenerator.referenceNowISO],
            store: pythonStore))
        results.scriptRows = try CompareStores.scriptRows(pythonStore)

        let store = scratch.appendingPathComponent("adal2msal-\(tag).sqlite").path
        let report = scratch.appendingPathComponent("report-\(tag).txt").path
        results.adal2msal.append(
          try CompareRun.measure(
            [
              binary, "migrate", "--adal", dump.path, "--out", store, "--now", SyntheticGenerator.referenceNowISO,
              "--report", report,
            ],
            store: store, accepted: migrates))
        results.work.append(try CompareWork.compare(adal2msal: store, script: pythonStore))
        CompareStores.remove(pythonStore)
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
        results.rerunDryRun.append(try CompareRun.measure(rerun + ["--dry-run"], store: store, accepted: migrates))
        results.rerun.append(try CompareRun.measure(rerun, store: store, accepted: migrates))
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
            store: scratch.appendingPathComponent("dry-run-\(tag).sqlite").path, accepted: migrates))
        try? FileManager.default.removeItem(atPath: dryReport)

        let floor = try CompareRun.measureFloor(
          input: dump.path, rows: shape.rows, rowBytes: shape.meanSecretBytes, scratch: scratch, tag: tag)
        results.floor.append(floor.run)
        results.floorRowBytes = shape.meanSecretBytes
        results.floorInserts.append(floor.insertSeconds)

        results.writes.append(try CompareRun.measureWrite(dump: dump.path))
        print("round \(round) of \(rounds) done (\(dump.label))")
      }
      CompareTable.print(results)
      // A generated dump holds nothing either contender may skip: a difference is a fault of one of them.
      if !dump.isOwn, results.work.contains(where: { !$0.isSame }) { unlike.append(dump.label) }
    }
    if !unlike.isEmpty {
      throw BenchFailure(
        "the script and adal2msal did not migrate the same tokens, users and apps of "
          + unlike.joined(separator: ", ") + " (\"NOT the same work\" above): its ratios compare unlike runs")
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

/// The dumps `compare` runs on: generated ones, written by a `generate` child and reused when present, and a user's.
enum CompareInputs {
  struct Dump {
    var path: String
    var bytes: Int
    /// What the table's header calls it: the generated size, or the user's file.
    var label: String
    /// A user's dump (`--input`), which may hold items adal2msal cannot migrate; a generated one must migrate
    /// whole.
    var isOwn = false
  }

  static func dump(users: Int, seed: UInt64, work: URL) throws -> Dump {
    let directory = work.appendingPathComponent("compare-\(users)-users-seed\(seed)")
    let path = directory.appendingPathComponent("synthetic-\(users)-users.bplist").path
    let marker = directory.appendingPathComponent(".complete")
    let label = "\(users) users, generated binary plist"
    if FileManager.default.fileExists(atPath: marker.path) {
      return Dump(path: path, bytes: try fileSize(path), label: label)
    }
    try? FileManager.default.removeItem(at: directory)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: BenchChild.executable)
    process.arguments = [
      "generate", "--users", String(users), "--format", "binary-plist", "--seed", String(seed),
      "--out", directory.path,
    ]
    try process.run()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { throw BenchFailure("generate --users \(users) failed") }
    try Data().write(to: marker)
    return Dump(path: path, bytes: try fileSize(path), label: label)
  }

  /// A user's dump, once `KeychainDumpInput.check` has let it through.
  static func ownDump(_ path: String) throws -> Dump {
    Dump(path: path, bytes: try fileSize(path), label: path, isOwn: true)
  }

  static func fileSize(_ path: String) throws -> Int {
    (try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue ?? 0
  }
}
