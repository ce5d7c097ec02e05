import Adal2MSALSupport

/// Values remembered by text, the texts told apart by their exact bytes (`hasSameUTF8(as:)`), as SQLite tells
/// text apart, and unlike `String`'s `==`, under which two spellings of "é" are one text. For a handful of
/// distinct texts each looked up thousands of times (the files and labels of provenance, the environments of
/// accounts).
///
/// An open-addressing table of the texts' `KeyHash`es, and first the text found last (consecutive rows mostly
/// name the same one): a dictionary by `String` hashed each text with SipHash and compared it with `==` before
/// the byte comparison, and its arrays of entries and the last entry were copied with their strings retained,
/// about 1,000 instructions a lookup.
struct TextMemo<Value> {
  private var texts: [String] = []
  private var hashes: [Int64] = []
  private var values: [Value] = []
  /// The index of a text in `texts` at the slot of its hash (the first free one from there on), -1 in a free
  /// slot; kept at least twice as many as the texts.
  private var slots = [Int](repeating: -1, count: 16)
  /// The index of the text found last, -1 before the first, and that text, kept beside it so that it is compared
  /// in place: the array's element was copied out (a retain and a release) for each comparison.
  private var last = -1
  private var lastText = ""

  /// The number of texts remembered.
  var count: Int { texts.count }

  /// The value remembered for `text`, nil when there is none.
  mutating func value(of text: String) -> Value? {
    if last >= 0, lastText.hasSameUTF8(as: text) { return values[last] }
    let hash = KeyHash.of(text)
    var slot = self.slot(of: hash)
    while slots[slot] >= 0 {
      let index = slots[slot]
      if hashes[index] == hash, texts[index].hasSameUTF8(as: text) {
        last = index
        lastText = texts[index]
        return values[index]
      }
      slot = (slot + 1) & (slots.count - 1)
    }
    return nil
  }

  /// Remembers `value` for `text`, which has none (`value(of:)`).
  mutating func remember(_ value: Value, for text: String) {
    let hash = KeyHash.of(text)
    var slot = self.slot(of: hash)
    while slots[slot] >= 0 { slot = (slot + 1) & (slots.count - 1) }
    last = texts.count
    lastText = text
    slots[slot] = texts.count
    texts.append(text)
    hashes.append(hash)
    values.append(value)
    if texts.count * 2 > slots.count { grow() }
  }

  private func slot(of hash: Int64) -> Int { Int(truncatingIfNeeded: hash) & (slots.count - 1) }

  /// Doubles the slots and places every text again.
  private mutating func grow() {
    slots = [Int](repeating: -1, count: slots.count * 2)
    for index in hashes.indices {
      var slot = slot(of: hashes[index])
      while slots[slot] >= 0 { slot = (slot + 1) & (slots.count - 1) }
      slots[slot] = index
    }
  }
}
