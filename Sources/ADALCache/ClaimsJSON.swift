import Foundation

/// How a part of an id token is read as JSON claims: the object's members as `ADALValue`s, or nil when the part
/// is not a JSON object. Members merge into the claims in order, a later one replacing an equal key's value.
package enum ClaimsJSON {
  /// `flatMembers`, else `generalMembers`.
  static func members(_ data: Data) -> [(key: String, value: ADALValue)]? {
    flatMembers(data) ?? generalMembers(data)
  }

  /// With the project's JSON parser (`ADALJSON.object`), each member converted by `ADALValue(json:)`.
  package static func generalMembers(_ data: Data) -> [(key: String, value: ADALValue)]? {
    ADALJSON.object(data)?.members.map { ($0.key, ADALValue(json: $0.value)) }
  }

  /// Straight from the bytes, when the part is a flat JSON object: members whose values are strings without
  /// escapes, numbers, `true`, `false`, `null`, or arrays of those, as id tokens hold. Anything else (an escape,
  /// a nested object, a byte-order mark, a trailing comma, invalid UTF-8, any error) gives nil, and the part takes
  /// `generalMembers`, so that every refusal stays that path's. Where this gives members (duplicate keys
  /// included), they merge into what `generalMembers` merge into (`ClaimsJSONTests` compares them). Building the
  /// general parser's value tree and member index, then converting it, was most of the time spent on each id
  /// token.
  package static func flatMembers(_ data: Data) -> [(key: String, value: ADALValue)]? {
    guard data.count <= maxFlatBytes else { return nil }
    return data.withUnsafeBytes { bytes in
      var scanner = Scanner(bytes: bytes)
      return scanner.object()
    }
  }

  /// Larger parts take the general path, whose limits they could reach.
  static let maxFlatBytes = 1 << 20

  private struct Scanner {
    let bytes: UnsafeRawBufferPointer
    var index = 0

    init(bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    /// The whole input as one object, with nothing but whitespace around it.
    mutating func object() -> [(key: String, value: ADALValue)]? {
      skipWhitespace()
      guard take(UInt8(ascii: "{")) else { return nil }
      var members: [(key: String, value: ADALValue)] = []
      // A header's members fit, a payload's take one growth: grown from empty, an id token's parts took ten.
      members.reserveCapacity(16)
      skipWhitespace()
      if !take(UInt8(ascii: "}")) {
        while true {
          skipWhitespace()
          guard let key = string() else { return nil }
          skipWhitespace()
          guard take(UInt8(ascii: ":")) else { return nil }
          skipWhitespace()
          guard let value = value() else { return nil }
          members.append((key, value))
          skipWhitespace()
          if take(UInt8(ascii: "}")) { break }
          guard take(UInt8(ascii: ",")) else { return nil }
        }
      }
      skipWhitespace()
      return index == bytes.count ? members : nil
    }

    mutating func value() -> ADALValue? {
      guard take(UInt8(ascii: "[")) else { return scalar() }
      var elements: [ADALValue] = []
      skipWhitespace()
      if take(UInt8(ascii: "]")) { return .array(elements) }
      while true {
        skipWhitespace()
        guard let element = scalar() else { return nil }
        elements.append(element)
        skipWhitespace()
        if take(UInt8(ascii: "]")) { return .array(elements) }
        guard take(UInt8(ascii: ",")) else { return nil }
      }
    }

    mutating func scalar() -> ADALValue? {
      guard let byte = current else { return nil }
      switch byte {
      case UInt8(ascii: "\""):
        guard let text = string() else { return nil }
        return .string(text)
      case UInt8(ascii: "t"): return literal("true") ? .bool(true) : nil
      case UInt8(ascii: "f"): return literal("false") ? .bool(false) : nil
      case UInt8(ascii: "n"): return literal("null") ? ADALValue.null : nil
      case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return number()
      default: return nil
      }
    }

    /// A string without escapes or control characters.
    mutating func string() -> String? {
      guard take(UInt8(ascii: "\"")) else { return nil }
      let start = index
      while let byte = current {
        if byte == UInt8(ascii: "\"") {
          defer { index += 1 }
          return String(validating: UnsafeRawBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        }
        guard byte != UInt8(ascii: "\\"), byte >= 0x20 else { return nil }
        index += 1
      }
      return nil
    }

    /// A number of RFC 8259's grammar (as `JSONParser` reads them), converted as `ADALValue(json:)` converts one.
    mutating func number() -> ADALValue? {
      let start = index
      _ = take(UInt8(ascii: "-"))
      guard let first = current, isDigit(first) else { return nil }
      index += 1
      if first != UInt8(ascii: "0") { skipDigits() }
      if take(UInt8(ascii: ".")) {
        guard let byte = current, isDigit(byte) else { return nil }
        skipDigits()
      }
      if take(UInt8(ascii: "e")) || take(UInt8(ascii: "E")) {
        if !take(UInt8(ascii: "+")) { _ = take(UInt8(ascii: "-")) }
        guard let byte = current, isDigit(byte) else { return nil }
        skipDigits()
      }
      return ADALValue(
        jsonNumber: String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self))
    }

    mutating func literal(_ text: StaticString) -> Bool {
      let count = text.utf8CodeUnitCount
      guard bytes.count - index >= count,
        memcmp(bytes.baseAddress! + index, text.utf8Start, count) == 0
      else { return false }
      index += count
      return true
    }

    mutating func take(_ byte: UInt8) -> Bool {
      guard current == byte else { return false }
      index += 1
      return true
    }

    func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    mutating func skipDigits() { while let byte = current, isDigit(byte) { index += 1 } }

    mutating func skipWhitespace() {
      while let byte = current, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { index += 1 }
    }
  }
}
