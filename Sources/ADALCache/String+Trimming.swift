import Foundation

extension StringProtocol {
  /// `trimmingCharacters(in: .whitespacesAndNewlines)`, without bridging to NSString when neither end is
  /// whitespace (the common case, and a costly one for tokens and base64 values of kilobytes): ASCII ends are
  /// checked here, anything else goes to Foundation as before.
  func trimmedWhitespaceAndNewlines() -> String {
    guard let first = unicodeScalars.first, let last = unicodeScalars.last else { return String(self) }
    if Self.isPlainASCII(first) && Self.isPlainASCII(last) { return String(self) }
    return trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// An ASCII scalar that is not in `.whitespacesAndNewlines` (U+0009–U+000D and U+0020 are).
  private static func isPlainASCII(_ scalar: Unicode.Scalar) -> Bool {
    scalar.value < 0x80 && scalar.value != 0x20 && !(0x09...0x0D).contains(scalar.value)
  }
}

extension String {
  /// `split(separator:omittingEmptySubsequences:)` for an ASCII separator, on the UTF-8 bytes when the whole
  /// string is ASCII (there every character is one byte, CR LF aside, which holds no separator), else by
  /// characters as before. Splitting kilobyte tokens by characters was a hot spot.
  func splitting(ascii separator: Unicode.Scalar, omittingEmptySubsequences: Bool = true) -> [Substring] {
    guard separator.isASCII, utf8.allSatisfy({ $0 < 0x80 }) else {
      return split(separator: Character(separator), omittingEmptySubsequences: omittingEmptySubsequences)
    }
    return utf8.split(separator: UInt8(separator.value), omittingEmptySubsequences: omittingEmptySubsequences)
      .map { Substring($0) }
  }
}
