import Adal2MSALSupport
import Testing

@testable import MigrationEngine

/// The text report's line builder: its byte-level fast paths must lay text out exactly as the plain
/// character-by-character algorithm does (the oracle below, which is how the report was first written).
@Suite struct TextLinesTests {
  /// The reference: re-measure the whole line (escapes excluded) for every word, trim spaces per line.
  private static func referenceWrap(_ text: String, first: String, rest: String, width: Int = 118) -> String {
    func visible(_ text: String) -> Int {
      var count = 0
      var inEscape = false
      for character in text {
        if character == "\u{1B}" {
          inEscape = true
        } else if inEscape {
          if character == "m" { inEscape = false }
        } else {
          count += 1
        }
      }
      return count
    }
    var lines: [String] = []
    var current = first
    var empty = true
    for word in text.split(separator: " ", omittingEmptySubsequences: false) {
      if !empty, visible(current) + 1 + word.count > width {
        lines.append(current)
        current = rest
        empty = true
      }
      current += (empty ? "" : " ") + word
      empty = false
    }
    lines.append(current)
    return lines.map { line in
      var trimmed = line
      while trimmed.last == " " { trimmed.removeLast() }
      return trimmed + "\n"
    }.joined()
  }

  private static let words = [
    "a", "token", "sha256:3f1a9c0b7d2e", "https://login.microsoftonline.com/common", "", "déjà", "日本語",
    "user@contoso.com", "🙂", "e\u{301}", String(repeating: "x", count: 130), "[adal.expired-access-token]",
  ]

  @Test func wrappingMatchesTheCharacterAlgorithm() {
    var seed: UInt64 = 0x5EED  // a fixed LCG: the same 2,000 cases every run
    func next(_ bound: Int) -> Int {
      seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((seed >> 33) % UInt64(bound))
    }
    let prefixes = [
      ("", ""), ("             why:  ", "                   "), ("  \u{1B}[32madd       \u{1B}[0m ", "  "),
    ]
    for _ in 0..<2000 {
      let text = (0..<next(40)).map { _ in Self.words[next(Self.words.count)] }.joined(separator: " ")
      let (first, rest) = prefixes[next(prefixes.count)]
      let width = 40 + next(80)
      var lines = TextLines()
      lines.wrapped(text, first: first, rest: rest, width: width)
      #expect(lines.text == Self.referenceWrap(text, first: first, rest: rest, width: width), "text: \(text)")
    }
  }

  /// A line feed inside a line (a value read from an input) is written as `\x0A`, by every way a line is
  /// written, and a wrapped line wraps as the text with the escape in its place does: each line of the report
  /// is one of the lines it was asked to write.
  @Test func aLineFeedInsideALineIsWrittenAsAnEscape() {
    var seed: UInt64 = 0x0A0A
    func next(_ bound: Int) -> Int {
      seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((seed >> 33) % UInt64(bound))
    }
    let words = Self.words + ["\n", "a\nb", "\n\n", "x\n "]
    func escaped(_ text: String) -> String { text.replacingOccurrences(of: "\n", with: "\\x0A") }
    for _ in 0..<1000 {
      let text = (0..<next(40)).map { _ in words[next(words.count)] }.joined(separator: " ")
      let width = 40 + next(80)
      var lines = TextLines()
      lines.line("before")
      lines.wrapped(text, first: "  from: ", rest: "        ", width: width)
      lines.line(text)
      lines.line("  ", text, " ")
      lines.line { $0.append(contentsOf: text.utf8) }
      lines.wrapped(first: LinePrefix("  "), rest: LinePrefix("    "), width: width) {
        $0.append(contentsOf: text.utf8)
      }
      var flushed: [UInt8] = []
      lines.flush { flushed += $0 }
      lines.line(text)
      let value = escaped(text)
      var reference = TextLines()
      reference.line("before")
      reference.wrapped(value, first: "  from: ", rest: "        ", width: width)
      reference.line(value)
      reference.line("  ", value, " ")
      reference.line(value)
      reference.wrapped(value, first: "  ", rest: "    ", width: width)
      reference.line(value)
      #expect(String(decoding: flushed, as: UTF8.self) + lines.text == reference.text, "text: \(text)")
    }
  }

  @Test func appendedLinesKeepTheirOrderAndTrimming() {
    var out = TextLines()
    out.line("header   ")
    var section = TextLines()
    section.line("  user  ")
    section.blank()
    out.append(section)
    out.line("after ")
    out.append(TextLines())
    out.wrapped("one two", first: "  ", rest: "  ")
    #expect(out.text == "header\n  user\n\nafter\n  one two\n")
  }

  @Test func bytesWrittenByAClosureWrapAsTheSameString() {
    var seed: UInt64 = 0xB17E5
    func next(_ bound: Int) -> Int {
      seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((seed >> 33) % UInt64(bound))
    }
    for _ in 0..<500 {
      let text = (0..<next(30)).map { _ in Self.words[next(Self.words.count)] }.joined(separator: " ")
      var viaString = TextLines()
      viaString.wrapped(text, first: "  from: ", rest: "        ", width: 60)
      var viaBytes = TextLines()
      // Twice, so that the reused scratch buffer is exercised.
      for _ in 0..<2 {
        viaBytes.wrapped(first: LinePrefix("  from: "), rest: LinePrefix("        "), width: 60) {
          $0.append(contentsOf: text.utf8)
        }
      }
      #expect(viaBytes.text == viaString.text + viaString.text, "text: \(text)")
    }
  }

  /// Text written by a closure is laid out as the reference lays it out, after lines already written (it is
  /// written in place, after them) and with a coloured prefix.
  @Test func bytesWrittenByAClosureMatchTheCharacterAlgorithm() {
    var seed: UInt64 = 0xC105E
    func next(_ bound: Int) -> Int {
      seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((seed >> 33) % UInt64(bound))
    }
    let prefixes = [
      ("", ""), ("             from: ", "                   "), ("  \u{1B}[35mskip      \u{1B}[0m ", "   "),
    ]
    for _ in 0..<2000 {
      let text = (0..<next(40)).map { _ in Self.words[next(Self.words.count)] }.joined(separator: " ")
      let (first, rest) = prefixes[next(prefixes.count)]
      let width = 20 + next(100)
      var lines = TextLines()
      lines.line("before  ")
      lines.wrapped(first: LinePrefix(first), rest: LinePrefix(rest), width: width) { $0.append(contentsOf: text.utf8) }
      let expected = "before\n" + Self.referenceWrap(text, first: first, rest: rest, width: width)
      #expect(lines.text == expected, "width \(width), text: \(text)")
    }
  }

  /// `firstSpace` against the obvious byte loop, on every length around the 8-byte words, every place of a
  /// space and every start.
  @Test func firstSpaceMatchesTheByteLoop() {
    for length in 0..<40 {
      for position in 0..<max(1, length) {
        for other in [nil, position + 9, position + 1] {
          var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: length)
          for place in [position, other].compactMap({ $0 }) where place < length { bytes[place] = UInt8(ascii: " ") }
          for start in 0...length {
            let expected = bytes[start...].firstIndex(of: UInt8(ascii: " ")) ?? length
            let found = bytes.withUnsafeBufferPointer { TextLines.firstSpace(in: $0, from: start) }
            #expect(found == expected, "\(length) \(position) \(start)")
          }
        }
      }
    }
  }

  /// `isPlain` against the obvious byte loop, on every length around the 8-byte words and every place of an
  /// escape or a non-ASCII byte.
  @Test func plainCheckMatchesTheByteLoop() {
    for length in 0..<40 {
      for position in 0..<max(1, length) {
        for odd: UInt8 in [0x1B, 0x80, 0xC3, 0xFF, 0x1A, 0x1C, 0x7F, 0x3B, 0x9B] {
          var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: length)
          if length > 0 { bytes[position] = odd }
          let expected = bytes.allSatisfy { $0 < 0x80 && $0 != 0x1B }
          #expect(bytes.withUnsafeBufferPointer { TextLines.isPlain($0) } == expected, "\(length) \(position) \(odd)")
        }
      }
    }
  }

  /// The final text copies chunks on all cores: many chunks of different sizes keep their order.
  @Test func manyChunksJoinInOrder() {
    var out = TextLines()
    var expected = ""
    for index in 0..<1_000 {
      var section = TextLines()
      let line = String(repeating: "x", count: index % 37) + " \(index)"
      section.line(line)
      out.append(section)
      out.line("after", " ", String(index))
      expected += "\(line)\nafter \(index)\n"
    }
    #expect(out.text == expected)
  }

  @Test(arguments: [0, 1, 255, 256, 257, 1_000, 10_007])
  func orderedParallelMapIsMapInOrder(count: Int) {
    let values = Array(0..<count)
    #expect(values.orderedParallelMap(minimumChunk: 16) { $0 * 3 + 1 } == values.map { $0 * 3 + 1 })
    #expect(values.orderedParallelMap { String($0) } == values.map { String($0) })
  }
}
