import Foundation
import _Adal2MSALTestSupport

/// One case of Fixtures/bad/manifest.json (written by scripts/fixtures/make_bad_inputs.py).
struct BadInputCase: Sendable, Hashable, Decodable, CustomStringConvertible {
  /// Relative to Fixtures/bad.
  var file: String
  /// inspect, import, migrate-adal or migrate-msal (see `CLI.arguments`).
  var command: String
  /// The library reader the unit test runs: plist, keyed-archive, adal, msal-json, or file (nothing to parse).
  var reader: String
  var exit: Int32
  /// Substrings the error must contain besides the file name: the place and the problem.
  var expect: [String]
  var note: String

  var description: String { "\(command) \(file)" }
}

enum BadInputManifest {
  /// Every case, or an empty list when the manifest cannot be read (`manifestIsComplete` then fails).
  static let cases: [BadInputCase] = (try? load()) ?? []

  static func load() throws -> [BadInputCase] {
    struct Manifest: Decodable { var cases: [BadInputCase] }
    return try JSONDecoder().decode(Manifest.self, from: Fixtures.data("bad/manifest.json")).cases
  }
}
