import Foundation

extension StringProtocol {
  /// `trimmingCharacters(in: .whitespacesAndNewlines)`, without bridging to NSString when neither end is
  /// whitespace (the common case, and a costly one for tokens and base64 values of kilobytes, and for the
  /// millions of short keys a large migration trims): ASCII ends are checked here, anything else goes to
  /// Foundation.
  public func trimmedWhitespaceAndNewlines() -> String {
    trimmed(newlines: true)
  }

  /// `trimmingCharacters(in: .whitespaces)`, with the same ASCII fast path.
  public func trimmedWhitespace() -> String {
    trimmed(newlines: false)
  }

  private func trimmed(newlines: Bool) -> String {
    guard let first = unicodeScalars.first, let last = unicodeScalars.last else { return String(self) }
    if Self.isPlainASCII(first, newlines: newlines) && Self.isPlainASCII(last, newlines: newlines) {
      return String(self)
    }
    return trimmingCharacters(in: newlines ? .whitespacesAndNewlines : .whitespaces)
  }

  /// An ASCII scalar outside the set: `.whitespaces` holds U+0009 and U+0020; `.whitespacesAndNewlines` also
  /// U+000A–U+000D.
  private static func isPlainASCII(_ scalar: Unicode.Scalar, newlines: Bool) -> Bool {
    guard scalar.value < 0x80, scalar.value != 0x20, scalar.value != 0x09 else { return false }
    return !newlines || !(0x0A...0x0D).contains(scalar.value)
  }
}

extension String {
  /// `lowercased()`, but the string itself (its storage shared, nothing allocated) when it is ASCII without
  /// capitals: home account ids, hosts and user names nearly always are, and a large report lowercases
  /// hundreds of thousands of them to look them up.
  public func lowercasedSharingStorage() -> String {
    let isLowercaseASCII =
      utf8.withContiguousStorageIfAvailable { bytes in
        bytes.allSatisfy { $0 < 0x80 && !(0x41...0x5A).contains($0) }
      } ?? false
    return isLowercaseASCII ? self : lowercased()
  }

  /// `split(separator:omittingEmptySubsequences:)` for an ASCII separator, on the UTF-8 bytes when the whole
  /// string is ASCII (there every character is one byte, CR LF aside, which holds no separator), else by
  /// characters. Splitting kilobyte tokens by characters was a hot spot.
  public func splitting(ascii separator: Unicode.Scalar, omittingEmptySubsequences: Bool = true) -> [Substring] {
    guard separator.isASCII, utf8.allSatisfy({ $0 < 0x80 }) else {
      return split(separator: Character(separator), omittingEmptySubsequences: omittingEmptySubsequences)
    }
    return utf8.split(separator: UInt8(separator.value), omittingEmptySubsequences: omittingEmptySubsequences)
      .map { Substring($0) }
  }
}

extension Unicode.Scalar {
  /// `CharacterSet.controlCharacters` (general categories Cc and Cf), without a CharacterSet lookup per
  /// scalar: that was a measurable share of reading a keychain dump.
  public var isControlOrFormat: Bool {
    if value < 0x80 { return value < 0x20 || value == 0x7F }
    let category = properties.generalCategory
    return category == .control || category == .format
  }
}
