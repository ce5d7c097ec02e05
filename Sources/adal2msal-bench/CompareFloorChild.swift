import ArgumentParser
import Foundation

/// `compare`'s floor, as a child process: read the whole input file into memory, then `PlainInsertLoop` of `rows`
/// rows of `rowBytes` bytes sliced from it. Hidden from help.
struct CompareFloorChild: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "compare-floor",
    abstract: "Read a file, then insert N plain rows into a new SQLite file (the floor of `compare`).",
    shouldDisplay: false)

  @Option var input: String
  @Option var out: String
  @Option var rows: Int
  @Option var rowBytes: Int
  /// Where to write the insert loop's own seconds (the read and the process's start left out), for the write's
  /// line of `compare`: its peer, timed in a process of its own.
  @Option var insertSecondsFile: String?

  func run() throws {
    let bytes = try PlainInsertLoop.readWhole(input)
    let start = ContinuousClock.now
    try bytes.withUnsafeBytes { try PlainInsertLoop.run(path: out, rows: rows, rowBytes: rowBytes, slicing: $0) }
    if let insertSecondsFile {
      let seconds = BenchFormat.toSeconds(ContinuousClock.now - start)
      try Data("\(seconds)\n".utf8).write(to: URL(fileURLWithPath: insertSecondsFile))
    }
  }
}
