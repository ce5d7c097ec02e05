import Adal2MSALSynthetic
import ArgumentParser
import Foundation

/// `adal2msal-bench generate`: one synthetic dump of N users, in one or every dump format.
struct GenerateCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "generate",
    abstract: "Write a synthetic ADAL keychain dump of N users (deterministic for a seed).",
    discussion: """
      Users are spread over tenants of the public, China and US Government clouds; each has an MRRT, a family \
      refresh token (family apps, ADAL 2.1+) and access tokens for one to four resources (about 60% expired \
      at \(SyntheticGenerator.referenceNowISO): pass `--now \(SyntheticGenerator.referenceNowISO)` to migrate). \
      With --format all, the same items are written in every format.
      """)

  @Option(help: "How many users.")
  var users: Int = 100

  @Option(help: "The output directory (created if missing).")
  var out: String

  @Option(help: "xml-plist, binary-plist, objection-json, base64-json or all.")
  var format: FormatChoice = .all

  @Option(help: "The seed.")
  var seed: UInt64 = 1

  func validate() throws {
    guard users > 0 else { throw ValidationError("--users must be positive") }
  }

  func run() throws {
    let started = ContinuousClock.now
    var generator = SyntheticGenerator(seed: seed)
    let dump = generator.dump(users: users)
    let directory = URL(fileURLWithPath: out)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    for dumpFormat in format.formats {
      let bytes = dumpFormat.encode(dump)
      let url = directory.appendingPathComponent("synthetic-\(users)-users.\(dumpFormat.fileExtension)")
      try Data(bytes).write(to: url)
      print("\(url.path): \(dump.items.count) ADAL items, \(bytes.count) bytes")
    }
    print("generated in \(BenchFormat.seconds(ContinuousClock.now - started)) s")
  }
}

/// A dump format, or all of them.
enum FormatChoice: String, ExpressibleByArgument, CaseIterable {
  case all
  case xmlPlist = "xml-plist"
  case binaryPlist = "binary-plist"
  case objectionJSON = "objection-json"
  case base64JSON = "base64-json"

  /// The formats to write; `all` is every format.
  var formats: [SyntheticFormat] {
    self == .all ? SyntheticFormat.allCases : [SyntheticFormat(rawValue: rawValue)].compactMap { $0 }
  }

  /// One format, or nil for `all` (in a fleet: the formats in turn).
  var single: SyntheticFormat? { SyntheticFormat(rawValue: rawValue) }
}

/// Number formatting shared by the benchmark subcommands.
enum BenchFormat {
  static func seconds(_ duration: Duration) -> String { String(format: "%.3f", toSeconds(duration)) }

  static func toSeconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
  }
}
