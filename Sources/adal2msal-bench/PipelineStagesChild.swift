import Adal2MSAL
import Adal2MSALSynthetic
import ArgumentParser
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Runs the migration's stages one after the other on an input directory, in this one process, and prints one
/// JSON line: each stage's time and the process's peak RSS after it, then the floors. The `pipeline`
/// benchmark starts one per input size, so that peaks do not mix. The write's peer, a plain insert loop of as many
/// rows and bytes, is not here: after this process's writes it ran at half its speed (docs/benchmarks.md, "The
/// write beside a plain insert loop"), so `pipeline` and `compare` time it in a `compare-floor` process of its own,
/// from `rowsInserted` and `meanSecretBytes`. Hidden from help.
struct PipelineStagesChild: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "pipeline-stages",
    abstract: "Time each stage of a migration of one input directory (child of `pipeline`).",
    shouldDisplay: false)

  @Option(help: "The input: an ADAL dump or a directory of dumps.")
  var input: String

  /// One stage's figures.
  struct Stage: Codable {
    var name: String
    var seconds: Double
    /// CPU seconds (user + system, all threads).
    var cpuSeconds: Double
    /// ru_maxrss after the stage, in MiB (the process's peak so far).
    var peakMiB: Int
  }

  struct Output: Codable {
    var files: Int
    var bytes: Int
    var items: Int
    var planEntries: Int
    var rowsInserted: Int
    /// The store's secret bytes spread over its rows: the length of each row of the write's peer.
    var meanSecretBytes: Int
    var reportBytes: Int
    var stages: [Stage]

    /// The first stage whose name starts with `prefix` (`write`, `floor: raw`), or nil.
    func stage(_ prefix: String) -> Stage? { stages.stage(prefix) }
  }

  func run() async throws {
    var stages: [Stage] = []
    func stage<T>(_ name: String, _ body: () async throws -> T) async rethrows -> T {
      let start = ContinuousClock.now
      let cpu = CPUTime.ofSelf()
      let result = try await body()
      stages.append(
        Stage(
          name: name, seconds: BenchFormat.toSeconds(ContinuousClock.now - start), cpuSeconds: CPUTime.ofSelf() - cpu,
          peakMiB: Memory.peakMB()))
      return result
    }
    let files = try InputFile.expand([input])
    let bytes = try await stage("floor: read bytes") { try ReadFloor.read(files) }

    let options = MigrationOptions(
      clock: .fixed(Date(timeIntervalSince1970: TimeInterval(SyntheticGenerator.referenceNow))))
    let pipeline = MigrationPipeline(options: options)
    var inputs: MigrationPipeline.Inputs? = try await stage("read + parse + decode") {
      try await pipeline.read(adal: [input], msal: [])
    }
    let items = inputs?.adal.reduce(0) { $0 + $1.items.count } ?? 0
    // Taken out of `inputs`, as `migrate` consumes its own: the planner frees the items once they are mapped.
    let plan = await stage("plan") { pipeline.plan(inputs.take()!) }
    let report = await stage("report (text)") { plan.pipelineReportText() }

    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "adal2msal-stages-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let storePath = directory.appendingPathComponent("store.sqlite").path
    // Each write starts with no other stage's dirty pages waiting to go to the disk (`sync`, not timed), so that
    // the order of the stages does not charge one for another's writes.
    sync()
    let summary = try await stage("write (CacheStore.apply)") { try CacheStore.open(path: storePath).apply(plan) }

    // The SQLite floor: the same rows (entities and provenance) through the raw C API.
    let rawPath = directory.appendingPathComponent("raw.sqlite").path
    _ = try CacheStore.open(path: rawPath)
    sync()
    try await stage("floor: raw SQLite inserts") { try RawInsertLoop.run(path: rawPath, plan: plan) }
    let shape = try CompareStores.adal2msalShape(storePath)

    let output = Output(
      files: files.count, bytes: bytes, items: items, planEntries: plan.entries.count,
      rowsInserted: summary.rowsInserted, meanSecretBytes: shape.meanSecretBytes, reportBytes: report, stages: stages)
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    print(String(decoding: try encoder.encode(output), as: UTF8.self))
  }
}

extension [PipelineStagesChild.Stage] {
  /// The first stage whose name starts with `prefix` (`write`, `floor: raw`), or nil.
  func stage(_ prefix: String) -> PipelineStagesChild.Stage? { first { $0.name.hasPrefix(prefix) } }
}

/// The reading floor: every byte of every file read from the page cache with `read(2)` into one reused buffer,
/// and summed so that nothing can be skipped. One core.
enum ReadFloor {
  static func read(_ paths: [String]) throws -> Int {
    let size = 1 << 20
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 16)
    defer { buffer.deallocate() }
    var total = 0
    var checksum: UInt64 = 0
    for path in paths {
      let descriptor = open(path, O_RDONLY)
      guard descriptor >= 0 else { throw BenchFailure("cannot open \(path)") }
      defer { close(descriptor) }
      while true {
        let count = systemRead(descriptor, buffer.baseAddress, size)
        guard count > 0 else {
          if count < 0 { throw BenchFailure("cannot read \(path)") }
          break
        }
        total += count
        let words = buffer.bindMemory(to: UInt64.self).prefix(count / 8)
        for word in words { checksum &+= word }
      }
    }
    if checksum == 42 { print("", terminator: "") }  // keeps the sum alive
    return total
  }
}

#if canImport(Glibc)
  private let systemRead = Glibc.read
#elseif canImport(Darwin)
  private let systemRead = Darwin.read
#endif
