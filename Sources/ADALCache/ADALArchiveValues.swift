import Foundation
import PropertyLists

/// Conversions from resolved archive values to the plain values `ADALTokenItem` keeps.
enum ADALArchiveValues {
  /// A string, from a plain string or defensively from an unresolved `NSString`/`NSMutableString` object.
  static func string(_ value: ArchiveValue) -> String? { value.itemText?.value }

  /// Plain value for `additionalServer`, `additionalClient`, `tombstone`, `allClaims` entries.
  static func plain(_ value: ArchiveValue, depth: Int = 0) -> ADALValue {
    guard depth < 64 else { return .null }
    switch value {
    case .null: return .null
    case .bool(let flag): return .bool(flag)
    case .integer(let number):
      if let small = Int64(exactly: number) { return .integer(small) }
      return .string(String(number))
    case .real(let number): return .real(number)
    case .string(let text): return .string(text.value)
    case .data(let bytes): return .data(bytes)
    case .date(let date): return .date(date)
    case .array(let values), .set(let values): return .array(values.map { plain($0, depth: depth + 1) })
    case .dictionary(let entries): return .object(plainEntries(entries, depth: depth + 1))
    case .object(let object):
      if let text = string(value) { return .string(text) }
      if object.className == "NSURL", let relative = object["NS.relative"].flatMap(string) {
        let base = object["NS.base"].flatMap(string) ?? ""
        return .string(
          base.isEmpty ? relative : URL(string: relative, relativeTo: URL(string: base))?.absoluteString ?? relative)
      }
      var fields = [ADALValueEntry(key: "$classname", value: .string(object.className))]
      fields += object.fields.map { ADALValueEntry(key: $0.key, value: plain($0.value, depth: depth + 1)) }
      return .object(fields)
    }
  }

  /// Dictionary entries as plain values; keys that are not strings are rendered by their kind.
  static func plainEntries(_ entries: [ArchiveDictionaryEntry], depth: Int = 0) -> [ADALValueEntry] {
    entries.map { entry in
      ADALValueEntry(key: string(entry.key) ?? "<\(entry.key.kindName)>", value: plain(entry.value, depth: depth))
    }
  }
}
