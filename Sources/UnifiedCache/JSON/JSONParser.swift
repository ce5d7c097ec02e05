import Adal2MSALSupport
import Foundation

/// A small, strict-but-tolerant JSON parser that keeps object key order and number text.
///
/// Tolerated beyond RFC 8259 (both occur in real MSAL caches): a leading UTF-8 byte-order mark and trailing
/// commas in objects and arrays. Enforced `InputLimits`: input size, nesting depth, string length and the
/// number of values. Errors carry the byte offset and line/column and never quote input text.
public struct JSONParser: Sendable {
  public var limits: InputLimits

  public init(limits: InputLimits = .default) { self.limits = limits }

  /// Parses one JSON document. `file` only labels error locations.
  public func parse(_ data: Data, file: String? = nil) throws(UnifiedCacheError) -> JSONValue {
    guard data.count <= limits.maxInputBytes else {
      throw UnifiedCacheError(
        .limitExceeded, "input is \(data.count) bytes, more than the limit of \(limits.maxInputBytes)",
        at: SourceLocation(file: file))
    }
    // Read in place: a copy into an array was a sixth of a fleet's JSON parsing, with its page faults.
    let parsed = data.withUnsafeBytes { raw -> Result<JSONValue, UnifiedCacheError> in
      var cursor = Cursor(bytes: raw.assumingMemoryBound(to: UInt8.self), limits: limits, file: file)
      if cursor.bytes.starts(with: [0xEF, 0xBB, 0xBF]) { cursor.index = 3 }
      cursor.skipWhitespace()
      return Result { () throws(UnifiedCacheError) in
        let value = try cursor.parseValue(depth: 0)
        cursor.skipWhitespace()
        guard cursor.index == cursor.bytes.count else { throw cursor.error("unexpected data after the JSON value") }
        return value
      }
    }
    return try parsed.get()
  }
}

/// The parse of one document, over its bytes (valid while `JSONParser.parse` reads them). Every read of `bytes`
/// is checked against its count first.
private struct Cursor {
  let bytes: UnsafeBufferPointer<UInt8>
  let limits: InputLimits
  let file: String?
  var index = 0
  var valueCount = 0

  init(bytes: UnsafeBufferPointer<UInt8>, limits: InputLimits, file: String?) {
    self.bytes = bytes
    self.limits = limits
    self.file = file
  }

  var current: UInt8? { index < bytes.count ? bytes[index] : nil }

  func error(_ message: String, at offset: Int? = nil, reason: UnifiedCacheError.Reason = .notJSON) -> UnifiedCacheError
  {
    let offset = min(offset ?? index, bytes.count)
    var line = 1
    var lineStart = 0
    for position in 0..<offset where bytes[position] == 0x0A {
      line += 1
      lineStart = position + 1
    }
    let location = SourceLocation(file: file, byteOffset: offset, line: line, column: offset - lineStart + 1)
    return UnifiedCacheError(reason, message, at: location)
  }

  mutating func skipWhitespace() {
    while let byte = current, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { index += 1 }
  }

  mutating func countValue() throws(UnifiedCacheError) {
    valueCount += 1
    if valueCount > limits.maxObjects {
      throw error("more than \(limits.maxObjects) JSON values", reason: .limitExceeded)
    }
  }

  mutating func parseValue(depth: Int) throws(UnifiedCacheError) -> JSONValue {
    try countValue()
    guard let byte = current else { throw error("unexpected end of input, expected a value") }
    switch byte {
    case UInt8(ascii: "{"): return try parseObject(depth: depth + 1)
    case UInt8(ascii: "["): return try parseArray(depth: depth + 1)
    case UInt8(ascii: "\""): return .string(try parseString())
    case UInt8(ascii: "t"):
      try expectLiteral("true")
      return .bool(true)
    case UInt8(ascii: "f"):
      try expectLiteral("false")
      return .bool(false)
    case UInt8(ascii: "n"):
      try expectLiteral("null")
      return .null
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
    default: throw error("unexpected character \(describe(byte)), expected a value")
    }
  }

  func describe(_ byte: UInt8) -> String {
    (0x21...0x7E).contains(byte) ? "'\(Character(UnicodeScalar(byte)))'" : "byte 0x\(String(byte, radix: 16))"
  }

  mutating func expectLiteral(_ literal: String) throws(UnifiedCacheError) {
    let utf8 = Array(literal.utf8)
    guard bytes.count - index >= utf8.count, Array(bytes[index..<index + utf8.count]) == utf8 else {
      throw error("invalid literal, expected \(literal)")
    }
    index += utf8.count
  }

  mutating func checkDepth(_ depth: Int) throws(UnifiedCacheError) {
    if depth > limits.maxDepth { throw error("nesting deeper than \(limits.maxDepth)", reason: .limitExceeded) }
  }

  mutating func parseObject(depth: Int) throws(UnifiedCacheError) -> JSONValue {
    try checkDepth(depth)
    index += 1
    var object = JSONObject()
    while true {
      skipWhitespace()
      guard let byte = current else { throw error("unexpected end of input inside an object") }
      if byte == UInt8(ascii: "}") {
        index += 1
        return .object(object)
      }
      if !object.isEmpty {
        guard byte == UInt8(ascii: ",") else { throw error("expected ',' or '}' in an object") }
        index += 1
        skipWhitespace()
        if current == UInt8(ascii: "}") { continue }  // trailing comma
      }
      guard current == UInt8(ascii: "\"") else { throw error("expected a string key in an object") }
      let key = try parseString()
      skipWhitespace()
      guard current == UInt8(ascii: ":") else { throw error("expected ':' after an object key") }
      index += 1
      skipWhitespace()
      object[key] = try parseValue(depth: depth)
    }
  }

  mutating func parseArray(depth: Int) throws(UnifiedCacheError) -> JSONValue {
    try checkDepth(depth)
    index += 1
    var items: [JSONValue] = []
    while true {
      skipWhitespace()
      guard let byte = current else { throw error("unexpected end of input inside an array") }
      if byte == UInt8(ascii: "]") {
        index += 1
        return .array(items)
      }
      if !items.isEmpty {
        guard byte == UInt8(ascii: ",") else { throw error("expected ',' or ']' in an array") }
        index += 1
        skipWhitespace()
        if current == UInt8(ascii: "]") { continue }  // trailing comma
      }
      items.append(try parseValue(depth: depth))
    }
  }

  mutating func parseNumber() throws(UnifiedCacheError) -> String {
    let start = index
    if current == UInt8(ascii: "-") { index += 1 }
    guard let first = current, isDigit(first) else { throw error("invalid number") }
    index += 1
    if first != UInt8(ascii: "0") { skipDigits() }
    if current == UInt8(ascii: ".") {
      index += 1
      guard let byte = current, isDigit(byte) else { throw error("invalid number: digits expected after '.'") }
      skipDigits()
    }
    if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
      index += 1
      if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
      guard let byte = current, isDigit(byte) else { throw error("invalid number: digits expected in exponent") }
      skipDigits()
    }
    guard index - start <= limits.maxStringBytes else {
      throw error("number too long", at: start, reason: .limitExceeded)
    }
    return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
  }

  func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
  mutating func skipDigits() { while let byte = current, isDigit(byte) { index += 1 } }

  mutating func parseString() throws(UnifiedCacheError) -> String {
    let start = index
    index += 1
    // A string without escapes, the usual case, is made straight from its bytes. Once an escape is met, the
    // UTF-8 of each run (checked by itself, so that an error names the run) and of each escape collects here.
    var unescaped: [UInt8] = []
    var hasEscapes = false
    var runStart = index
    while true {
      // The bytes up to the next quote, backslash or control byte are passed over in one loop (one at a time
      // through `current`, they were a tenth of a fleet's read). The limit is checked as that walk checked it,
      // with the same outcome: at each byte it reached, the one it stopped at included unless the input ended.
      let stop = nextSpecialByte(from: index)
      let lastReached = stop < bytes.count ? stop : stop - 1
      if lastReached >= index, lastReached - start > limits.maxStringBytes {
        throw error("string longer than \(limits.maxStringBytes) bytes", at: start, reason: .limitExceeded)
      }
      index = stop
      guard let byte = current else { throw error("unterminated string", at: start) }
      switch byte {
      case UInt8(ascii: "\""):
        try checkRun(from: runStart, to: index)
        index += 1
        guard hasEscapes else {
          return String(decoding: UnsafeBufferPointer(rebasing: bytes[runStart..<index - 1]), as: UTF8.self)
        }
        unescaped += bytes[runStart..<index - 1]
        return String(decoding: unescaped, as: UTF8.self)
      case UInt8(ascii: "\\"):
        try checkRun(from: runStart, to: index)
        unescaped += bytes[runStart..<index]
        hasEscapes = true
        index += 1
        UTF8.encode(try parseEscape()) { unescaped.append($0) }
        runStart = index
      default:  // a control byte: `nextSpecialByte` stops at nothing else
        throw error("control character in a string")
      }
    }
  }

  /// The offset of the first quote, backslash or control byte from `offset` on; the end of the input if none.
  func nextSpecialByte(from offset: Int) -> Int {
    var position = offset
    while position < bytes.count {
      let byte = bytes[position]
      if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 { break }
      position += 1
    }
    return position
  }

  /// An error at `start` when the bytes `start..<end` of a string are not UTF-8. Checked without making a string
  /// of them (`String.isUTF8`): a string with escapes (an objection dump's binary data written as text is runs of
  /// a few bytes between them) is made once, of all its runs.
  func checkRun(from start: Int, to end: Int) throws(UnifiedCacheError) {
    guard String.isUTF8(UnsafeBufferPointer(rebasing: bytes[start..<end])) else {
      throw error("invalid UTF-8 in a string", at: start)
    }
  }

  mutating func parseEscape() throws(UnifiedCacheError) -> UnicodeScalar {
    guard let byte = current else { throw error("unterminated escape") }
    index += 1
    switch byte {
    case UInt8(ascii: "\""): return "\""
    case UInt8(ascii: "\\"): return "\\"
    case UInt8(ascii: "/"): return "/"
    case UInt8(ascii: "b"): return "\u{08}"
    case UInt8(ascii: "f"): return "\u{0C}"
    case UInt8(ascii: "n"): return "\n"
    case UInt8(ascii: "r"): return "\r"
    case UInt8(ascii: "t"): return "\t"
    case UInt8(ascii: "u"):
      let unit = try parseHex4()
      guard (0xD800..<0xE000).contains(unit) else { return UnicodeScalar(unit)! }
      // A surrogate must be a high one followed by a `\u` escape of a low one. RFC 8259 §8.2 leaves a lone one's
      // meaning open and I-JSON (RFC 7493 §2.1) forbids it; it cannot be part of a Swift string, and reading it
      // as U+FFFD changed the token it was in. Refused as invalid UTF-8 is: at the escape, never quoting it.
      let escape = index - 6
      guard unit < 0xDC00, bytes.count - index >= 6, bytes[index] == UInt8(ascii: "\\"),
        bytes[index + 1] == UInt8(ascii: "u")
      else { throw error("unpaired UTF-16 surrogate in a \\u escape", at: escape) }
      index += 2
      let low = try parseHex4()
      guard (0xDC00..<0xE000).contains(low) else {
        throw error("unpaired UTF-16 surrogate in a \\u escape", at: escape)
      }
      return UnicodeScalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))!
    default:
      throw error("invalid escape \\\(describe(byte))", at: index - 2)
    }
  }

  mutating func parseHex4() throws(UnifiedCacheError) -> UInt32 {
    guard bytes.count - index >= 4 else { throw error("truncated \\u escape") }
    var value: UInt32 = 0
    for _ in 0..<4 {
      let byte = bytes[index]
      let digit: UInt32
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
      default: throw error("invalid hex digit in \\u escape")
      }
      value = value * 16 + digit
      index += 1
    }
    return value
  }
}
