import Foundation

/// A plain value taken out of an archive or a JSON document: what `additionalServer` entries and id-token
/// claims hold once the archive classes are gone.
///
/// Encodes to JSON naturally (dates as ISO 8601 strings, data as base64) for `inspect --format json`.
public enum ADALValue: Sendable, Hashable, Codable, CustomStringConvertible {
  case null
  case bool(Bool)
  case integer(Int64)
  case real(Double)
  case string(String)
  case date(Date)
  case data(Data)
  case array([ADALValue])
  /// A dictionary with string keys, in source order.
  case object([ADALValueEntry])

  public var stringValue: String? {
    if case .string(let value) = self { return value }
    return nil
  }
  public var dateValue: Date? {
    if case .date(let value) = self { return value }
    return nil
  }
  public var integerValue: Int64? {
    switch self {
    case .integer(let value): return value
    case .real(let value) where value.isFinite && value.rounded() == value && abs(value) < 9e15: return Int64(value)
    default: return nil
    }
  }
  /// The value for a key, for objects.
  public subscript(key: String) -> ADALValue? {
    if case .object(let entries) = self { return entries.first { $0.key == key }?.value }
    return nil
  }

  /// A short rendering for text output: strings unquoted, dates in ISO 8601, data as its length.
  public var description: String {
    switch self {
    case .null: "null"
    case .bool(let value): value ? "true" : "false"
    case .integer(let value): String(value)
    case .real(let value): String(value)
    case .string(let value): value
    case .date(let value): ADALValue.iso8601(value)
    case .data(let value): "<\(value.count) bytes>"
    case .array(let values): "[" + values.map(\.description).joined(separator: ", ") + "]"
    case .object(let entries): "{" + entries.map { "\($0.key): \($0.value)" }.joined(separator: ", ") + "}"
    }
  }

  static func iso8601(_ date: Date) -> String {
    date.formatted(.iso8601)
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if container.decodeNil() {
      self = .null
    } else if let value = try? container.decode(Bool.self) {
      self = .bool(value)
    } else if let value = try? container.decode(Int64.self) {
      self = .integer(value)
    } else if let value = try? container.decode(Double.self) {
      self = .real(value)
    } else if let value = try? container.decode(String.self) {
      self = .string(value)
    } else if let value = try? container.decode([ADALValue].self) {
      self = .array(value)
    } else {
      let dictionary = try container.decode([String: ADALValue].self)
      self = .object(dictionary.sorted { $0.key < $1.key }.map { ADALValueEntry(key: $0.key, value: $0.value) })
    }
  }

  public func encode(to encoder: any Encoder) throws {
    if case .object(let entries) = self {
      var keyed = encoder.container(keyedBy: DynamicKey.self)
      for entry in entries { try keyed.encode(entry.value, forKey: DynamicKey(entry.key)) }
      return
    }
    var container = encoder.singleValueContainer()
    switch self {
    case .null, .object: try container.encodeNil()
    case .bool(let value): try container.encode(value)
    case .integer(let value): try container.encode(value)
    case .real(let value): try container.encode(value.isFinite ? value : 0)
    case .string(let value): try container.encode(value)
    case .date(let value): try container.encode(ADALValue.iso8601(value))
    case .data(let value): try container.encode(value.base64EncodedString())
    case .array(let values): try container.encode(values)
    }
  }

  private struct DynamicKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ string: String) { stringValue = string }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { return nil }
  }
}

/// One key and value of an `ADALValue.object`.
public struct ADALValueEntry: Sendable, Hashable, Codable {
  public var key: String
  public var value: ADALValue
  public init(key: String, value: ADALValue) {
    self.key = key
    self.value = value
  }
}
