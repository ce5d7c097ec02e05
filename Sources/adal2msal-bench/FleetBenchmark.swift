import Adal2MSAL
import Adal2MSALSynthetic
import ArgumentParser
import Foundation

/// `adal2msal-bench fleet`: how reading and migrating grow with the number of device dumps in a fleet
/// directory, on all cores and on one (ADAL2MSAL_READ_CONCURRENCY=1).
struct FleetBenchmark: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "fleet",
    abstract: "Fleet scaling: read time on all cores and on one, peak memory, and end-to-end migrate, per fleet size.",
    discussion: """
      Each fleet is generated once (generate-fleet's layout, the four dump formats in turn) and kept in \
      --work-dir. For each size, fresh processes run: `fleet-read` (MigrationPipeline.read of the directory) on \
      all cores, the same on one core, and the release `adal2msal migrate` of the directory into a new store.
      """)

  @Option(parsing: .upToNextOption, help: "Fleet sizes, in devices.")
  var devices: [Int] = [1_000, 5_000, 10_000]

  @Option(help: "The fewest ADAL items on a device.")
  var minItems: Int = 10

  @Option(help: "The most ADAL items on a device.")
  var maxItems: Int = 50

  @Option(help: "The seed.")
  var seed: UInt64 = 1

  @Option(help: "Passed to adal2msal migrate as --items-per-part (its default when not given).")
  var itemsPerPart: Int?

  @OptionGroup var endToEnd: EndToEndBenchOptions

  func run() throws {
    let (work, scratch, binary) = try endToEnd.prepare()
    defer { try? FileManager.default.removeItem(at: scratch) }
    BenchMachine.printHeader()
    var lines: [String] = []
    for count in devices {
      let directory = try BenchInputs.fleet(
        devices: count, minItems: minItems, maxItems: maxItems, seed: seed, work: work)
      let parallel = try BenchChild.run(["fleet-read", "--input", directory], as: FleetReadChild.Output.self)
      let single = try BenchChild.run(
        ["fleet-read", "--input", directory], environment: ["ADAL2MSAL_READ_CONCURRENCY": "1"],
        as: FleetReadChild.Output.self)
      let store = scratch.appendingPathComponent("fleet-\(count).sqlite").path
      let endToEnd = try BenchChild.run(
        [
          "measure-command", "--", binary, "migrate", "--adal", directory, "--out", store, "--now",
          SyntheticGenerator.referenceNowISO, "--report", scratch.appendingPathComponent("report.txt").path,
        ] + (itemsPerPart.map { ["--items-per-part", String($0)] } ?? []), as: MeasureCommandChild.Output.self)
      guard endToEnd.status == 0 || endToEnd.status == 2 else {
        throw BenchFailure("adal2msal migrate of \(directory) exited with status \(endToEnd.status)")
      }
      try? FileManager.default.removeItem(atPath: store)
      let f = PipelineTable.format
      let line =
        "| \(count) | \(parallel.items) | \(f(Double(parallel.bytes) / 1_000_000, 0)) | \(f(Double(parallel.largestFile) / 1000, 0)) | "
        + "\(f(parallel.seconds, 2)) | \(f(single.seconds, 2)) | \(f(single.seconds / parallel.seconds, 2))x | \(f(parallel.cpuSeconds, 2)) | "
        + "\(parallel.peakMiB) | \(single.peakMiB) | \(f(endToEnd.seconds, 2)) | "
        + "\(PipelineTable.rate(Double(parallel.items), endToEnd.seconds)) | \(endToEnd.peakMiB) |"
      print(line)
      lines.append(line)
    }
    print(
      "\n== fleet scaling (\(ProcessInfo.processInfo.activeProcessorCount) cores, load \(BenchMachine.loadAverage())) =="
    )
    print(
      "| devices | ADAL items | input MB | largest dump KB | read s (all cores) | read s (1 core) | speed-up | read CPU s | read peak MiB (all) | read peak MiB (1) | migrate s | migrate items/s | migrate peak MiB |"
    )
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for line in lines { print(line) }
  }
}

/// Reads a fleet directory with `MigrationPipeline.read` (as migrate does) and prints its time and peak RSS as
/// one JSON line. Hidden from help.
struct FleetReadChild: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "fleet-read", abstract: "Read a fleet directory once (child of `fleet`).", shouldDisplay: false)

  @Option(help: "The fleet directory.")
  var input: String

  struct Output: Codable {
    var files: Int
    var items: Int
    var bytes: Int
    var largestFile: Int
    var seconds: Double
    var cpuSeconds: Double
    var peakMiB: Int
  }

  func run() async throws {
    let start = ContinuousClock.now
    let cpu = CPUTime.ofSelf()
    let inputs = try await MigrationPipeline().read(adal: [input], msal: [])
    let seconds = BenchFormat.toSeconds(ContinuousClock.now - start)
    let output = Output(
      files: inputs.records.count, items: inputs.adal.reduce(0) { $0 + $1.items.count },
      bytes: inputs.records.reduce(0) { $0 + $1.byteCount }, largestFile: inputs.records.map(\.byteCount).max() ?? 0,
      seconds: seconds, cpuSeconds: CPUTime.ofSelf() - cpu, peakMiB: Memory.peakMB())
    print(String(decoding: try JSONEncoder().encode(output), as: UTF8.self))
  }
}
