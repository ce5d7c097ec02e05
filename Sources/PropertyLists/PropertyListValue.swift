import Foundation

/// One value of a property list, binary or XML: the single model both readers produce.
///
/// Dictionaries keep their key order as read (`PropertyListDictionary`), so that output is deterministic.
///
/// Payloads are stored inline (24 bytes a value), not in a heap box each: a parsed tree holds millions of
/// values. Only the 128-bit integer is boxed, since its 16-byte alignment would make every value 32 bytes; the
/// binary reader shares the boxes of small integers. Strings read from a binary input are slices of it, decoded
/// on access (`PropertyListString`), so a parsed tree holds no copy of its text.
public enum PropertyListValue: Sendable, Hashable {
  /// The binary format's `null` object (0x00); XML has no equivalent.
  case null
  case bool(Bool)
  /// Integers up to 128 bits, as the binary format defines them (16-byte integers are signed 128-bit).
  indirect case integer(Int128)
  case real(Double)
  /// An absolute date (binary: seconds since 2001-01-01 UTC; XML: ISO 8601).
  case date(Date)
  case data(Data)
  /// Text: borrowed from the input by the binary reader (decoded on access), native from the XML reader.
  case string(PropertyListString)
  /// A keyed-archive object reference: binary UID objects, and XML `<dict><key>CF$UID</key><integer>…`.
  case uid(UInt64)
  case array([PropertyListValue])
  case set([PropertyListValue])
  case dictionary(PropertyListDictionary)
}

extension PropertyListValue {
  /// The string, decoded (see `PropertyListString.value`).
  public var stringValue: String? {
    if case .string(let string) = self { return string.value }
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
