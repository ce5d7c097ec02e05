import Adal2MSALSynthetic
import ArgumentParser
import Foundation

/// `adal2msal-bench generate-fleet`: a directory of device dumps, as a fleet's collection would be.
struct GenerateFleetCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "generate-fleet",
    abstract: "Write a directory of synthetic device dumps (deterministic for a seed, generated on all cores).",
    discussion: """
      Device i is written as device-<i>.<format extension> with between --min-items and --max-items ADAL \
      items (one user mostly, more on shared devices). The tenants are the same on every device. Without \
      --format (or with all) the devices use the four dump formats in turn.
      """)

  @Option(help: "How many devices.")
  var devices: Int = 10_000

  @Option(help: "The fewest ADAL items on a device.")
  var minItems: Int = 10

  @Option(help: "The most ADAL items on a device.")
  var maxItems: Int = 50

  @Option(help: "The output directory (created if missing).")
  var out: String

  @Option(help: "xml-plist, binary-plist, objection-json, base64-json, or all (the formats in turn).")
  var format: FormatChoice = .all

  @Option(help: "The seed.")
  var seed: UInt64 = 1

  func validate() throws {
    guard devices > 0 else { throw ValidationError("--devices must be positive") }
    guard minItems > 0, maxItems >= minItems else { throw ValidationError("need 0 < --min-items <= --max-items") }
  }

  func run() throws {
    let started = ContinuousClock.now
    let written = try SyntheticFleet.writeFleet(
      devices: devices, minItems: minItems, maxItems: maxItems, format: format.single, seed: seed,
      directory: URL(fileURLWithPath: out))
    print(
      "\(out): \(written.files) devices, \(written.items) ADAL items, \(written.bytes) bytes "
        + "(largest dump \(written.largestFile) bytes), in \(BenchFormat.seconds(ContinuousClock.now - started)) s")
  }
}
