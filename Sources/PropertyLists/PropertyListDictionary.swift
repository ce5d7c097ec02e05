/// An ordered dictionary with string keys, as property lists have. Lookups by key are linear for small
/// dictionaries and hashed once the dictionary grows.
///
/// Keys and values are stored apart: the keys (with their hash index) live in an immutable table that the
/// binary reader shares between dictionaries made of the same key objects (every archived object of a class
/// repeats its keys), so such a dictionary costs only its values.
public struct PropertyListDictionary: Sendable, Hashable, Sequence {
  private var table: PropertyListKeys
  private var values: [PropertyListValue]

  public init(_ entries: [(key: String, value: PropertyListValue)] = []) {
    table = .empty
    values = []
    guard !entries.isEmpty else { return }
    var keys: [String] = []
    keys.reserveCapacity(entries.count)
    values.reserveCapacity(entries.count)
    var positions: [String: Int] = [:]
    let hashed = entries.count > PropertyListKeys.indexThreshold
    for (key, value) in entries {
      // The last duplicate wins, in the place of the first (as Foundation does).
      let existing = hashed ? positions[key] : keys.firstIndex(of: key)
      if let existing {
        values[existing] = value
      } else {
        if hashed { positions[key] = keys.count }
        keys.append(key)
        values.append(value)
      }
    }
    table = PropertyListKeys(distinct: keys)
  }

  /// A dictionary over a key table (whose keys are distinct) and one value per key.
  init(keys: PropertyListKeys, values: [PropertyListValue]) {
    precondition(keys.keys.count == values.count, "one value per key")
    table = keys
    self.values = values
  }

  public var count: Int { values.count }
  public var keys: [String] { table.keys }
  /// The entries in order (built on each call: iterate the dictionary itself to avoid the copy).
  public var entries: [(key: String, value: PropertyListValue)] { Array(self) }

  /// Setting an existing key replaces its value in place (the last duplicate wins, as Foundation does).
  public subscript(key: String) -> PropertyListValue? {
    get { table.position(of: key).map { values[$0] } }
    set {
      if let position = table.position(of: key) {
        if let newValue {
          values[position] = newValue
        } else {
          values.remove(at: position)
          var keys = table.keys
          keys.remove(at: position)
          table = PropertyListKeys(distinct: keys)
        }
      } else if let newValue {
        // A table may be shared with other dictionaries: appending copies it, unless this is its only owner.
        if !isKnownUniquelyReferenced(&table) {
          table = PropertyListKeys(distinct: table.keys)
        }
        table.append(key)
        values.append(newValue)
      }
    }
  }

  /// The dictionary's members in file order.
  public struct Iterator: IteratorProtocol, Sendable {
    fileprivate let keys: [String]
    fileprivate let values: [PropertyListValue]
    fileprivate var position = 0

    public mutating func next() -> (key: String, value: PropertyListValue)? {
      guard position < values.count else { return nil }
      defer { position += 1 }
      return (keys[position], values[position])
    }
  }

  public func makeIterator() -> Iterator { Iterator(keys: table.keys, values: values) }

  public static func == (lhs: PropertyListDictionary, rhs: PropertyListDictionary) -> Bool {
    (lhs.table === rhs.table || lhs.table.keys == rhs.table.keys) && lhs.values == rhs.values
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(values.count)
    for key in table.keys { hasher.combine(key) }
    for value in values { hasher.combine(value) }
  }
}

/// The distinct keys of a dictionary in order, and a hash index of them once there are more than
/// `indexThreshold`. Only a dictionary that owns its table alone changes it (copy on write), so a table
/// shared between dictionaries or threads is never mutated.
final class PropertyListKeys: @unchecked Sendable {
  private(set) var keys: [String]
  private var index: [String: Int] = [:]

  /// Dictionaries up to this size are searched linearly; larger ones keep a hash index.
  static let indexThreshold = 16
  static let empty = PropertyListKeys(distinct: [])

  /// - Precondition: `keys` are distinct.
  init(distinct keys: [String]) {
    self.keys = keys
    if keys.count > Self.indexThreshold {
      index = Dictionary(uniqueKeysWithValues: keys.enumerated().map { ($1, $0) })
    }
  }

  /// Whether `keys` has no duplicate, checked the cheap way for its size.
  static func areDistinct(_ keys: [String]) -> Bool {
    if keys.count <= indexThreshold {
      return keys.indices.allSatisfy { position in !keys[..<position].contains(keys[position]) }
    }
    return Set(keys).count == keys.count
  }

  func position(of key: String) -> Int? {
    keys.count <= Self.indexThreshold ? keys.firstIndex(of: key) : index[key]
  }

  /// Adds a key that is not in the table yet; only for a table its dictionary owns alone.
  func append(_ key: String) {
    keys.append(key)
    if keys.count > Self.indexThreshold {
      if index.isEmpty {
        index = Dictionary(uniqueKeysWithValues: keys.enumerated().map { ($1, $0) })
      } else {
        index[key] = keys.count - 1
      }
    }
  }
}
