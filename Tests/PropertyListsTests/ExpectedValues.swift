import Foundation
import PropertyLists
import _Adal2MSALTestSupport

/// Decodes the typed `*.expected.json` / `*.archive.json` files written by
/// scripts/fixtures/make_plist_fixtures.py.
enum ExpectedValues {
  struct Malformed: Error, CustomStringConvertible {
    var description: String
  }

  static func load(_ name: String) throws -> Any {
    try JSONSerialization.jsonObject(with: Fixtures.data("plist/\(name)"))
  }

  private static func fields(_ json: Any) throws -> (String, [String: Any]) {
    guard let object = json as? [String: Any], let type = object["type"] as? String else {
      throw Malformed(description: "not a typed value: \(json)")
    }
    return (type, object)
  }

  private static func real(_ object: [String: Any]) throws -> Double {
    guard let hex = object["bits"] as? String, let bits = UInt64(hex, radix: 16) else {
      throw Malformed(description: "real without bits")
    }
    return Double(bitPattern: bits)
  }

  private static func entries(_ object: [String: Any]) throws -> [[Any]] {
    guard let entries = object["entries"] as? [[Any]] else { throw Malformed(description: "no entries") }
    return entries
  }

  private static func items(_ object: [String: Any]) throws -> [Any] {
    guard let items = object["items"] as? [Any] else { throw Malformed(description: "no items") }
    return items
  }

  /// Scalars shared by both models: returns nil for container types.
  private static func scalar(_ type: String, _ object: [String: Any]) throws -> PropertyListValue? {
    switch type {
    case "int":
      guard let text = object["value"] as? String, let value = Int128(text) else { throw Malformed(description: "int") }
      return .integer(value)
    case "real": return .real(try real(object))
    case "bool": return .bool(object["value"] as? Bool ?? false)
    case "date":
      guard let seconds = object["since2001"] as? Double else { throw Malformed(description: "date") }
      return .date(Date(timeIntervalSinceReferenceDate: seconds))
    case "data":
      guard let text = object["base64"] as? String, let data = Data(base64Encoded: text) else {
        throw Malformed(description: "data")
      }
      return .data(data)
    case "string":
      guard let text = object["value"] as? String else { throw Malformed(description: "string") }
      return .string(PropertyListString(text))
    case "uid":
      guard let number = object["value"] as? NSNumber else { throw Malformed(description: "uid") }
      return .uid(number.uint64Value)
    default: return nil
    }
  }

  static func plist(_ json: Any) throws -> PropertyListValue {
    let (type, object) = try fields(json)
    if let value = try scalar(type, object) { return value }
    switch type {
    case "array": return .array(try items(object).map(plist))
    case "dict":
      return .dictionary(
        PropertyListDictionary(
          try entries(object).map { pair in
            guard pair.count == 2, let key = pair[0] as? String else { throw Malformed(description: "dict entry") }
            return (key, try plist(pair[1]))
          }))
    default: throw Malformed(description: "unknown type \(type)")
    }
  }

  static func archive(_ json: Any) throws -> ArchiveValue {
    let (type, object) = try fields(json)
    if let value = try scalar(type, object) {
      switch value {
      case .integer(let number): return .integer(number)
      case .real(let number): return .real(number)
      case .bool(let flag): return .bool(flag)
      case .date(let date): return .date(date)
      case .data(let data): return .data(data)
      case .string(let text): return .string(text)
      default: throw Malformed(description: "\(type) in an archive")
      }
    }
    switch type {
    case "null": return .null
    case "array": return .array(try items(object).map(archive))
    case "set": return .set(try items(object).map(archive))
    case "dictionary":
      return .dictionary(
        try entries(object).map { pair in
          guard pair.count == 2 else { throw Malformed(description: "dictionary entry") }
          return ArchiveDictionaryEntry(key: try archive(pair[0]), value: try archive(pair[1]))
        })
    case "object":
      guard let className = object["class"] as? String, let index = object["index"] as? Int,
        let fieldList = object["fields"] as? [[Any]]
      else { throw Malformed(description: "object") }
      let fields = try fieldList.map { pair in
        guard pair.count == 2, let key = pair[0] as? String else { throw Malformed(description: "field") }
        return (key: key, value: try archive(pair[1]))
      }
      return .object(ArchivedObject(className: className, fields: fields, objectIndex: index))
    default: throw Malformed(description: "unknown type \(type)")
    }
  }
}
