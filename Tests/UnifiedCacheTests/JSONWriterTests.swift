import Foundation
import Testing
import UnifiedCache
import _Adal2MSALTestSupport

/// The writer copies runs of bytes and caches indentation; these tests hold it to a plain scalar-by-scalar
/// reference (the writer's former code) and to Foundation's reading of its output. Bytes are compared:
/// `String`'s `==` would take "é" and "e\u{301}" as equal.
@Suite struct JSONWriterTests {
  /// Text full of what needs care: quotes, backslashes, every control character, DEL, non-ASCII, line and
  /// paragraph separators, emoji (and their ZWJ sequences), combining marks.
  static func randomStrings(seed: UInt64, count: Int) -> [String] {
    let pieces: [String] =
      [
        "\"", "\\", "/", "\u{7F}", "é", "ß", "日本", "\u{2028}", "\u{2029}", "👩‍💻", "🇫🇷", "e\u{301}", "\r\n", "<br>",
        "plain ascii run", "\u{FEFF}", "\u{10FFFF}", "\u{80}",
      ] + (0..<0x20).map { String(UnicodeScalar(UInt8($0))) }
    var generator = SeededGenerator(seed: seed)
    return (0..<count).map { _ in
      (0..<Int.random(in: 0...12, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
    }
  }

  @Test func stringsAreEscapedAsTheScalarReferenceDoes() {
    for text in Self.randomStrings(seed: 1, count: 2000) {
      #expect(
        Array(JSONText.compact(.string(text)).utf8) == Array(Reference.quoted(text).utf8),
        "\(Array(text.unicodeScalars))")
    }
  }

  /// Strings are scanned eight bytes at a time: a byte to escape is found at every place in a word and past
  /// the last whole word, and bytes that only look alike in a word (`!`, `#`, `[`, `]`, DEL) are not.
  @Test func aByteToEscapeIsFoundAtEveryPlace() {
    let escaped: [UInt8] = Array(0..<0x20) + [0x22, 0x5C]
    let plain: [UInt8] = [0x20, 0x21, 0x23, 0x5B, 0x5D, 0x7F]
    for length in 1...24 {
      for place in 0..<length {
        for byte in escaped + plain {
          var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: length)
          bytes[place] = byte
          let text = String(decoding: bytes, as: UTF8.self)
          #expect(
            Array(JSONText.compact(.string(text)).utf8) == Array(Reference.quoted(text).utf8),
            "byte \(byte) at \(place) of \(length)")
        }
      }
    }
  }

  @Test func foundationReadsBackEveryString() throws {
    // JSONSerialization drops U+FEFF inside strings, so texts with one are left to the reference test.
    let texts = Self.randomStrings(seed: 2, count: 500).filter { !$0.unicodeScalars.contains("\u{FEFF}") }
    let json = JSONText.pretty(.array(texts.map(JSONValue.string)), indent: 2)
    let read = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String])
    try #require(read.count == texts.count)
    for (read, text) in zip(read, texts) {
      #expect(Array(read.utf8) == Array(text.utf8), "\(Array(text.unicodeScalars))")
    }
  }

  @Test func layoutMatchesTheReferenceAtEveryDepth() {
    var generator = SeededGenerator(seed: 3)
    let strings = Self.randomStrings(seed: 4, count: 200)
    func value(depth: Int) -> JSONValue {
      switch Int.random(in: 0...(depth > 5 ? 3 : 6), using: &generator) {
      case 0: return .null
      case 1: return .bool(Bool.random(using: &generator))
      case 2: return .number(String(Int.random(in: -999...999, using: &generator)))
      case 3: return .string(strings.randomElement(using: &generator)!)
      case 4, 5:
        return .array((0..<Int.random(in: 0...4, using: &generator)).map { _ in value(depth: depth + 1) })
      default:
        let keys = (0..<Int.random(in: 0...4, using: &generator)).map {
          "k\($0)" + strings.randomElement(using: &generator)!
        }
        return .object(JSONObject(keys.map { JSONMember($0, value(depth: depth + 1)) }))
      }
    }
    for _ in 0..<300 {
      let sample = value(depth: 0)
      #expect(Array(JSONText.compact(sample).utf8) == Array(Reference.text(sample, indent: nil).utf8))
      for indent in [2, 4] {
        #expect(
          Array(JSONText.pretty(sample, indent: indent).utf8) == Array(Reference.text(sample, indent: indent).utf8))
      }
    }
  }

  /// Indents past the writer's literal run of spaces (64) come from its grown buffer: the same layout.
  @Test func deepNestingKeepsTheReferenceLayout() {
    var sample: JSONValue = .array([.string("deepest"), .number("1")])
    for level in 0..<40 {
      sample = level % 2 == 0 ? .object(JSONObject([JSONMember("k\(level)", sample)])) : .array([sample, .null])
    }
    for indent in [2, 4] {
      #expect(
        Array(JSONText.pretty(sample, indent: indent).utf8) == Array(Reference.text(sample, indent: indent).utf8))
    }
  }

  @Test func partsWrittenApartAppendAsOneValue() {
    let elements: [JSONValue] = [.object(["a": .array([.string("x\n"), .object([:])])]), .array([]), .number("1")]
    let whole: JSONValue = .object(["list": .array(elements), "after": .bool(true)])
    var writer = JSONWriter(indent: 2)
    writer.beginObject()
    writer.key("list")
    writer.beginArray()
    for element in elements {
      var part = JSONWriter(indent: 2, level: writer.depth)
      part.value(element)
      writer.append(valueBytes: part.bytes)
    }
    writer.endArray()
    writer.key("after")
    writer.bool(true)
    writer.endObject()
    writer.finalNewline()
    #expect(Array(writer.text.utf8) == Array((JSONText.pretty(whole, indent: 2) + "\n").utf8))
  }
}

/// The writer as it was: a `String` built scalar by scalar.
private enum Reference {
  static func text(_ value: JSONValue, indent: Int?, level: Int = 0) -> String {
    func container(_ open: String, _ close: String, _ elements: [String]) -> String {
      guard !elements.isEmpty else { return open + close }
      guard let indent else { return open + elements.joined(separator: ",") + close }
      let inner = "\n" + String(repeating: " ", count: indent * (level + 1))
      return open + elements.map { inner + $0 }.joined(separator: ",") + "\n"
        + String(repeating: " ", count: indent * level) + close
    }
    switch value {
    case .null: return "null"
    case .bool(let flag): return flag ? "true" : "false"
    case .number(let text): return text
    case .string(let text): return quoted(text)
    case .array(let items): return container("[", "]", items.map { text($0, indent: indent, level: level + 1) })
    case .object(let object):
      let separator = indent == nil ? ":" : ": "
      return container(
        "{", "}", object.members.map { quoted($0.key) + separator + text($0.value, indent: indent, level: level + 1) })
    }
  }

  static func quoted(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case "\u{08}": out += "\\b"
      case "\u{0C}": out += "\\f"
      case _ where scalar.value < 0x20:
        let hex = String(scalar.value, radix: 16)
        out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out + "\""
  }
}
