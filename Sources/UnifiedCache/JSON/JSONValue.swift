/// A JSON value that keeps what `JSONSerialization` loses: the order of object keys and the exact text of
/// numbers, so that fields and sections this tool does not model are written back exactly as they were read.
public indirect enum JSONValue: Sendable, Hashable {
  case null
  case bool(Bool)
  /// A number, kept as its original text (`1548804634.0556107` stays exactly that).
  case number(String)
  case string(String)
  case array([JSONValue])
  case object(JSONObject)

  /// The string, when this is a string.
  public var stringValue: String? {
    if case .string(let text) = self { return text }
    return nil
  }

  /// The object, when this is an object.
  public var objectValue: JSONObject? {
    if case .object(let object) = self { return object }
    return nil
  }

  /// The elements, when this is an array.
  public var arrayValue: [JSONValue]? {
    if case .array(let items) = self { return items }
    return nil
  }

  /// An object of the members that have a value, sorted by key (`<`): for output whose order must not depend on
  /// how it was built.
  public static func sortedObject(_ members: [(String, JSONValue?)]) -> JSONValue {
    .object(
      JSONObject(members.compactMap { key, value in value.map { JSONMember(key, $0) } }.sorted { $0.key < $1.key }))
  }

  /// A short name of the value's JSON type, for messages (`string`, `number`, `object`, ...).
  public var typeName: String {
    switch self {
    case .null: "null"
    case .bool: "boolean"
    case .number: "number"
    case .string: "string"
    case .array: "array"
    case .object: "object"
    }
  }
}

/// One `"key": value` pair of a JSON object.
public struct JSONMember: Sendable, Hashable {
  public var key: String
  public var value: JSONValue

  public init(_ key: String, _ value: JSONValue) {
    self.key = key
    self.value = value
  }
}

/// A JSON object whose members keep their order. Keys are unique: setting an existing key replaces its value
/// in place; a duplicate key met while parsing keeps the last value (as most JSON readers do).
public struct JSONObject: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral {
  public private(set) var members: [JSONMember] = []
  /// The position of each key in `members`, so that large sections stay linear to build.
  private var positions: [String: Int] = [:]

  public init(_ members: [JSONMember] = []) {
    for member in members { self[member.key] = member.value }
  }

  public init(dictionaryLiteral elements: (String, JSONValue)...) {
    self.init(elements.map { JSONMember($0.0, $0.1) })
  }

  public var isEmpty: Bool { members.isEmpty }
  public var count: Int { members.count }
  public var keys: [String] { members.map(\.key) }

  /// The value under `key`; setting nil removes the member, setting a value replaces or appends it.
  public subscript(key: String) -> JSONValue? {
    get { positions[key].map { members[$0].value } }
    set {
      switch (positions[key], newValue) {
      case (let index?, let value?): members[index].value = value
      case (_?, nil): removeValue(forKey: key)
      case (nil, let value?):
        positions[key] = members.count
        members.append(JSONMember(key, value))
      case (nil, nil): break
      }
    }
  }

  /// Removes and returns the value under `key`.
  @discardableResult
  public mutating func removeValue(forKey key: String) -> JSONValue? {
    guard let index = positions.removeValue(forKey: key) else { return nil }
    let removed = members.remove(at: index)
    for position in index..<members.count { positions[members[position].key] = position }
    return removed.value
  }

  public func makeIterator() -> IndexingIterator<[JSONMember]> { members.makeIterator() }

  public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool { lhs.members == rhs.members }
  public func hash(into hasher: inout Hasher) { hasher.combine(members) }
}
