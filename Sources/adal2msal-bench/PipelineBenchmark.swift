import Adal2MSAL
import Adal2MSALSynthetic
import ArgumentParser
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `adal2msal-bench pipeline`: each stage of a migration, and the whole `adal2msal migrate`, for several input
/// sizes, next to floors (reading the bytes; raw SQLite inserts of the same rows into the store's schema; plain
/// inserts of as many rows and bytes into a rowid table, the write's peer).
struct PipelineBenchmark: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "pipeline",
    abstract: "Per-stage and end-to-end migration figures (items/s, MB/s, peak memory) for 10k, 100k and 1M items.",
    discussion: """
      For each size, synthetic dumps of --items-per-dump items are generated (or reused from --work-dir), then \
      four fresh processes run: `pipeline-stages` (the stages one after another in one process: read bytes, \
      MigrationPipeline.read, plan, text report, CacheStore.apply, then the raw SQLite floor in the store's schema), \
      the release `adal2msal migrate` twice (a real run and a --dry-run), each timed with its peak RSS, and \
      `compare-floor`, the write's peer: as many rows and bytes as the store took, inserted into a plain rowid table \
      of a new file.
      """)

  @Option(parsing: .upToNextOption, help: "Input sizes in ADAL items.")
  var items: [Int] = [10_000, 100_000, 1_000_000]

  @Option(help: "Measure this existing input (a dump or a directory of dumps) instead of generating inputs.")
  var input: String?

  @Option(help: "The dump format of generated inputs: xml-plist, binary-plist, objection-json or base64-json.")
  var format: FormatChoice = .binaryPlist

  @Option(help: "Items per generated dump file.")
  var itemsPerDump: Int = 10_000

  @Option(help: "The seed of generated inputs.")
  var seed: UInt64 = 1

  @OptionGroup var endToEnd: EndToEndBenchOptions

  @Flag(help: "Skip the end-to-end --dry-run (the stages child still times the text report).")
  var skipDryRun = false

  func validate() throws {
    guard format != .all else { throw ValidationError("--format takes one format here") }
    guard itemsPerDump > 0, items.allSatisfy({ $0 > 0 }) else { throw ValidationError("sizes must be positive") }
  }

  func run() throws {
    let (work, scratch, binary) = try endToEnd.prepare()
    defer { try? FileManager.default.removeItem(at: scratch) }
    BenchMachine.printHeader()
    var runs: [(label: String, directory: String)] = []
    if let input {
      runs = [(input, input)]
    } else {
      for size in items {
        let directory = try BenchInputs.items(
          size, perDump: itemsPerDump, format: format.single ?? .binaryPlist, seed: seed, work: work)
        runs.append(("\(size) items", directory))
      }
    }
    var rows: [PipelineTable.Row] = []
    for (label, directory) in runs {
      let stages = try BenchChild.run(["pipeline-stages", "--input", directory], as: PipelineStagesChild.Output.self)
      // Without an item to migrate, every rate and ratio below would be of nothing.
      guard stages.items > 0 else {
        throw BenchFailure("\(label): adal2msal read no ADAL items from it; nothing to migrate, so nothing to time")
      }
      let store = scratch.appendingPathComponent("e2e-\(UUID().uuidString).sqlite").path
      let common = ["migrate", "--adal", directory, "--now", SyntheticGenerator.referenceNowISO]
      let full = try measure(
        binary, common + ["--out", store, "--report", scratch.appendingPathComponent("report.txt").path])
      let dry =
        skipDryRun
        ? nil
        : try measure(
          binary,
          common + [
            "--out", scratch.appendingPathComponent("dry.sqlite").path, "--dry-run", "--report",
            scratch.appendingPathComponent("report-dry.txt").path,
          ])
      try? FileManager.default.removeItem(atPath: store)
      // The write's peer in a process of its own, as `compare` times it: after the stages' own writes, in the same
      // process, it ran at half its speed at 160k items (docs/benchmarks.md, "The write beside a plain insert loop").
      // Started with no earlier run's pages waiting to go to the disk (`sync`, not timed).
      let files = try InputFile.expand([directory])
      let largest = files.max { InputFile.size(of: $0) < InputFile.size(of: $1) } ?? directory
      sync()
      let plain = try CompareRun.measureFloor(
        input: largest, rows: stages.rowsInserted, rowBytes: stages.meanSecretBytes, scratch: scratch,
        tag: UUID().uuidString)
      rows.append(
        PipelineTable.Row(
          label: label, stages: stages, endToEnd: full, dryRun: dry, plainInsertSeconds: plain.insertSeconds))
      PipelineTable.print(rows.last!)
    }
    PipelineTable.printSummary(rows)
  }

  private func measure(_ binary: String, _ arguments: [String]) throws -> MeasureCommandChild.Output {
    let result = try BenchChild.run(["measure-command", "--", binary] + arguments, as: MeasureCommandChild.Output.self)
    // Exit status 2 is "migrated, with skips or conflicts" (expired access tokens are skipped).
    guard result.status == 0 || result.status == 2 else {
      throw BenchFailure("adal2msal \(arguments.joined(separator: " ")) exited with status \(result.status)")
    }
    return result
  }
}

/// Generated inputs, kept in the work directory and reused when the same parameters ask for them again.
/// Written by a `generate-items` child, so that the benchmark process itself stays small.
enum BenchInputs {
  static func items(_ count: Int, perDump: Int, format: SyntheticFormat, seed: UInt64, work: URL) throws -> String {
    let directory = work.appendingPathComponent("items-\(count)-\(format.rawValue)-per\(perDump)-seed\(seed)")
    return try reuseOrWrite(
      directory,
      ["--items", String(count), "--per-dump", String(perDump), "--format", format.rawValue, "--seed", String(seed)])
  }

  static func fleet(devices: Int, minItems: Int, maxItems: Int, seed: UInt64, work: URL) throws -> String {
    let directory = work.appendingPathComponent("fleet-\(devices)-\(minItems)-\(maxItems)-seed\(seed)")
    return try reuseOrWrite(
      directory,
      [
        "--devices", String(devices), "--min-items", String(minItems), "--max-items", String(maxItems), "--format",
        "all",
        "--seed", String(seed),
      ])
  }

  /// A hidden marker (the readers skip hidden files) says the directory was written completely.
  private static func reuseOrWrite(_ directory: URL, _ arguments: [String]) throws -> String {
    let marker = directory.appendingPathComponent(".complete")
    if FileManager.default.fileExists(atPath: marker.path) { return directory.path }
    try? FileManager.default.removeItem(at: directory)
    let start = ContinuousClock.now
    let written = try BenchChild.run(
      ["generate-items", "--out", directory.path] + arguments, as: GenerateItemsChild.Output.self)
    try Data("\(written.files) files, \(written.items) items, \(written.bytes) bytes\n".utf8).write(to: marker)
    print(
      "generated \(directory.lastPathComponent): \(written.files) files, \(written.items) items, "
        + "\(written.bytes / 1_000_000) MB in \(BenchFormat.seconds(ContinuousClock.now - start)) s")
    return directory.path
  }
}
