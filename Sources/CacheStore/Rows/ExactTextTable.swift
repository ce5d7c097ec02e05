import Foundation

/// A table from texts to values, the texts told apart by their exact bytes, as SQLite's UNIQUE tells them apart:
/// `String`'s equality is canonical equivalence, under which two spellings of "é" are one text.
///
/// For the few distinct texts a writer meets thousands of times (provenance files and labels, account
/// environments): a text is hashed by its UTF-8 bytes and compared with one `memcmp`, where a `Dictionary` keyed
/// by `PropertyListString` compared it through its storage enum (about 1,200 instructions a lookup). The hash
/// is `Hasher`'s, seeded per process: an input cannot choose labels that all fall in one bucket, as it could
/// with a fixed hash (`KeyHash`, FNV-1a), and make every lookup a walk over all of them.
struct ExactTextTable<Value> {
  private var entries: [ExactText: Value] = [:]

  /// The value of `text`, or nil.
  func value(of text: String) -> Value? { entries[ExactText(text: text)] }

  /// Sets the value of `text`.
  mutating func set(_ value: Value, for text: String) { entries[ExactText(text: text)] = value }

  /// Whether two texts have the same UTF-8 bytes (the same Unicode scalars).
  static func sameBytes(_ first: String, _ second: String) -> Bool {
    var first = first
    var second = second
    return first.withUTF8 { left in
      second.withUTF8 { right in
        guard left.count == right.count else { return false }
        guard let leftBase = left.baseAddress, let rightBase = right.baseAddress else { return true }
        return memcmp(leftBase, rightBase, left.count) == 0
      }
    }
  }
}

/// A text equal to another only with the same UTF-8 bytes, and hashed by them.
private struct ExactText: Hashable {
  var text: String

  static func == (lhs: ExactText, rhs: ExactText) -> Bool {
    ExactTextTable<Never>.sameBytes(lhs.text, rhs.text)
  }

  func hash(into hasher: inout Hasher) {
    var text = text
    text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
  }
}
