import Adal2MSAL
import Foundation
import Testing
import _Adal2MSALTestSupport

/// Every `InputLimits` value in every reader: an input of Fixtures/limits (scripts/fixtures/make_limit_inputs.py)
/// read with that one limit made tiny is refused with a message that names the limit (its value and what it
/// counts), and the same input reads with the defaults. The ADAL reader refuses an oversized item's data as a
/// diagnostic (the other items are read), so for it the diagnostic must name the limit.
@Suite("Input limits")
struct LimitTests {
  enum Limit: String, Sendable, CaseIterable {
    case inputBytes, objects, depth, stringBytes, expansion

    var tiny: Int {
      switch self {
      case .inputBytes: 64
      case .objects: 10
      case .depth: 5
      case .stringBytes: 100
      case .expansion: 2
      }
    }

    func limits() -> InputLimits {
      var limits = InputLimits.default
      switch self {
      case .inputBytes: limits.maxInputBytes = tiny
      case .objects: limits.maxObjects = tiny
      case .depth: limits.maxDepth = tiny
      case .stringBytes: limits.maxStringBytes = tiny
      case .expansion: limits.maxExpansionFactor = tiny
      }
      return limits
    }

    /// Words one of which a message about this limit uses.
    var words: [String] {
      switch self {
      case .inputBytes: ["bytes"]
      case .objects: ["objects", "values", "items"]
      case .depth: ["deep", "nest"]
      case .stringBytes: ["bytes", "long"]
      case .expansion: ["expand"]
      }
    }
  }

  enum Reader: String, Sendable {
    /// `PropertyListReader` (binary or XML by content), then the keyed-archive resolver when it is one.
    case plist
    /// The keyed-archive resolver alone, on a property list read with the default limits.
    case archiveResolver
    case unifiedJSON
    case adal
  }

  struct Case: Sendable, CustomStringConvertible {
    var file: String
    var reader: Reader
    var limit: Limit
    var description: String { "\(reader) \(limit.rawValue) \(file)" }
  }

  static let cases: [Case] = [
    Case(file: "plist-input.bplist", reader: .plist, limit: .inputBytes),
    Case(file: "plist-objects.bplist", reader: .plist, limit: .objects),
    Case(file: "plist-depth.bplist", reader: .plist, limit: .depth),
    Case(file: "plist-string.bplist", reader: .plist, limit: .stringBytes),
    Case(file: "plist-expansion.bplist", reader: .plist, limit: .expansion),
    Case(file: "plist-input.xml.plist", reader: .plist, limit: .inputBytes),
    Case(file: "plist-objects.xml.plist", reader: .plist, limit: .objects),
    Case(file: "plist-depth.xml.plist", reader: .plist, limit: .depth),
    Case(file: "plist-string.xml.plist", reader: .plist, limit: .stringBytes),
    Case(file: "archive-objects.bplist", reader: .archiveResolver, limit: .objects),
    Case(file: "archive-depth.bplist", reader: .archiveResolver, limit: .depth),
    Case(file: "archive-expansion.bplist", reader: .archiveResolver, limit: .expansion),
    Case(file: "archive-string.bplist", reader: .plist, limit: .stringBytes),
    Case(file: "archive-depth.bplist", reader: .plist, limit: .depth),
    Case(file: "archive-expansion.bplist", reader: .plist, limit: .expansion),
    Case(file: "json-input.json", reader: .unifiedJSON, limit: .inputBytes),
    Case(file: "json-objects.json", reader: .unifiedJSON, limit: .objects),
    Case(file: "json-depth.json", reader: .unifiedJSON, limit: .depth),
    Case(file: "json-string.json", reader: .unifiedJSON, limit: .stringBytes),
    Case(file: "json-input.json", reader: .adal, limit: .inputBytes),
    Case(file: "adal-items.xml.plist", reader: .adal, limit: .objects),
    Case(file: "adal-items.json", reader: .adal, limit: .objects),
    Case(file: "adal-depth.json", reader: .adal, limit: .depth),
    Case(file: "plist-depth.bplist", reader: .adal, limit: .depth),
    Case(file: "adal-item-data.xml.plist", reader: .adal, limit: .stringBytes),
    Case(file: "archive-expansion.bplist", reader: .adal, limit: .expansion),
  ]

  /// The error (or, for the ADAL reader, the first error diagnostic) reading `file` with `limits`; nil if none.
  static func problem(_ file: String, reader: Reader, limits: InputLimits) throws -> String? {
    let data = try Fixtures.data("limits/" + file)
    do {
      switch reader {
      case .plist: _ = try PropertyListInspection.inspect(data, file: file, limits: limits)
      case .archiveResolver:
        let document = try PropertyListReader().read(data, file: file)
        _ = try KeyedArchiveReader(limits: limits).read(document.value, file: file)
      case .unifiedJSON: _ = try UnifiedCacheJSONReader(limits: limits).read(data, file: file)
      case .adal:
        let result = try ADALCacheReader(limits: limits).read(data, file: file)
        return result.diagnostics.first { $0.code == "adal.limit" }?.description
      }
      return nil
    } catch {
      return (error as? LocalizedError)?.errorDescription ?? "\(error)"
    }
  }

  @Test("each limit, in each reader, is enforced and named", arguments: cases)
  func limitIsNamed(_ limitCase: Case) throws {
    let message = try Self.problem(limitCase.file, reader: limitCase.reader, limits: limitCase.limit.limits())
    let text = try #require(message, "\(limitCase): read without an error under the limit \(limitCase.limit.tiny)")
    #expect(text.contains(String(limitCase.limit.tiny)), "\(limitCase): the limit's value is not named: \(text)")
    #expect(limitCase.limit.words.contains { text.contains($0) }, "\(limitCase): the limit is not named: \(text)")
    #expect(text.contains(limitCase.file), "\(limitCase): the file is not named: \(text)")
  }

  /// adal-depth.json is a JSON dump of nested arrays, items and not a cache (only its depth matters): not here.
  @Test(
    "the same inputs read with the default limits",
    arguments: Set(cases.map(\.file)).subtracting(["adal-depth.json"]).sorted())
  func defaultsAccept(_ file: String) throws {
    let reader: Reader = file.hasPrefix("json") ? .unifiedJSON : file.hasPrefix("adal") ? .adal : .plist
    #expect(try Self.problem(file, reader: reader, limits: .default) == nil)
  }
}
