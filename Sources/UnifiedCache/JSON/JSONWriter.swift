/// Writes JSON text as UTF-8 bytes, one value at a time, in `JSONText`'s layout: compact, or indented with
/// `"key": value`. For output too large to build as a `JSONValue` first (a report of 100,000 entries), and
/// for parts written on other threads and appended in order (`append(valueBytes:)`).
public struct JSONWriter: Sendable {
  /// UTF-8 appended whole (`append(valueBytes:)`) and the text before each, in order; `bytes` follows them.
  private var pieces: [[UInt8]] = []
  /// The UTF-8 after the last piece: all of the text when nothing was appended whole.
  public private(set) var bytes: [UInt8] = []
  /// Spaces per level; nil for one line without spaces.
  private let indent: Int?
  /// The level of the first value, when it will be appended inside another writer's output.
  private let baseLevel: Int
  /// How many values each open container but the innermost holds so far, innermost last.
  private var openCounts: [Int] = []
  /// How many values the innermost open container holds so far: kept apart from `openCounts`, as every element
  /// reads and bumps it (through the array, a uniqueness check and a bounds check each time).
  private var innermostCount = 0
  /// How many containers are open.
  private var openDepth = 0
  /// A key was just written: the next value follows it on the same line.
  private var afterKey = false
  /// A newline and enough spaces for the deepest level so far: each indent is a prefix of it.
  private var newlineAndSpaces: [UInt8] = [0x0A]

  /// A writer whose first value sits at `level` (0 at the top; `depth` of the writer it will be appended to).
  public init(indent: Int? = nil, level: Int = 0) {
    self.indent = indent
    baseLevel = level
  }

  /// Room for about `byteCount` bytes of text (and a few levels of nesting): a part whose size is known
  /// roughly is written without regrowing, and copying, its buffer.
  public mutating func reserveCapacity(_ byteCount: Int) {
    bytes.reserveCapacity(byteCount)
    openCounts.reserveCapacity(8)
  }

  /// The level of the next value: what a writer for a part appended here (`append(valueBytes:)`) starts at.
  public var depth: Int { baseLevel + openDepth }

  /// The text so far.
  public var text: String {
    guard !pieces.isEmpty else { return String(decoding: bytes, as: UTF8.self) }
    return String(decoding: pieces.joined() + bytes, as: UTF8.self)
  }

  /// Hands over the UTF-8 written so far, in the parts it was written in (`text` is them joined), and forgets
  /// it. The writer keeps its place in the open containers and goes on from there: for output written out as
  /// it is made.
  public mutating func takeText() -> [[UInt8]] {
    defer {
      pieces = []
      bytes = []
    }
    return pieces + [bytes]
  }

  public mutating func beginObject() { open(0x7B) }
  public mutating func endObject() { close(0x7D) }
  public mutating func beginArray() { open(0x5B) }
  public mutating func endArray() { close(0x5D) }

  /// An object member's key; its value is the next thing written.
  public mutating func key(_ key: String) {
    startElement()
    writeString(key)
    bytes.append(0x3A)
    if indent != nil { bytes.append(0x20) }
    afterKey = true
  }

  public mutating func null() { raw("null") }
  public mutating func bool(_ flag: Bool) { raw(flag ? "true" : "false") }
  /// A number, written as its text.
  public mutating func number(_ text: String) { raw(text) }
  public mutating func number(_ value: Int) { raw(String(value)) }

  public mutating func string(_ text: String) {
    startValue()
    writeString(text)
  }

  /// The string, or null.
  public mutating func string(_ text: String?) {
    if let text { string(text) } else { null() }
  }

  /// An object member whose value is a string, or null.
  public mutating func member(_ key: String, _ text: String?) {
    self.key(key)
    string(text)
  }

  /// A whole `JSONValue`.
  public mutating func value(_ value: JSONValue) {
    switch value {
    case .null: null()
    case .bool(let flag): bool(flag)
    case .number(let text): number(text)
    case .string(let text): string(text)
    case .array(let items):
      beginArray()
      for item in items { self.value(item) }
      endArray()
    case .object(let object):
      beginObject()
      for member in object.members {
        key(member.key)
        self.value(member.value)
      }
      endObject()
    }
  }

  /// A value written by another writer that started at this writer's `depth`, with the same indent (its
  /// `bytes`, made on the thread that wrote it). Kept as it is, not copied.
  public mutating func append(valueBytes: [UInt8]) {
    startValue()
    pieces.append(bytes)
    bytes = []
    pieces.append(valueBytes)
  }

  /// A newline after the top-level value, as a file ends.
  public mutating func finalNewline() { bytes.append(0x0A) }

  private mutating func raw(_ text: String) {
    startValue()
    bytes.append(contentsOf: text.utf8)
  }

  private mutating func open(_ bracket: UInt8) {
    startValue()
    bytes.append(bracket)
    if openDepth > 0 { openCounts.append(innermostCount) }
    innermostCount = 0
    openDepth += 1
  }

  private mutating func close(_ bracket: UInt8) {
    precondition(openDepth > 0, "JSONWriter: a container closed that was never opened")
    let count = innermostCount
    openDepth -= 1
    if openDepth > 0 { innermostCount = openCounts.removeLast() }
    if count > 0 { newline(level: depth) }
    bytes.append(bracket)
  }

  /// Before a value: nothing after a key, else the separator an element needs.
  private mutating func startValue() {
    if afterKey {
      afterKey = false
    } else {
      startElement()
    }
  }

  /// A comma after the previous element of the open container, and the element's line.
  private mutating func startElement() {
    guard openDepth > 0 else { return }
    if innermostCount > 0 { bytes.append(0x2C) }
    innermostCount += 1
    newline(level: depth)
  }

  private mutating func newline(level: Int) {
    guard let indent else { return }
    let length = 1 + indent * level
    if length <= Self.newlineRun.utf8CodeUnitCount {
      // From a literal, in place: a slice of `newlineAndSpaces` was a retain, a release and a generic copy for
      // every line of a report.
      return Self.newlineRun.withUTF8Buffer { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: $0[..<length])) }
    }
    if newlineAndSpaces.count < length {
      newlineAndSpaces += repeatElement(0x20, count: length - newlineAndSpaces.count)
    }
    bytes.append(contentsOf: newlineAndSpaces[..<length])
  }

  /// A newline and 64 spaces: the lines of every level up to 32 (at 2 spaces), with no storage to retain.
  private static var newlineRun: StaticString {
    "\n                                                                "
  }

  /// A JSON string literal: `"`, `\` and control characters escaped, everything else as its UTF-8 bytes.
  /// Runs that need no escaping are copied whole.
  private mutating func writeString(_ text: String) {
    bytes.append(0x22)
    // `withUTF8` lends a native string's bytes in place (a bridged one is made native, in this copy): through
    // `utf8.withContiguousStorageIfAvailable` each string cost a generic call and an optional result.
    var text = text
    text.withUTF8 { appendEscaped($0) }
    bytes.append(0x22)
  }

  private mutating func appendEscaped(_ utf8: UnsafeBufferPointer<UInt8>) {
    // Nearly every string has nothing to escape: it is copied in one append.
    guard let firstEscaped = Self.firstEscaped(in: utf8) else { return bytes.append(contentsOf: utf8) }
    var runStart = 0
    for index in utf8.indices[firstEscaped...] {
      let byte = utf8[index]
      // Bytes of non-ASCII scalars are all >= 0x80, so a byte test finds exactly the scalars to escape.
      guard byte < 0x20 || byte == 0x22 || byte == 0x5C else { continue }
      bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
      appendEscape(byte)
      runStart = index + 1
    }
    bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...]))
  }

  /// The index of the first byte to escape (below 0x20, `"` or `\`). Eight bytes at a time: every key and
  /// value of a report passes here, 90 MB at 40,000 items, and a byte at a time was most of writing them.
  private static func firstEscaped(in utf8: UnsafeBufferPointer<UInt8>) -> Int? {
    func needsEscape(_ byte: UInt8) -> Bool { byte < 0x20 || byte == 0x22 || byte == 0x5C }
    var start = 0
    if let base = UnsafeRawPointer(utf8.baseAddress) {
      let (ones, highBits): (UInt64, UInt64) = (0x0101_0101_0101_0101, 0x8080_8080_8080_8080)
      // Whether some byte of `word` is zero, or below `bound` (at most 0x80): exact for the word as a whole.
      func hasZero(_ word: UInt64) -> Bool { (word &- ones) & ~word & highBits != 0 }
      func hasBelow(_ word: UInt64, _ bound: UInt64) -> Bool { (word &- ones &* bound) & ~word & highBits != 0 }
      while start + 8 <= utf8.count {
        let word = base.loadUnaligned(fromByteOffset: start, as: UInt64.self)
        if hasBelow(word, 0x20) || hasZero(word ^ (ones &* 0x22)) || hasZero(word ^ (ones &* 0x5C)) {
          return utf8[start..<start + 8].firstIndex(where: needsEscape)
        }
        start += 8
      }
    }
    return utf8[start...].firstIndex(where: needsEscape)
  }

  private mutating func appendEscape(_ byte: UInt8) {
    let short: UInt8? =
      switch byte {
      case 0x22: 0x22  // \"
      case 0x5C: 0x5C  // \\
      case 0x0A: 0x6E  // \n
      case 0x0D: 0x72  // \r
      case 0x09: 0x74  // \t
      case 0x08: 0x62  // \b
      case 0x0C: 0x66  // \f
      default: nil
      }
    bytes.append(0x5C)
    if let short { return bytes.append(short) }
    // \u00XX with lowercase hex digits; a control character's high digit is 0 or 1.
    let low = byte & 0x0F
    let digits: [UInt8] = [0x75, 0x30, 0x30, 0x30 + (byte >> 4), low < 10 ? 0x30 + low : 0x57 + low]
    bytes.append(contentsOf: digits)
  }
}
