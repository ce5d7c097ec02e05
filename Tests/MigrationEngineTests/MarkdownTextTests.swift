import Foundation
import Testing
import _Adal2MSALTestSupport

@testable import MigrationEngine

/// The Markdown report's cell escaping replaces bytes where it can: it must give exactly what the Foundation
/// `replacingOccurrences` chains it replaced give, for text of every kind. Bytes are compared: `String`'s
/// `==` would take "é" and "e\u{301}" as equal.
@Suite struct MarkdownTextTests {
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

  @Test func escapedCellsMatchFoundation() {
    for text in Self.samples {
      var out = MarkdownText()
      out.escaped(text)
      let expected = text.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\n", with: " ")
      #expect(out.bytes == Array(expected.utf8), "\(Array(text.unicodeScalars))")
    }
  }

  @Test func inlineCodeMatchesFoundation() {
    for text in Self.samples {
      var out = MarkdownText()
      out.code(text)
      let expected = "`" + text.replacingOccurrences(of: "`", with: "'") + "`"
      #expect(out.bytes == Array(expected.utf8), "\(Array(text.unicodeScalars))")
    }
  }
}
