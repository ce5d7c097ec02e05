import Foundation

/// What the binary reader shares between the values it builds (keyed archives repeat the same small values,
/// containers and key sets constantly): boxes of small integers, small containers with equal content, and
/// dictionary key tables.
struct BinaryValueSharing {
  static let size = 1024
  private var integers: [PropertyListValue?] = []
  /// Boxes of other integers seen (every keyed archive has `$version` 100000), up to `maxOtherIntegers`.
  private var otherIntegers: [Int128: PropertyListValue] = [:]
  static let maxOtherIntegers = 4096

  /// Containers made only of common values, with equal content, share one value: class descriptions, `$top`,
  /// and the objects of archives with the same layout (a plist holding many archives repeats them all). The
  /// node limit bounds the hashing each costs.
  private var containers: Set<PropertyListValue> = []
  static let maxInternedNodes = 64

  /// Key tables by the bytes of the key references they were read from.
  private var keyTables: [KeyReferenceBytes: KnownKeys] = [:]
  /// Bounds the table cache (each entry is also a hashed copy of its references) on inputs whose dictionaries
  /// all have different keys.
  static let maxKeyTables = 4096

  /// Sized for a property list of `objectCount` objects: a keychain dump holds an archive per item, each
  /// read with its own sharing, and growing the container set from empty in every one (rehashing deep
  /// values each time it doubled) was two fifths of the interning's cost.
  init(objectCount: Int) {
    // Not for a walk that builds no tree (no objects): reserving nothing still allocated a table.
    if objectCount > 1 { containers.reserveCapacity(Swift.min(objectCount / 2, 1024)) }
  }

  struct KnownKeys {
    var table: PropertyListKeys
    /// Whether every key object was common (see `BinaryReadObject.isCommon`).
    var allCommon: Bool
  }

  /// Hashing a borrowed string hashes its bytes where they lie in the input (a UTF-16 one is decoded first).
  mutating func intern(_ value: PropertyListValue) -> PropertyListValue {
    containers.insert(value).memberAfterInsert
  }

  /// Whether a scalar may be held elsewhere too: the integers `integer(_:)` shares, small UIDs and booleans.
  static func isCached(_ value: PropertyListValue) -> Bool {
    switch value {
    case .bool, .null: true
    case .uid(let uid): uid < UInt64(size)
    case .integer(let number): number >= 0 && number < Int128(size)
    default: false
    }
  }

  /// The integer, its box shared with equal integers (an integer is the one boxed payload).
  mutating func integer(_ value: Int128) -> PropertyListValue {
    guard value >= 0, value < Int128(Self.size) else {
      if let cached = otherIntegers[value] { return cached }
      let made = PropertyListValue.integer(value)
      if otherIntegers.count < Self.maxOtherIntegers { otherIntegers[value] = made }
      return made
    }
    if integers.isEmpty { integers = Array(repeating: nil, count: Self.size) }
    if let cached = integers[Int(value)] { return cached }
    let made = PropertyListValue.integer(value)
    integers[Int(value)] = made
    return made
  }

  /// The key table of a dictionary read before from the same key references: the same key objects, which were
  /// strings then and so are now.
  func keys(referencedBy references: KeyReferenceBytes) -> KnownKeys? { keyTables[references] }

  /// Room for the key tables of `dictionaries` dictionaries (up to `maxKeyTables`).
  mutating func reserveKeyTables(_ dictionaries: Int) {
    keyTables.reserveCapacity(Swift.min(dictionaries, Self.maxKeyTables))
  }

  mutating func remember(_ keys: KnownKeys, referencedBy references: KeyReferenceBytes) {
    guard keyTables.count < Self.maxKeyTables else { return }
    keyTables[references] = keys
  }
}

/// A dictionary's key references as they lie in the input: valid while the parser runs, compared by content.
struct KeyReferenceBytes: Hashable {
  let bytes: UnsafeRawBufferPointer

  static func == (lhs: KeyReferenceBytes, rhs: KeyReferenceBytes) -> Bool {
    guard lhs.bytes.count == rhs.bytes.count else { return false }
    guard let left = lhs.bytes.baseAddress, let right = rhs.bytes.baseAddress else { return true }
    return memcmp(left, right, lhs.bytes.count) == 0
  }

  func hash(into hasher: inout Hasher) { hasher.combine(bytes: bytes) }
}
