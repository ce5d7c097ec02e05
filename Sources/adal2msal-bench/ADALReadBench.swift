import Adal2MSAL
import ArgumentParser
import Foundation

/// `adal2msal-bench adal-read`: how fast `ADALCacheReader` reads a large keychain dump.
///
/// Takes a plist keychain dump (e.g. Fixtures/adal/dump-multiuser.bplist), repeats its entries `--copies`
/// times, writes the result in memory as a binary plist, an XML plist, a base64 JSON and an objection JSON
/// dump, and times
/// reading each one.
struct ADALReadBench: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "adal-read", abstract: "Time ADALCacheReader on a keychain dump scaled up by repetition.")

  @Option(help: "A keychain dump with ADAL items, saved as a property list (an array of item dictionaries).")
  var input: String = "Fixtures/adal/dump-multiuser.bplist"

  @Option(help: "How many times to repeat the dump's entries.")
  var copies: Int = 500

  @Option(help: "Timed runs per format (the best is reported).")
  var runs: Int = 3

  func validate() throws {
    guard copies > 0, runs > 0 else { throw ValidationError("--copies and --runs must be positive") }
    try KeychainDumpInput.check(input)
  }

  func run() throws {
    let source = try Data(contentsOf: URL(fileURLWithPath: input))
    guard let entries = try PropertyListSerialization.propertyList(from: source, format: nil) as? [Any] else {
      throw BenchFailure("\(input): Foundation does not read it as a property list array")
    }
    let scaled = Array(repeating: entries, count: copies).flatMap { $0 }
    let json: [[String: Any]] = scaled.compactMap { entry in
      guard let item = entry as? [String: Any] else { return nil }
      return item.mapValues { value -> Any in
        switch value {
        case let data as Data: return data.base64EncodedString()
        case let date as Date: return date.formatted(.iso8601)
        default: return value
        }
      }
    }
    let objection: [[String: Any]] = scaled.compactMap { entry in
      guard let item = entry as? [String: Any] else { return nil }
      let payload = item["v_Data"] as? Data ?? Data()
      return [
        "account": item["acct"] ?? "", "service": item["svce"] ?? "", "entitlement_group": item["agrp"] ?? "",
        "generic": (item["gena"] as? Data).flatMap { String(data: $0, encoding: .utf8) } ?? "",
        "dataHex": payload.map { String(format: "%02x", $0) }.joined(), "data": "",
        "create_date": "2019-06-07 10:11:12 +0000", "modification_date": "2019-06-07 10:11:12 +0000",
        "item_class": "kSecClassGenericPassword", "type": (item["type"] as? Int).map(String.init) ?? "",
      ]
    }
    let inputs: [(String, Data)]
    do {
      inputs = [
        ("binary plist", try PropertyListSerialization.data(fromPropertyList: scaled, format: .binary, options: 0)),
        ("XML plist", try PropertyListSerialization.data(fromPropertyList: scaled, format: .xml, options: 0)),
        ("base64 JSON", try JSONSerialization.data(withJSONObject: json)),
        ("objection JSON", try JSONSerialization.data(withJSONObject: objection)),
      ]
    } catch {
      throw BenchFailure("\(input): its entries could not be written again in the four dump formats: \(error)")
    }
    let reader = ADALCacheReader()
    for (name, data) in inputs {
      var best = Duration.seconds(1_000_000)
      var items = 0
      for _ in 0..<runs {
        let start = ContinuousClock.now
        let result = try reader.read(data, file: name)
        best = min(best, ContinuousClock.now - start)
        items = result.items.count
      }
      let seconds = Double(best.components.seconds) + Double(best.components.attoseconds) / 1e18
      let perSecond = seconds > 0 ? Int(Double(scaled.count) / seconds) : 0
      print(
        "\(name): \(scaled.count) entries, \(data.count) bytes, \(items) ADAL items in "
          + String(format: "%.3f s", seconds) + " (\(perSecond) entries/s)")
    }
  }
}
