import Adal2MSALSupport
import Foundation

/// Lines of text with aligned tables; trailing spaces trimmed, one final newline.
struct TextLines {
  // UTF-8 bytes, each line trimmed and ended as it is added: reports of 100,000 entries are about 100 MB, and
  // building them as Strings, line by line and word by word, took seconds. Lines made elsewhere (in
  // parallel) are kept as chunks and copied once, into the final String.
  private var chunks: [[UInt8]] = []
  private var bytes: [UInt8] = []
  /// Reused for text assembled before it is wrapped (source lists), so that it needs no String of its own.
  private var scratch: [UInt8] = []
  /// Where the line being written starts in `bytes`: a line feed after it is a value's, not a line's end.
  private var openLineStart = 0

  init() {}

  /// Lines about `byteCount` bytes long in all, written without regrowing (and copying) the buffer.
  init(reservingCapacity byteCount: Int) {
    bytes.reserveCapacity(byteCount)
  }

  /// The lines so far, as one text.
  var text: String { RenderedReport(chunks + [bytes]).text }

  /// Writes the lines so far to `output`, in the chunks they were written in.
  func write(to output: (UnsafeRawBufferPointer) throws -> Void) rethrows {
    for chunk in chunks { try chunk.withUnsafeBytes(output) }
    try bytes.withUnsafeBytes(output)
  }

  /// Writes the lines so far to `output` and forgets them (every chunk ends with a newline, so the lines
  /// written next start clean).
  mutating func flush(to output: (UnsafeRawBufferPointer) throws -> Void) rethrows {
    try write(to: output)
    chunks = []
    bytes = []
    openLineStart = 0
  }

  /// The lines so far as one array of UTF-8 bytes, and forgets them (no copy when nothing was appended).
  mutating func takeBytes() -> [UInt8] {
    var out = chunks.isEmpty ? [] : Array(chunks.joined())
    chunks = []
    if out.isEmpty { swap(&out, &bytes) } else { out += bytes }
    bytes = []
    openLineStart = 0
    return out
  }

  /// Appends lines made elsewhere, without copying them. (Trimming the next line stops at the empty buffer:
  /// every chunk ends with a newline.)
  mutating func append(_ other: TextLines) {
    if !bytes.isEmpty { chunks.append(bytes) }
    bytes = []
    chunks += other.chunks
    if !other.bytes.isEmpty { chunks.append(other.bytes) }
    openLineStart = 0
  }

  mutating func line(_ line: String) {
    bytes.appendUTF8(line)
    endLine()
  }

  /// A line of several parts, without joining them into a String first.
  mutating func line(_ parts: String...) {
    for part in parts { bytes.appendUTF8(part) }
    endLine()
  }

  /// A line that `write` appends as UTF-8, without making a String of it.
  mutating func line(_ write: (inout [UInt8]) -> Void) {
    write(&bytes)
    endLine()
  }

  /// Ends the line being written, without its trailing spaces (padding). A space is one byte and never part
  /// of another character, and the previous line ends with a newline, so trimming stops in time.
  private mutating func endLine() {
    while bytes.last == UInt8(ascii: " ") { bytes.removeLast() }
    // A line feed before the line's end is a value's (a username, a key read from an input), and must not start
    // a line of the report, which would then say what the plan does not.
    TerminalText.escapeLineFeeds(in: &bytes, from: openLineStart)
    bytes.append(UInt8(ascii: "\n"))
    openLineStart = bytes.count
  }

  /// Word-wraps `text` to `width` columns: `first` before the first line, `rest` before the others.
  mutating func wrapped(_ text: String, first: String, rest: String, width: Int = 118) {
    wrapped(first: LinePrefix(first), rest: LinePrefix(rest), width: width) { $0.appendUTF8(text) }
  }

  /// `wrapped` of the text that `write` appends to a byte buffer, without making a String of it.
  mutating func wrapped(
    first: LinePrefix, rest: LinePrefix, width: Int = 118, _ write: (inout [UInt8]) -> Void
  ) {
    // Written in place after `first`: nearly every line is plain and fits, and is then done as it stands
    // (`wrapWords` gives the same bytes). Only a line to wrap is moved aside and wrapped from there.
    let lineStart = bytes.count
    bytes.append(contentsOf: first.bytes)
    let textStart = bytes.count
    write(&bytes)
    TerminalText.escapeLineFeeds(in: &bytes, from: textStart)
    let plain = bytes.withUnsafeBufferPointer { Self.isPlain(UnsafeBufferPointer(rebasing: $0[textStart...])) }
    if plain, first.width + (bytes.count - textStart) <= width { return endLine() }
    var text = scratch
    scratch = []
    text.removeAll(keepingCapacity: true)
    text.reserveCapacity(256)  // the lines that wrap are 120 to 250 bytes: made once, not grown
    text.append(contentsOf: bytes[textStart...])
    if plain {
      // `first` stays where it was written; the text is known plain and too long for one line.
      bytes.removeSubrange(textStart...)
      text.withUnsafeBufferPointer { wrapWords($0, firstWidth: first.width, rest: rest, width: width) }
    } else {
      bytes.removeSubrange(lineStart...)
      wrappedByCharacters(String(decoding: text, as: UTF8.self), first: first, rest: rest, width: width)
    }
    scratch = text
  }

  /// Word-wraps `utf8`, after `first` (`firstWidth` columns) has been written: ASCII text without escapes,
  /// a byte a column.
  private mutating func wrapWords(
    _ utf8: UnsafeBufferPointer<UInt8>, firstWidth: Int, rest: LinePrefix, width: Int
  ) {
    var currentWidth = firstWidth
    // A line's words are its run of the text (one space between words, as they are separated there): each
    // line is copied whole once its end is known, not word by word.
    var empty = true
    var lineStart = 0
    var wordStart = 0
    while wordStart <= utf8.count {
      let end = Self.firstSpace(in: utf8, from: wordStart)
      if !empty, currentWidth + 1 + (end - wordStart) > width {
        // The line's trailing spaces are dropped from its run, so that the newline and `rest` go in as one
        // piece (a source list breaks three times or more). A run of nothing but spaces is trimmed as any
        // line is, into what was written before it.
        var lineEnd = wordStart - 1
        while lineEnd > lineStart, utf8[lineEnd - 1] == UInt8(ascii: " ") { lineEnd -= 1 }
        if lineEnd > lineStart {
          bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[lineStart..<lineEnd]))
          bytes.append(contentsOf: rest.lineBreak)
          openLineStart = bytes.count - rest.bytes.count
        } else {
          endLine()
          bytes.append(contentsOf: rest.bytes)
        }
        currentWidth = rest.width
        empty = true
        lineStart = wordStart
      }
      currentWidth += (empty ? 0 : 1) + (end - wordStart)
      empty = false
      wordStart = end + 1
    }
    bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[lineStart...]))
    endLine()
  }

  /// The index of the first space at or after `start`, or the end. Eight bytes at a time: the lines that
  /// wrap (source lists) are long, and a look at each byte was most of wrapping them.
  static func firstSpace(in utf8: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
    var offset = start
    if let base = UnsafeRawPointer(utf8.baseAddress) {
      let (ones, highBits, spaces): (UInt64, UInt64, UInt64) = (
        0x0101_0101_0101_0101, 0x8080_8080_8080_8080, 0x2020_2020_2020_2020
      )
      while offset + 8 <= utf8.count {
        let word = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) ^ spaces
        // A zero byte of `word` is a space. The lowest byte flagged is the first one: a flag can be false
        // only above a true one (the borrow).
        let found = (word &- ones) & ~word & highBits
        if found != 0 { return offset + found.trailingZeroBitCount / 8 }
        offset += 8
      }
    }
    while offset < utf8.count, utf8[offset] != UInt8(ascii: " ") { offset += 1 }
    return offset
  }

  /// `wrapped` for text with non-ASCII characters or escapes, where columns are characters a terminal shows.
  private mutating func wrappedByCharacters(_ text: String, first: LinePrefix, rest: LinePrefix, width: Int) {
    var current = first.text
    var currentWidth = first.width
    var empty = true
    for word in text.split(separator: " ", omittingEmptySubsequences: false) {
      let wordWidth = Self.visibleCount(word)
      if !empty, currentWidth + 1 + wordWidth > width {
        line(current)
        current = rest.text
        currentWidth = rest.width
        empty = true
      }
      if !empty {
        current += " "
        currentWidth += 1
      }
      current += word
      currentWidth += wordWidth
      empty = false
    }
    line(current)
  }

  mutating func blank() { line("") }

  mutating func table(_ rows: [[String]], indent: Int, rightAligned: Set<Int> = []) {
    let columns = rows.map(\.count).max() ?? 0
    let widths = (0..<columns).map { column in rows.map { column < $0.count ? $0[column].count : 0 }.max() ?? 0 }
    for row in rows {
      let cells = row.enumerated().map { column, cell in
        let gap = String(repeating: " ", count: max(0, widths[column] - cell.count))
        return rightAligned.contains(column) ? gap + cell : cell + gap
      }
      line(String(repeating: " ", count: indent) + cells.joined(separator: "  "))
    }
  }

  /// Whether `utf8` is ASCII without escapes, so that a byte is a column. Eight bytes at a time: every line
  /// of a report is checked, about 100 MB at 100,000 items.
  static func isPlain(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let base = UnsafeRawPointer(utf8.baseAddress) else { return true }
    let (highBits, ones, escapes): (UInt64, UInt64, UInt64) = (
      0x8080_8080_8080_8080, 0x0101_0101_0101_0101, 0x1B1B_1B1B_1B1B_1B1B
    )
    var offset = 0
    while offset + 8 <= utf8.count {
      let word = base.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
      let escapeBytesZeroed = word ^ escapes
      // A byte ≥ 0x80, or a zero byte of `escapeBytesZeroed` (an ESC in `word`).
      if word & highBits != 0 || (escapeBytesZeroed &- ones) & ~escapeBytesZeroed & highBits != 0 { return false }
      offset += 8
    }
    return utf8[offset...].allSatisfy { $0 < 0x80 && $0 != 0x1B }
  }

  /// `visibleCount` of a String (indents, prefixes), on its contiguous bytes eight at a time.
  static func visibleCount(_ text: String) -> Int {
    let plain = text.utf8.withContiguousStorageIfAvailable(isPlain) ?? false
    return plain ? text.utf8.count : visibleCount(text[...])
  }

  /// Characters a terminal shows: ANSI colour sequences (`ESC [ … m`) take no column.
  static func visibleCount(_ text: some StringProtocol) -> Int {
    // On the contiguous bytes when there are some: the UTF-8 view's iterator was most of this.
    let plain = text.utf8.withContiguousStorageIfAvailable { $0.allSatisfy { $0 < 0x80 && $0 != 0x1B } }
    if plain ?? text.utf8.allSatisfy({ $0 < 0x80 && $0 != 0x1B }) { return text.utf8.count }
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
}

/// The start of a line (an indent, or a label padded to its column), with its bytes and the columns it takes
/// found once: reports start several lines an entry with the same few, and measured them every time.
struct LinePrefix: Sendable {
  let bytes: [UInt8]
  /// The columns a terminal shows (`TextLines.visibleCount`).
  let width: Int

  /// A newline, then `bytes`: where a wrapped line breaks.
  let lineBreak: [UInt8]

  init(_ text: String) {
    bytes = Array(text.utf8)
    width = TextLines.visibleCount(text)
    lineBreak = [UInt8(ascii: "\n")] + bytes
  }

  /// The prefix as a String, for the rare line wrapped by characters.
  var text: String { String(decoding: bytes, as: UTF8.self) }
}
