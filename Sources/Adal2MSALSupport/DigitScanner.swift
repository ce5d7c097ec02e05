/// Reads decimal fields, signs and separators from UTF-8 bytes, front to back: the date parsers' cursor.
package struct DigitScanner {
  private let bytes: [UInt8]
  private var position = 0

  package init(_ text: String) { bytes = Array(text.utf8) }

  package var atEnd: Bool { position == bytes.count }

  /// Consumes `character` when it comes next.
  package mutating func take(_ character: Unicode.Scalar) -> Bool {
    guard position < bytes.count, bytes[position] == UInt8(ascii: character) else { return false }
    position += 1
    return true
  }

  /// The next byte's value when it is an ASCII digit (consumed), else nil.
  package mutating func digit() -> Int? {
    guard position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) else {
      return nil
    }
    defer { position += 1 }
    return Int(bytes[position] - UInt8(ascii: "0"))
  }

  /// The value of the next `width` digits, nil when fewer come.
  package mutating func number(_ width: Int) -> Int? {
    var value = 0
    for _ in 0..<width {
      guard let digit = digit() else { return nil }
      value = value * 10 + digit
    }
    return value
  }

  /// The digits that come next as a fraction (`25` as 0.25), nil when no digit comes.
  package mutating func fraction() -> Double? {
    guard var digit = digit() else { return nil }
    var (fraction, scale) = (0.0, 0.1)
    while true {
      fraction += Double(digit) * scale
      scale /= 10
      guard let next = self.digit() else { return fraction }
      digit = next
    }
  }

  /// 1 for a `+`, -1 for a `-` (consumed), else nil.
  package mutating func sign() -> Int? {
    if take("+") { return 1 }
    if take("-") { return -1 }
    return nil
  }

  package mutating func skipSpaces() {
    while position < bytes.count, bytes[position] == UInt8(ascii: " ") { position += 1 }
  }
}
