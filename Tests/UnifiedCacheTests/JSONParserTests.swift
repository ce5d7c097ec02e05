import Adal2MSALSupport
import Foundation
import Testing
import UnifiedCache

/// The parser every JSON input goes through: strings with and without escapes, the places its errors name,
/// duplicate keys and number text.
@Suite("JSON parser")
struct JSONParserTests {
  static func parse(_ bytes: [UInt8]) throws(UnifiedCacheError) -> JSONValue {
    try JSONParser().parse(Data(bytes), file: "t.json")
  }

  @Test func stringsWithEscapesKeepEveryRun() throws {
    let text = #"["plain é", "a\u00e9b\n\ud83d\ude00c\"\/\\end", "\t", "\uDBFF\uDFFF"]"#
    #expect(
      try Self.parse(Array(text.utf8))
        == .array([.string("plain é"), .string("aéb\n😀c\"/\\end"), .string("\t"), .string("\u{10FFFF}")]))
  }

  /// A `\u` escape of a UTF-16 surrogate that is not a high one followed by a `\u` escape of a low one is refused
  /// as invalid UTF-8 is (RFC 7493 §2.1): it read as U+FFFD, which changed the token it was in. The error is at
  /// the escape (offset, line and column) and quotes neither the escape nor the string.
  @Test func unpairedSurrogateEscapesAreRefusedAtTheEscape() throws {
    let cases: [(text: String, offset: Int)] = [
      (#"{"secret": "fake-at-1\ud800"}"#, 21),  // a high one at the end of the string
      (#"{"secret": "tok\udc00en"}"#, 15),  // a low one alone
      (#"{"secret": "tok\ud800\u0041"}"#, 15),  // a high one, then an escape of no low one
      (#"{"secret": "tok\ud800\ud800"}"#, 15),  // a high one, then another
      (#"{"secret": "tok\ud800x\udc00"}"#, 15),  // a high one, then no escape
      ("{\"a\": 1,\n \"secret\": \"tok\\uDBFF\"}", 24),  // on the second line, upper-case hex
    ]
    for (text, offset) in cases {
      let error = #expect(throws: UnifiedCacheError.self, "\(text)") { try Self.parse(Array(text.utf8)) }
      #expect(error?.message == "unpaired UTF-16 surrogate in a \\u escape", "\(text)")
      #expect(error?.reason == .notJSON)
      #expect(error?.location.byteOffset == offset, "\(text)")
      #expect(error.map { !$0.description.contains("tok") && !$0.description.contains("fake") } == true)
    }
    let second = #expect(throws: UnifiedCacheError.self) {
      try Self.parse(Array("{\"a\": 1,\n \"secret\": \"tok\\uDBFF\"}".utf8))
    }
    #expect(second?.location == SourceLocation(file: "t.json", byteOffset: 24, line: 2, column: 16))
  }

  @Test func invalidUTF8NamesTheRunItIsIn() throws {
    // `"ab\nc` then 0xFF: the run after the escape starts at byte 5.
    let afterEscape = #expect(throws: UnifiedCacheError.self) {
      try Self.parse(Array(#""ab\nc"#.utf8) + [0xFF, UInt8(ascii: "\"")])
    }
    #expect(afterEscape?.message == "invalid UTF-8 in a string")
    #expect(afterEscape?.location.byteOffset == 5)
    let plain = #expect(throws: UnifiedCacheError.self) { try Self.parse([UInt8(ascii: "\""), 0x61, 0xC3, 0x22]) }
    #expect(plain?.location.byteOffset == 1)
    // `"x\n` then `a`, 0xC3 and `\tb"`: the run before the second escape starts at byte 4.
    let beforeEscape = #expect(throws: UnifiedCacheError.self) {
      try Self.parse(Array(#""x\n"#.utf8) + [0x61, 0xC3] + Array(#"\tb""#.utf8))
    }
    #expect(beforeEscape?.message == "invalid UTF-8 in a string")
    #expect(beforeEscape?.location.byteOffset == 4)
  }

  @Test func duplicateKeysKeepTheLastValueInTheFirstPlace() throws {
    let object = try #require(try Self.parse(Array(#"{"a": 1, "b": 2, "a": 3}"#.utf8)).objectValue)
    #expect(object.keys == ["a", "b"])
    #expect(object["a"] == .number("3"))
  }

  @Test func numbersKeepTheirText() throws {
    #expect(
      try Self.parse(Array("[1.50, -0, 1e2, 12345678901234567890, 1.5E+400]".utf8))
        == .array([
          .number("1.50"), .number("-0"), .number("1e2"), .number("12345678901234567890"), .number("1.5E+400"),
        ]))
  }
}
