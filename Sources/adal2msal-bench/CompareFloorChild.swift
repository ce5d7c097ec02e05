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

  func run() throws {
    let bytes = try PlainInsertLoop.readWhole(input)
    try bytes.withUnsafeBytes { try PlainInsertLoop.run(path: out, rows: rows, rowBytes: rowBytes, slicing: $0) }
  }
}
