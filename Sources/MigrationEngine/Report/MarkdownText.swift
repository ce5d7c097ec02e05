import Foundation

/// Markdown as UTF-8 bytes, built line by line: the Markdown report's lines without a `String` per line or
/// per cell (a 100,000-item report has 150,000 table rows).
struct MarkdownText: Sendable {
  private(set) var bytes: [UInt8] = []
  /// A buffer kept for `escaped(_:)`'s text, so that each cell does not allocate one.
  private var scratch: [UInt8] = []

  /// `text`, then a line break.
  mutating func line(_ text: String = "") {
    append(text)
    bytes.append(0x0A)
  }

  mutating func append(_ text: String) { bytes.appendUTF8(text) }

  /// A table's header row and its separator row.
  mutating func tableHeader(_ header: [String]) {
    line("| " + header.joined(separator: " | ") + " |")
    line("|" + String(repeating: "---|", count: header.count))
  }

  /// A table row is `startRow()`, the cells with `nextCell()` between them, `endRow()`: "| a | b |".
  mutating func startRow() { append("| ") }
  mutating func nextCell() { append(" | ") }
  mutating func endRow() { line(" |") }

  /// A row of plain cells.
  mutating func row(_ cells: [String]) { line("| " + cells.joined(separator: " | ") + " |") }

  /// `text` as inline code: in backticks, with any backtick in it made a `'` and a line break a space (a
  /// username read from an input must not end a heading or a row and start a line of its own).
  mutating func code(_ text: String) {
    bytes.append(0x60)
    var text = text
    text.withUTF8 { replacing($0, 0x60, with: "'", 0x0A, with: " ") }
    bytes.append(0x60)
  }

  /// A line: `prefix`, then `text` as inline code.
  mutating func codeLine(_ prefix: String, _ text: String) {
    append(prefix)
    code(text)
    line()
  }

  /// A line: `prefix`, then each of `texts` as inline code, separated by ", ".
  mutating func codesLine(_ prefix: String, _ texts: [String]) {
    append(prefix)
    for index in texts.indices {
      if index > 0 { append(", ") }
      code(texts[index])
    }
    line()
  }

  /// `text` for a table cell: `|` escaped, line breaks made spaces.
  mutating func escaped(_ text: String) {
    var text = text
    text.withUTF8 { escaped($0) }
  }

  /// `escaped` of the text `write` appends to a byte buffer, without making a `String` of it.
  mutating func escaped(_ write: (inout [UInt8]) -> Void) {
    var text = scratch
    scratch = []
    text.removeAll(keepingCapacity: true)
    write(&text)
    text.withUnsafeBufferPointer { escaped($0) }
    scratch = text
  }

  private mutating func escaped(_ utf8: UnsafeBufferPointer<UInt8>) {
    replacing(utf8, 0x7C, with: "\\|", 0x0A, with: " ")
  }

  /// Appends `utf8` with each byte `target` and `other` replaced. Both are ASCII, never part of another
  /// character's UTF-8, and a Markdown reader takes each as it is whatever follows it, so each is replaced
  /// wherever it is, not by whole characters: a `|` or a line feed joined to a combining mark would otherwise
  /// stay and split a table row or end a heading.
  private mutating func replacing(
    _ utf8: UnsafeBufferPointer<UInt8>, _ target: UInt8, with replacement: String, _ other: UInt8,
    with otherReplacement: String
  ) {
    guard utf8.contains(where: { $0 == target || $0 == other }) else { return bytes.append(contentsOf: utf8) }
    for byte in utf8 {
      if byte == target {
        append(replacement)
      } else if byte == other {
        append(otherReplacement)
      } else {
        bytes.append(byte)
      }
    }
  }
}
