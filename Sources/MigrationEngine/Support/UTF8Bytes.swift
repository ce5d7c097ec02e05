extension String {
  /// The parts joined, made at its size in one allocation: a plan's reasons and keys (one or more per item and
  /// entity) were interpolations, whose string grew two or three times as the parts were appended. Five borrowed
  /// parameters, not a variadic list or a parameter pack, both of which retained every part.
  init(joining first: String, _ second: String, _ third: String, _ fourth: String, _ fifth: String = "") {
    self = ""
    reserveCapacity(first.utf8.count + second.utf8.count + third.utf8.count + fourth.utf8.count + fifth.utf8.count)
    append(first)
    append(second)
    append(third)
    append(fourth)
    append(fifth)
  }
}

extension Array where Element == UInt8 {
  /// Appends `text`'s UTF-8 bytes in one copy. The reports are built as bytes, a few short strings per line,
  /// and the generic `append(contentsOf: text.utf8)` cost several times the copy itself on short strings.
  mutating func appendUTF8(_ text: String) {
    // Not `withUTF8`, which is mutating: its copy of `text` was a retain and a release of strings that both
    // cores share (file paths, hosts, indents), contended.
    if text.utf8.withContiguousStorageIfAvailable({ append(contentsOf: $0) }) == nil { append(contentsOf: text.utf8) }
  }

  /// Appends a literal's bytes: the labels and separators of a report's lines, several per entry. A literal
  /// lends its bytes with no storage to retain, and a short one is appended byte by byte (a copy cost more).
  mutating func appendLiteral(_ text: StaticString) {
    text.withUTF8Buffer { utf8 in
      guard utf8.count > 4 else {
        for byte in utf8 { append(byte) }
        return
      }
      append(contentsOf: utf8)
    }
  }

  /// Appends `value` in decimal, as `String(value)` spells it: sources' item indexes, one per line of a report
  /// with thousands of them, without making a string of each.
  mutating func appendDecimal(_ value: Int) {
    if value < 0 { append(UInt8(ascii: "-")) }
    let start = count
    var rest = value.magnitude
    repeat {
      append(UInt8(ascii: "0") + UInt8(rest % 10))
      rest /= 10
    } while rest > 0
    // Reversed in place: `self[start...].reverse()` copied the slice into a buffer of its own first (an
    // allocation for every number, 120,000 in a 40,000-item report).
    var low = start
    var high = count - 1
    while low < high {
      swapAt(low, high)
      low += 1
      high -= 1
    }
  }
}
