import Adal2MSAL
import Foundation
import _Adal2MSALTestSupport

/// Entry-by-entry comparison of two unified-cache JSON files, for the round-trip and per-library export tests.
/// Member order is ignored; names, keys and values (number text included) must match exactly.
enum ExportComparison {
  /// The cache's sections as key -> canonical entry, read with the project's tolerant JSON parser (real
  /// files have byte-order marks and trailing commas).
  static func entries(_ data: Data) throws -> [String: [String: JSONValue]] {
    guard !data.allSatisfy({ [0x20, 0x0A, 0x0D, 0x09].contains($0) }) else { return [:] }
    guard case .object(let root) = try JSONParser().parse(data) else { return [:] }
    var sections: [String: [String: JSONValue]] = [:]
    for member in root {
      guard case .object(let entries) = member.value else {
        sections[member.key] = ["": canonical(member.value)]
        continue
      }
      var section: [String: JSONValue] = [:]
      for entry in entries { section[entry.key] = canonical(entry.value) }
      sections[member.key] = section
    }
    return sections
  }

  /// The original's entries (`Section.key`) that the export lacks or writes otherwise, and how many entries the
  /// export has that the original lacks.
  static func differences(original: Data, exported: Data) throws -> (changed: [String], added: Int) {
    let before = try entries(original)
    let after = try entries(exported)
    var changed: [String] = []
    for (section, entries) in before {
      for (key, value) in entries where after[section]?[key] != value { changed.append("\(section).\(key)") }
    }
    let added = after.reduce(0) { total, section in
      total + section.value.keys.filter { before[section.key]?[$0] == nil }.count
    }
    return (changed.sorted(), added)
  }

  private static func canonical(_ value: JSONValue) -> JSONValue {
    switch value {
    case .object(let object):
      return .object(
        JSONObject(object.members.sorted { $0.key < $1.key }.map { JSONMember($0.key, canonical($0.value)) }))
    case .array(let items): return .array(items.map(canonical))
    default: return value
    }
  }
}
