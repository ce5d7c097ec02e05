import Foundation

/// A table from texts to values, the texts told apart by their exact bytes, as SQLite's UNIQUE tells them apart:
/// `String`'s equality is canonical equivalence, under which two spellings of "é" are one text.
///
/// For the few distinct texts a writer meets thousands of times (provenance files and labels, account
/// environments): a text is found by its `KeyHash` and one comparison of its bytes, where a `Dictionary` keyed
/// by `PropertyListString` hashed it with SipHash and compared it through its storage enum (about 1,200
/// instructions a lookup). Texts of the same hash are kept side by side and compared in turn.
struct ExactTextTable<Value> {
  private var entries: [Int64: [(text: String, value: Value)]] = [:]

  /// The value of `text`, or nil.
  func value(of text: String) -> Value? {
    guard let candidates = entries[KeyHash.of(text)] else { return nil }
    return candidates.first { Self.sameBytes($0.text, text) }?.value
  }

  /// Sets the value of `text`.
  mutating func set(_ value: Value, for text: String) {
    let hash = KeyHash.of(text)
    if let index = entries[hash]?.firstIndex(where: { Self.sameBytes($0.text, text) }) {
      entries[hash]![index].value = value
    } else {
      entries[hash, default: []].append((text, value))
    }
  }

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
