import Adal2MSALSynthetic
import ArgumentParser
import Foundation

/// Writes an input of N items as dumps of at most P items and prints what it wrote as JSON. The benchmarks
/// generate in this child so that their own memory stays small: on Linux a child starts with its parent's
/// peak RSS, which would otherwise show up in every figure. Hidden from help.
struct GenerateItemsChild: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "generate-items", abstract: "Write N items as dumps (child of the benchmarks).", shouldDisplay: false)

  @Option var items: Int = 0
  @Option var devices: Int = 0
  @Option var perDump: Int = 10_000
  @Option var minItems: Int = 10
  @Option var maxItems: Int = 50
  @Option var format: FormatChoice = .binaryPlist
  @Option var seed: UInt64 = 1
  @Option var out: String

  struct Output: Codable {
    var files: Int
    var items: Int
    var bytes: Int
  }

  func run() throws {
    let directory = URL(fileURLWithPath: out)
    let written =
      devices > 0
      ? try SyntheticFleet.writeFleet(
        devices: devices, minItems: minItems, maxItems: maxItems, format: format.single, seed: seed,
        directory: directory)
      : try SyntheticFleet.writeItems(
        items, itemsPerDump: perDump, format: format.single ?? .binaryPlist, seed: seed, directory: directory)
    print(
      String(
        decoding: try JSONEncoder().encode(Output(files: written.files, items: written.items, bytes: written.bytes)),
        as: UTF8.self))
  }
}
