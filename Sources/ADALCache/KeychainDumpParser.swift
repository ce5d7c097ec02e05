import Adal2MSALSupport
import Foundation
import PropertyLists

/// Turns a keychain dump (plist or JSON) into `KeychainRecord`s. Dialects are told apart by content.
struct KeychainDumpParser {
  let limits: InputLimits
  let file: String?

  /// Keychain class names as dumps use them for the class-keyed layout.
  static let classKeys: Set<String> = ["genp", "inet", "cert", "keys", "idnt"]
  /// Keys that mark a dictionary as one keychain item with Apple's short names.
  static let shortNameKeys: Set<String> = ["acct", "svce", "gena", "agrp", "v_Data"]
  /// Keys that mark an objection item.
  static let objectionKeys: Set<String> = [
    "account", "service", "generic", "entitlement_group", "dataHex", "item_class", "create_date",
  ]

  struct Parsed {
    var kind: ADALInputKind
    var records: [KeychainRecord] = []
    var diagnostics: [Diagnostic] = []
  }

  // MARK: property lists

  /// nil when the plist is not a keychain dump.
  func parse(plist value: PropertyListValue) throws(ADALCacheError) -> Parsed? {
    switch value {
    case .array(let elements):
      var parsed = Parsed(kind: .keychainPlistArray)
      try addPlistItems(elements, prefix: "", to: &parsed)
      return parsed
    case .dictionary(let dictionary):
      if dictionary.keys.contains(where: Self.classKeys.contains) {
        var parsed = Parsed(kind: .keychainPlistClasses)
        for (key, classItems) in dictionary {
          guard let elements = classItems.arrayValue else { continue }
          try addPlistItems(elements, prefix: key, to: &parsed)
        }
        return parsed
      }
      if dictionary.keys.contains(where: Self.shortNameKeys.contains) {
        var parsed = Parsed(kind: .keychainPlistArray)
        try addPlistItems([value], prefix: "", to: &parsed)
        return parsed
      }
      return nil
    default:
      return nil
    }
  }

  private func addPlistItems(_ elements: [PropertyListValue], prefix: String, to parsed: inout Parsed)
    throws(ADALCacheError)
  {
    for (position, element) in elements.enumerated() {
      let location = try nextLocation(parsed, path: "\(prefix)[\(position)]")
      guard let dictionary = element.dictionaryValue else {
        parsed.diagnostics.append(
          ADALItemError("the dump entry is a \(element.kindName), not an item dictionary", at: location).diagnostic)
        parsed.records.append(KeychainRecord(location: location))
        continue
      }
      let (record, diagnostics) = KeychainRecordBuilder.shortNames(
        { dictionary[$0].flatMap(Self.scalar) }, textEncoded: false, location: location, limits: limits)
      parsed.records.append(record)
      parsed.diagnostics += diagnostics
    }
  }

  private static func scalar(_ value: PropertyListValue) -> Any? {
    switch value {
    case .string(let text): text.value
    case .data(let bytes): bytes
    case .integer(let number): Int(exactly: number)
    case .real(let number): number
    case .bool(let flag): flag
    case .date(let date): date
    default: nil
    }
  }

  // MARK: JSON

  func parse(json data: Data) throws(ADALCacheError) -> Parsed {
    if let offset = JSONNesting.offsetBeyond(limits.maxDepth, in: data) {
      throw ADALCacheError(
        "JSON nested deeper than the limit of \(limits.maxDepth)", at: SourceLocation(file: file, byteOffset: offset))
    }
    let root: Any
    do {
      root = try JSONSerialization.jsonObject(with: data)
    } catch {
      throw ADALCacheError("the input is not valid JSON: \(error.localizedDescription)", at: SourceLocation(file: file))
    }
    var groups: [(prefix: String, items: [Any])] = []
    if let array = root as? [Any] {
      groups = [("", array)]
    } else if let dictionary = root as? [String: Any], dictionary.keys.contains(where: Self.classKeys.contains) {
      groups = dictionary.keys.sorted().compactMap { key in (dictionary[key] as? [Any]).map { (key, $0) } }
    } else if let dictionary = root as? [String: Any], Self.isItem(dictionary) {
      groups = [("", [dictionary])]
    } else {
      throw ADALCacheError(
        "the JSON is neither an array of keychain items nor a dictionary of keychain classes",
        at: SourceLocation(file: file))
    }
    var parsed = Parsed(kind: .keychainJSON)
    var objectionCount = 0
    for group in groups {
      for (position, element) in group.items.enumerated() {
        let location = try nextLocation(parsed, path: "\(group.prefix)[\(position)]")
        guard let item = element as? [String: Any] else {
          parsed.diagnostics.append(ADALItemError("the dump entry is not a JSON object", at: location).diagnostic)
          parsed.records.append(KeychainRecord(location: location))
          continue
        }
        let (record, diagnostics): (KeychainRecord, [Diagnostic])
        if item.keys.contains(where: Self.shortNameKeys.contains) {
          (record, diagnostics) = KeychainRecordBuilder.shortNames(
            { item[$0] }, textEncoded: true, location: location, limits: limits)
        } else {
          objectionCount += 1
          (record, diagnostics) = KeychainRecordBuilder.objection(item, location: location, limits: limits)
        }
        parsed.records.append(record)
        parsed.diagnostics += diagnostics
      }
    }
    if objectionCount * 2 > parsed.records.count { parsed.kind = .objectionJSON }
    return parsed
  }

  private static func isItem(_ dictionary: [String: Any]) -> Bool {
    dictionary.keys.contains { shortNameKeys.contains($0) || objectionKeys.contains($0) }
  }

  private func nextLocation(_ parsed: Parsed, path: String) throws(ADALCacheError) -> SourceLocation {
    guard parsed.records.count < limits.maxObjects else {
      throw ADALCacheError("the dump has more than \(limits.maxObjects) items", at: SourceLocation(file: file))
    }
    return SourceLocation(file: file, itemIndex: parsed.records.count, keyPath: path)
  }
}
