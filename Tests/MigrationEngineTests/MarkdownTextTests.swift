import Foundation
import Testing
import _Adal2MSALTestSupport

@testable import MigrationEngine

/// The Markdown report's cell and inline-code escaping replaces every `|` (or backtick) and line feed, as a
/// Markdown reader sees them: code point by code point, whatever combining mark follows (Foundation's
/// `replacingOccurrences`, which it used to match, compares whole characters and left those). Bytes are
/// compared: `String`'s `==` would take "é" and "e\u{301}" as equal.
@Suite struct MarkdownTextTests {
  /// `text` with each code point `replacements` names replaced.
  static func replacingScalars(_ text: String, _ replacements: [Unicode.Scalar: String]) -> String {
    text.unicodeScalars.map { replacements[$0] ?? String($0) }.joined()
  }

  static let samples: [String] = {
    let pieces = [
      "|", "\n", "\r", "\r\n", "`", "`\u{301}", "|\u{301}", "\n\u{301}", "é", "日本", "👩‍💻", "a b", "<br>", "\\",
    ]
    var generator = SeededGenerator(seed: 7)
    return ["", "plain"]
      + (0..<2000).map { _ in
        (0..<Int.random(in: 1...8, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
      }
  }()

  @Test func cellsEscapeEveryPipeAndLineFeed() {
    for text in Self.samples {
      var out = MarkdownText()
      out.escaped(text)
      let expected = Self.replacingScalars(text, ["|": "\\|", "\n": " "])
      #expect(out.bytes == Array(expected.utf8), "\(Array(text.unicodeScalars))")
    }
  }

  @Test func inlineCodeReplacesEveryBacktickAndLineFeed() {
    for text in Self.samples {
      var out = MarkdownText()
      out.code(text)
      let expected = "`" + Self.replacingScalars(text, ["`": "'", "\n": " "]) + "`"
      #expect(out.bytes == Array(expected.utf8), "\(Array(text.unicodeScalars))")
    }
  }
}
