import Foundation

/// A value resolved from an `NSKeyedArchiver` archive: Foundation classes become plain values, every other
/// class becomes an `ArchivedObject` with its class name and coder keys.
///
/// The resolver rejects cycles, so this is a tree. Payloads are stored inline, as `PropertyListValue`'s are: a
/// heap box per value was an allocation for each of an archived item's fields. Only the 128-bit integer (whose
/// alignment would make every value 32 bytes) and the archived object (32 bytes itself) are boxed.
public enum ArchiveValue: Sendable, Hashable {
  /// `$null`, a nil reference (`UID 0`).
  case null
  case bool(Bool)
  indirect case integer(Int128)
  case real(Double)
  /// `NSString` / `NSMutableString` (`NS.string`) and plain archived strings: borrowed from a binary input
  /// as the property list's strings are (see `PropertyListString`), so resolving decodes no text.
  case string(PropertyListString)
  /// `NSData` / `NSMutableData` (`NS.data`) and plain archived data.
  case data(Data)
  /// `NSDate` (`NS.time`, seconds since 2001-01-01 UTC).
  case date(Date)
  /// `NSArray` / `NSMutableArray` (`NS.objects`).
  case array([ArchiveValue])
  /// `NSSet` / `NSMutableSet` (`NS.objects`), in archive order.
  case set([ArchiveValue])
  /// `NSDictionary` / `NSMutableDictionary` (`NS.keys` / `NS.objects`), in archive order. Keys may be any
  /// archived value (the macOS ADAL blob keys its dictionaries by `ADTokenCacheKey` objects).
  case dictionary([ArchiveDictionaryEntry])
  /// Any other class, with its coder keys.
  indirect case object(ArchivedObject)
}

/// One key and value of an archived `NSDictionary`, in archive order (its keys need not be strings).
public struct ArchiveDictionaryEntry: Sendable, Hashable {
  public var key: ArchiveValue
  public var value: ArchiveValue
  public init(key: ArchiveValue, value: ArchiveValue) {
    self.key = key
    self.value = value
  }
}

/// An archived instance of a class that is not a Foundation value class.
public struct ArchivedObject: Sendable, Hashable {
  /// `$classname` of the object's class (never taken from `$classes`, which mapped classes may omit).
  public var className: String
  /// The coder keys and their resolved values, in archive order; `$class` is not included.
  public var fields: [(key: String, value: ArchiveValue)]
  /// The object's index in `$objects`, for error messages.
  public var objectIndex: Int

  public init(className: String, fields: [(key: String, value: ArchiveValue)], objectIndex: Int) {
    self.className = className
    self.fields = fields
    self.objectIndex = objectIndex
  }

  /// The value of a coder key; `nil` when the key is absent. A key archived as nil gives `.null`.
  ///
  /// Keys of another UTF-8 length are passed over without comparing them (an item's fields are looked up by
  /// name some twenty times, and comparing unequal strings was most of it), so a key only canonically
  /// equivalent to `key` in another length is another key, as Foundation's unarchiver, which compares keys
  /// literally, has it.
  public subscript(key: String) -> ArchiveValue? {
    let length = key.utf8.count
    return fields.first { $0.key.utf8.count == length && $0.key == key }?.value
  }

  public static func == (lhs: ArchivedObject, rhs: ArchivedObject) -> Bool {
    lhs.className == rhs.className && lhs.objectIndex == rhs.objectIndex && lhs.fields.count == rhs.fields.count
      && zip(lhs.fields, rhs.fields).allSatisfy { $0.key == $1.key && $0.value == $1.value }
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(className)
    hasher.combine(objectIndex)
    for field in fields {
      hasher.combine(field.key)
      hasher.combine(field.value)
    }
  }
}

extension ArchiveValue {
  public var isNull: Bool {
    if case .null = self { return true }
    return false
  }
  /// The string, decoded (see `PropertyListString.value`).
  public var stringValue: String? {
    if case .string(let string) = self { return string.value }
    return nil
  }
  public var dataValue: Data? {
    if case .data(let value) = self { return value }
    return nil
  }
  public var dateValue: Date? {
    if case .date(let value) = self { return value }
    return nil
  }
  public var boolValue: Bool? {
    switch self {
    case .bool(let value): return value
    case .integer(let value): return value != 0
    default: return nil
    }
  }
  public var doubleValue: Double? {
    switch self {
    case .real(let value): return value
    case .integer(let value): return Double(value)
    default: return nil
    }
  }
  public var objectValue: ArchivedObject? {
    if case .object(let value) = self { return value }
    return nil
  }
  public var dictionaryEntries: [ArchiveDictionaryEntry]? {
    if case .dictionary(let value) = self { return value }
    return nil
  }
  /// Entries whose keys are strings, for dictionaries keyed by strings (`additionalServer`, `allClaims`).
  public var stringKeyedEntries: [(key: String, value: ArchiveValue)]? {
    dictionaryEntries?.compactMap { entry in entry.key.stringValue.map { ($0, entry.value) } }
  }
  /// The class name for objects, or the Foundation class family for values (for messages).
  public var kindName: String { Self.name(of: kind) { objectValue?.className ?? "" } }

  /// What the value is (`SimpleArchiveResolver.Kind`).
  var kind: SimpleArchiveResolver.Kind {
    switch self {
    case .null: .null
    case .bool: .bool
    case .integer: .integer
    case .real: .real
    case .string: .string
    case .data: .data
    case .date: .date
    case .array: .array
    case .set: .set
    case .dictionary: .dictionary
    case .object: .object
    }
  }

  /// `kindName` of a value of `kind` (an object's being its class name).
  static func name(of kind: SimpleArchiveResolver.Kind, className: () -> String) -> String {
    switch kind {
    case .null: "$null"
    case .bool: "boolean"
    case .integer: "integer"
    case .real: "real"
    case .string: "string"
    case .data: "data"
    case .date: "NSDate"
    case .array: "NSArray"
    case .set: "NSSet"
    case .dictionary: "NSDictionary"
    case .object: className()
    }
  }
}
