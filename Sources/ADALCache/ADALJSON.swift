import Adal2MSALSupport
import Foundation
import UnifiedCache

/// How ADAL's JSON inputs (keychain dumps, ADAL Python / Node and ADAL.NET caches, id-token claims) are read:
/// with the project's one JSON parser, `JSONParser`, and these conversions to what the ADAL readers hold.
enum ADALJSON {
  /// Parses a whole ADAL input. Its errors carry the byte offset, line and column and never quote the input.
  ///
  /// The nesting limit applies to the document; the string and object limits apply to what it holds, once per
  /// item (`KeychainRecordBuilder` checks each decoded value, `KeychainDumpParser` counts items), so that one
  /// oversized item is that item's error, not the whole dump's. The input size bounds the document's strings
  /// and values.
  static func parse(_ data: Data, limits: InputLimits, file: String?) throws(ADALCacheError) -> JSONValue {
    var documentLimits = limits
    documentLimits.maxStringBytes = max(limits.maxStringBytes, limits.maxInputBytes)
    documentLimits.maxObjects = max(limits.maxObjects, limits.maxInputBytes)
    do {
      return try JSONParser(limits: documentLimits).parse(data, file: file)
    } catch {
      let message =
        error.reason == .limitExceeded
        ? "JSON input over a limit: \(error.message)" : "the input is not valid JSON: \(error.message)"
      throw ADALCacheError(message, at: error.location)
    }
  }

  /// A JSON document that must be an object (a part of an id token, `client_info`, an ADAL.NET entry), or nil.
  static func object(_ data: Data) -> JSONObject? {
    (try? JSONParser().parse(data))?.objectValue
  }
}

extension JSONValue {
  /// A flag as the ADAL caches' own readers take it: `true`/`false`, and the numbers 1 and 0 (ADAL Python tests
  /// `isMRRT` by truth value; 1 and 0 are the numbers both a truth test and a boolean agree on). Nil otherwise.
  var adalFlag: Bool? {
    switch self {
    case .bool(let flag): flag
    case .number(let text):
      switch Double(text) {
      case 1: true
      case 0: false
      default: nil
      }
    default: nil
    }
  }

  /// The value as the keychain attribute conversions (`KeychainAttributeValues`) take it, as a plist dump's values
  /// are: a string, a number (`Int` when the text is an integer that fits, else `Double`) or a flag. Null,
  /// arrays and objects are present but no attribute value: they are returned as they are, matching no case.
  var keychainAttribute: Any {
    switch self {
    case .string(let text): text
    case .bool(let flag): flag
    case .number(let text): Int(text).map { $0 as Any } ?? (Double(text) ?? .nan)
    case .null, .array, .object: self
    }
  }
}

extension ADALValue {
  /// A JSON value. A number whose text has no fraction or exponent and fits `Int64` is an integer; any other
  /// number is a `Double` (an integer beyond 64 bits keeps its magnitude, not its low bits). Object members are
  /// sorted by key. Nesting beyond 64 levels reads as null.
  init(json: JSONValue, depth: Int = 0) {
    guard depth < 64 else {
      self = .null
      return
    }
    switch json {
    case .null: self = .null
    case .bool(let flag): self = .bool(flag)
    case .number(let text): self = ADALValue(jsonNumber: text)
    case .string(let text): self = .string(text)
    case .array(let items): self = .array(items.map { ADALValue(json: $0, depth: depth + 1) })
    case .object(let object):
      self = .object(
        object.members.sorted { $0.key < $1.key }.map {
          ADALValueEntry(key: $0.key, value: ADALValue(json: $0.value, depth: depth + 1))
        })
    }
  }

  /// A JSON number's text: an integer when it has no fraction or exponent and fits `Int64`, else a `Double`.
  init(jsonNumber text: String) {
    if !text.utf8.contains(where: { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }),
      let integer = Int64(text)
    {
      self = .integer(integer)
    } else {
      self = .real(Double(text) ?? .nan)
    }
  }
}
