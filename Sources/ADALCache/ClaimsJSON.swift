import Foundation

/// How a part of an id token is read as JSON claims: the object's members as `ADALValue`s, or nil when the part
/// is not a JSON object. Members merge into the claims in order, a later one replacing an equal key's value.
package enum ClaimsJSON {
  /// Appends the members of the object `bytes` hold to `members` (`flatMembers`, else `generalMembers`); false,
  /// with `members` as it was, when they are not a JSON object. Every part of an id token appends to one array.
  static func members(_ bytes: UnsafeRawBufferPointer, appendingTo members: inout [ADALValueEntry]) -> Bool {
    if appendFlatMembers(bytes, to: &members) { return true }
    guard let general = generalMembers(Data(bytes)) else { return false }
    members += general
    return true
  }

  /// With the project's JSON parser (`ADALJSON.object`), each member converted by `ADALValue(json:)`.
  package static func generalMembers(_ data: Data) -> [ADALValueEntry]? {
    ADALJSON.object(data)?.members.map { ADALValueEntry(key: $0.key, value: ADALValue(json: $0.value)) }
  }

  /// Straight from the bytes, when the part is a flat JSON object: members whose values are strings without
  /// escapes, numbers, `true`, `false`, `null`, or arrays of those, as id tokens hold. Anything else (an escape,
  /// a nested object, a byte-order mark, a trailing comma, invalid UTF-8, any error) gives nil, and the part takes
  /// `generalMembers`, so that every refusal stays that path's. Where this gives members (duplicate keys
  /// included), they merge into what `generalMembers` merge into (`ClaimsJSONTests` compares them). Building the
  /// general parser's value tree and member index, then converting it, was most of the time spent on each id
  /// token.
  package static func flatMembers(_ data: Data) -> [ADALValueEntry]? {
    var members: [ADALValueEntry] = []
    return data.withUnsafeBytes { appendFlatMembers($0, to: &members) } ? members : nil
  }

  /// `flatMembers` of `bytes` appended to `members`; false, with `members` as it was, when it gives nil.
  private static func appendFlatMembers(_ bytes: UnsafeRawBufferPointer, to members: inout [ADALValueEntry]) -> Bool {
    guard bytes.count <= maxFlatBytes else { return false }
    let count = members.count
    var scanner = Scanner(bytes: bytes)
    guard scanner.object(appendingTo: &members) else {
      members.removeSubrange(count...)
      return false
    }
    return true
  }

  /// Larger parts take the general path, whose limits they could reach.
  static let maxFlatBytes = 1 << 20

  private struct Scanner {
    let bytes: UnsafeRawBufferPointer
    var index = 0

    init(bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    /// The whole input as one object, with nothing but whitespace around it, its members appended to `members`
    /// (some of them also when it is not one).
    mutating func object(appendingTo members: inout [ADALValueEntry]) -> Bool {
      skipWhitespace()
      guard take(UInt8(ascii: "{")) else { return false }
      skipWhitespace()
      if !take(UInt8(ascii: "}")) {
        while true {
          skipWhitespace()
          guard let key = string() else { return false }
          skipWhitespace()
          guard take(UInt8(ascii: ":")) else { return false }
          skipWhitespace()
          guard let value = value() else { return false }
          members.append(ADALValueEntry(key: key, value: value))
          skipWhitespace()
          if take(UInt8(ascii: "}")) { break }
          guard take(UInt8(ascii: ",")) else { return false }
        }
      }
      skipWhitespace()
      return index == bytes.count
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

    /// A string without escapes or control characters. ASCII (every key and nearly every value) needs no
    /// validation: made with `String(decoding:)`, which gives the same string for valid UTF-8, where the generic
    /// `String(validating:)` cost about a thousand instructions a string.
    mutating func string() -> String? {
      guard take(UInt8(ascii: "\"")) else { return nil }
      let start = index
      var bits: UInt8 = 0
      while let byte = current {
        if byte == UInt8(ascii: "\"") {
          defer { index += 1 }
          let text = UnsafeRawBufferPointer(rebasing: bytes[start..<index])
          guard bits >= 0x80 else { return String(decoding: text.assumingMemoryBound(to: UInt8.self), as: UTF8.self) }
          return String(validating: text, as: UTF8.self)
        }
        guard byte != UInt8(ascii: "\\"), byte >= 0x20 else { return nil }
        bits |= byte
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
