import Foundation

/// One value of a property list, binary or XML: the single model both readers produce.
///
/// Dictionaries keep their key order as read (`PropertyListDictionary`), so that output is deterministic.
public indirect enum PropertyListValue: Sendable, Hashable {
  /// The binary format's `null` object (0x00); XML has no equivalent.
  case null
  case bool(Bool)
  /// Integers up to 128 bits, as the binary format defines them (16-byte integers are signed 128-bit).
  case integer(Int128)
  case real(Double)
  /// An absolute date (binary: seconds since 2001-01-01 UTC; XML: ISO 8601).
  case date(Date)
  case data(Data)
  case string(String)
  /// A keyed-archive object reference: binary UID objects, and XML `<dict><key>CF$UID</key><integer>…`.
  case uid(UInt64)
  case array([PropertyListValue])
  case set([PropertyListValue])
  case dictionary(PropertyListDictionary)
}

/// An ordered dictionary with string keys, as property lists have. Lookups by key are linear for small
/// dictionaries and hashed once the dictionary grows.
public struct PropertyListDictionary: Sendable, Hashable, Sequence {
  public private(set) var entries: [(key: String, value: PropertyListValue)]
  private var index: [String: Int]

  /// Dictionaries up to this size are searched linearly; larger ones keep a hash index.
  private static let indexThreshold = 16

  public init(_ entries: [(key: String, value: PropertyListValue)] = []) {
    self.entries = []
    self.index = [:]
    self.entries.reserveCapacity(entries.count)
    for entry in entries { self[entry.key] = entry.value }
  }

  /// Entries read by a parser, without the per-entry lookups of `init(_:)` when the keys are distinct
  /// (duplicates fall back to it, so that the last one wins).
  init(parsedEntries pairs: [(key: String, value: PropertyListValue)]) {
    let distinct: Bool
    if pairs.count <= Self.indexThreshold {
      distinct = pairs.indices.allSatisfy { position in
        !pairs[..<position].contains { $0.key == pairs[position].key }
      }
    } else {
      distinct = Set(pairs.lazy.map(\.key)).count == pairs.count
    }
    guard distinct else {
      self = PropertyListDictionary(pairs)
      return
    }
    self.entries = pairs
    self.index = [:]
    rebuildIndex()
  }

  public var count: Int { entries.count }
  public var keys: [String] { entries.map(\.key) }

  private func position(of key: String) -> Int? {
    if entries.count <= Self.indexThreshold { return entries.firstIndex { $0.key == key } }
    return index[key]
  }

  /// Setting an existing key replaces its value in place (the last duplicate wins, as Foundation does).
  public subscript(key: String) -> PropertyListValue? {
    get { position(of: key).map { entries[$0].value } }
    set {
      if let position = position(of: key) {
        if let newValue {
          entries[position].value = newValue
        } else {
          entries.remove(at: position)
          rebuildIndex()
        }
      } else if let newValue {
        entries.append((key, newValue))
        if entries.count > Self.indexThreshold {
          if index.isEmpty { rebuildIndex() } else { index[key] = entries.count - 1 }
        }
      }
    }
  }

  private mutating func rebuildIndex() {
    index = [:]
    guard entries.count > Self.indexThreshold else { return }
    index = Dictionary(uniqueKeysWithValues: entries.enumerated().map { ($1.key, $0) })
  }

  public func makeIterator() -> IndexingIterator<[(key: String, value: PropertyListValue)]> {
    entries.makeIterator()
  }

  public static func == (lhs: PropertyListDictionary, rhs: PropertyListDictionary) -> Bool {
    lhs.entries.count == rhs.entries.count
      && zip(lhs.entries, rhs.entries).allSatisfy { $0.key == $1.key && $0.value == $1.value }
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(entries.count)
    for entry in entries {
      hasher.combine(entry.key)
      hasher.combine(entry.value)
    }
  }
}

extension PropertyListValue {
  public var stringValue: String? {
    if case .string(let value) = self { return value }
    return nil
  }
  public var dataValue: Data? {
    if case .data(let value) = self { return value }
    return nil
  }
  public var dictionaryValue: PropertyListDictionary? {
    if case .dictionary(let value) = self { return value }
    return nil
  }
  public var arrayValue: [PropertyListValue]? {
    if case .array(let value) = self { return value }
    return nil
  }
  public var dateValue: Date? {
    if case .date(let value) = self { return value }
    return nil
  }
  public var boolValue: Bool? {
    if case .bool(let value) = self { return value }
    return nil
  }
  /// The integer, if it is one and fits in `Int64`.
  public var int64Value: Int64? {
    if case .integer(let value) = self { return Int64(exactly: value) }
    return nil
  }
  public var uidValue: UInt64? {
    if case .uid(let value) = self { return value }
    return nil
  }

  /// The key, for a dictionary.
  public subscript(key: String) -> PropertyListValue? { dictionaryValue?[key] }

  /// A short name of the kind, for error messages (`"dictionary"`, `"string"`, …).
  public var kindName: String {
    switch self {
    case .null: "null"
    case .bool: "boolean"
    case .integer: "integer"
    case .real: "real"
    case .date: "date"
    case .data: "data"
    case .string: "string"
    case .uid: "UID"
    case .array: "array"
    case .set: "set"
    case .dictionary: "dictionary"
    }
  }
}
