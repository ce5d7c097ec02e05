import Foundation

extension StringProtocol {
  /// `trimmingCharacters(in: .whitespacesAndNewlines)`, without bridging to NSString when neither end is
  /// whitespace (the common case, and a costly one for tokens and base64 values of kilobytes, and for the
  /// millions of short keys a large migration trims): ASCII ends are checked here, anything else goes to
  /// Foundation.
  package func trimmedWhitespaceAndNewlines() -> String {
    trimmed(newlines: true)
  }

  /// `trimmingCharacters(in: .whitespaces)`, with the same ASCII fast path.
  package func trimmedWhitespace() -> String {
    trimmed(newlines: false)
  }

  /// The ends are read as the UTF-8 bytes of the String made anyway (an ASCII byte at an end is that end's
  /// whole scalar): read as scalars through the protocol, each call was about a thousand instructions, for
  /// every authority, client id and family id of a dump.
  private func trimmed(newlines: Bool) -> String {
    let text = String(self)
    guard let first = text.utf8.first, let last = text.utf8.last else { return text }
    if Self.isPlainASCII(Unicode.Scalar(first), newlines: newlines)
      && Self.isPlainASCII(Unicode.Scalar(last), newlines: newlines)
    {
      return text
    }
    return text.trimmingCharacters(in: newlines ? .whitespacesAndNewlines : .whitespaces)
  }

  /// An ASCII scalar outside the set: `.whitespaces` holds U+0009 and U+0020; `.whitespacesAndNewlines` also
  /// U+000A–U+000D.
  private static func isPlainASCII(_ scalar: Unicode.Scalar, newlines: Bool) -> Bool {
    guard scalar.value < 0x80, scalar.value != 0x20, scalar.value != 0x09 else { return false }
    return !newlines || !(0x0A...0x0D).contains(scalar.value)
  }
}

extension String {
  /// `trimmedWhitespaceAndNewlines()` of a String, its ends read as UTF-8 bytes: the generic version reads
  /// them as Unicode scalars through the protocol, which was most of the cost of the millions of claim
  /// values, keys and fields a large migration trims. An ASCII byte at an end is that end's whole scalar.
  package func trimmedWhitespaceAndNewlines() -> String {
    guard let first = utf8.first, let last = utf8.last else { return self }
    if Self.isPlainASCII(first) && Self.isPlainASCII(last) { return self }
    return self[...].trimmedWhitespaceAndNewlines()
  }

  /// An ASCII byte outside `.whitespacesAndNewlines` (U+0009–U+000D and U+0020).
  private static func isPlainASCII(_ byte: UInt8) -> Bool {
    byte < 0x80 && byte != 0x20 && !(0x09...0x0D).contains(byte)
  }

  /// `lowercased()`, but the string itself (its storage shared, nothing allocated) when it is ASCII without
  /// capitals: home account ids, hosts and user names nearly always are, and a large report lowercases
  /// hundreds of thousands of them to look them up.
  package func lowercasedSharingStorage() -> String {
    let isLowercaseASCII = utf8.withContiguousStorageIfAvailable(Self.isLowercaseASCII) ?? false
    return isLowercaseASCII ? self : lowercased()
  }

  /// Whether every byte is ASCII and none is a capital, eight bytes at a time (a byte at a time was a third
  /// of a large report's section grouping).
  private static func isLowercaseASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let base = UnsafeRawPointer(bytes.baseAddress) else { return true }
    let highBits: UInt64 = 0x8080_8080_8080_8080
    var offset = 0
    while offset + 8 <= bytes.count {
      let word = base.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
      // For bytes below 0x80 (checked first) no sum carries into the next byte: a byte's high bit is set in
      // `atLeastA` when it is ≥ 0x41 ("A") and in `aboveZ` when it is ≥ 0x5B (after "Z").
      let atLeastA = word &+ 0x3F3F_3F3F_3F3F_3F3F
      let aboveZ = word &+ 0x2525_2525_2525_2525
      if word & highBits != 0 || atLeastA & ~aboveZ & highBits != 0 { return false }
      offset += 8
    }
    for byte in bytes[offset...] where byte >= 0x80 || (0x41...0x5A).contains(byte) { return false }
    return true
  }

  /// `split(separator:omittingEmptySubsequences:)` for an ASCII separator, on the UTF-8 bytes when the whole
  /// string is ASCII (there every character is one byte, CR LF aside, which holds no separator), else by
  /// characters. Splitting kilobyte tokens by characters was a hot spot, and so was the UTF-8 view's generic
  /// `split` (about 90 instructions a byte on an id token): the separators are found on the contiguous bytes.
  package func splitting(ascii separator: Unicode.Scalar, omittingEmptySubsequences: Bool = true) -> [Substring] {
    let target = UInt8(truncatingIfNeeded: separator.value)
    let pieces: [Substring]? =
      separator.isASCII
      ? utf8.withContiguousStorageIfAvailable { bytes -> [Substring]? in
        guard Self.isASCII(bytes) else { return nil }
        // Counted first, so that the result is made at its size: grown piece by piece, and then mapped from
        // offsets to substrings, it took three or four allocations for a keychain service or an id token.
        var count = 0
        Self.forEachPiece(of: bytes, at: target, omittingEmptySubsequences) { _ in count += 1 }
        var pieces: [Substring] = []
        pieces.reserveCapacity(count)
        // ASCII: a byte offset is a character boundary, and the UTF-8 view offsets in constant time.
        let base = utf8.startIndex
        Self.forEachPiece(of: bytes, at: target, omittingEmptySubsequences) { piece in
          pieces.append(
            self[utf8.index(base, offsetBy: piece.lowerBound)..<utf8.index(base, offsetBy: piece.upperBound)])
        }
        return pieces
      } ?? nil
      : nil
    return pieces ?? split(separator: Character(separator), omittingEmptySubsequences: omittingEmptySubsequences)
  }

  /// The UTF-8 offsets of the pieces `splitting(ascii:omittingEmptySubsequences: false)` gives, when the string
  /// is ASCII (nil otherwise, or when it is not contiguous): for a caller that reads the pieces' bytes, not
  /// substrings (an id token's parts), and so makes no substring or second array.
  package func asciiPieceOffsets(separator: Unicode.Scalar) -> [Range<Int>]? {
    guard separator.isASCII else { return nil }
    let target = UInt8(truncatingIfNeeded: separator.value)
    return utf8.withContiguousStorageIfAvailable { bytes -> [Range<Int>]? in
      guard Self.isASCII(bytes) else { return nil }
      // Counted first, as `splitting` does, so that the array is made at its size: grown, it was two allocations.
      var count = 0
      Self.forEachPiece(of: bytes, at: target, false) { _ in count += 1 }
      var pieces: [Range<Int>] = []
      pieces.reserveCapacity(count)
      Self.forEachPiece(of: bytes, at: target, false) { pieces.append($0) }
      return pieces
    } ?? nil
  }

  /// The byte offsets of each piece of `bytes` between `separator`s, in order. `memchr` finds the next separator
  /// several bytes at a time: stepping a byte at a time was most of the cost of splitting an id token (a kilobyte
  /// and more, two separators).
  private static func forEachPiece(
    of bytes: UnsafeBufferPointer<UInt8>, at separator: UInt8, _ omittingEmptySubsequences: Bool,
    _ body: (Range<Int>) -> Void
  ) {
    var start = 0
    while true {
      let found = start < bytes.count ? memchr(bytes.baseAddress! + start, Int32(separator), bytes.count - start) : nil
      let position = found.map { UnsafeRawPointer(bytes.baseAddress!).distance(to: $0) } ?? bytes.count
      if !omittingEmptySubsequences || position > start { body(start..<position) }
      guard found != nil else { return }
      start = position + 1
    }
  }

  /// Whether the two strings have the same UTF-8 bytes (`==` also accepts canonically equivalent spellings),
  /// compared as contiguous bytes: the UTF-8 views' generic `elementsEqual` stepped a byte at a time (4% of
  /// a 40k-item planning's instructions, comparing a client id per note).
  package func hasSameUTF8(as other: String) -> Bool {
    let fast = utf8.withContiguousStorageIfAvailable { lhs in
      other.utf8.withContiguousStorageIfAvailable { rhs in
        lhs.count == rhs.count && (lhs.isEmpty || memcmp(lhs.baseAddress!, rhs.baseAddress!, lhs.count) == 0)
      }
    }
    return (fast ?? nil) ?? utf8.elementsEqual(other.utf8)
  }

  /// Copies `bytes` to `target` with ASCII capitals made small, eight bytes at a time; false (the copy
  /// unfinished) at the first byte that is not ASCII. `target` has room for `bytes.count`.
  package static func copyLowercasingASCII(_ bytes: UnsafeBufferPointer<UInt8>, to target: UnsafeMutablePointer<UInt8>)
    -> Bool
  {
    guard let base = UnsafeRawPointer(bytes.baseAddress) else { return true }
    let out = UnsafeMutableRawPointer(target)
    var offset = 0
    while offset + 8 <= bytes.count {
      let word = base.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
      if word & 0x8080_8080_8080_8080 != 0 { return false }
      // As in `isLowercaseASCII`: a byte's high bit is set in `capitals` when it is "A" to "Z"; shifted to
      // 0x20, it makes that byte small.
      let capitals = (word &+ 0x3F3F_3F3F_3F3F_3F3F) & ~(word &+ 0x2525_2525_2525_2525) & 0x8080_8080_8080_8080
      out.storeBytes(of: word | (capitals >> 2), toByteOffset: offset, as: UInt64.self)
      offset += 8
    }
    while offset < bytes.count {
      let byte = bytes[offset]
      if byte >= 0x80 { return false }
      target[offset] = byte.asciiLowercased
      offset += 1
    }
    return true
  }

  /// Whether `bytes` are well-formed UTF-8 (no overlong form, surrogate, scalar above U+10FFFF or cut sequence),
  /// as `String(validating:as:)` has them, without making a string: ASCII by `isASCII`, the rest a scalar at a
  /// time by the standard library's parser. That generic initializer looks its generic metadata up in the runtime
  /// on every call, under a lock both cores take: three quarters of the cost of a JSON string (a fleet's
  /// objection dumps hold each item as kilobytes of hex). `String(decoding:as:)` makes the same string of bytes
  /// that pass.
  package static func isUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    if isASCII(bytes) { return true }
    var parser = Unicode.UTF8.ForwardParser()
    var input = bytes.makeIterator()
    while true {
      switch parser.parseScalar(from: &input) {
      case .valid: continue
      case .emptyInput: return true
      case .error: return false
      }
    }
  }

  /// Whether every byte is ASCII, thirty-two at a time, then eight.
  package static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let base = UnsafeRawPointer(bytes.baseAddress) else { return true }
    var offset = 0
    // Four words joined before one test: the tokens checked here are kilobytes of ASCII each, and a branch per
    // word was most of the loop.
    while offset + 32 <= bytes.count {
      let joined =
        base.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
        | base.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self)
        | base.loadUnaligned(fromByteOffset: offset + 16, as: UInt64.self)
        | base.loadUnaligned(fromByteOffset: offset + 24, as: UInt64.self)
      if joined & 0x8080_8080_8080_8080 != 0 { return false }
      offset += 32
    }
    while offset + 8 <= bytes.count {
      if base.loadUnaligned(fromByteOffset: offset, as: UInt64.self) & 0x8080_8080_8080_8080 != 0 { return false }
      offset += 8
    }
    return bytes[offset...].allSatisfy { $0 < 0x80 }
  }
}

extension UInt8 {
  /// The byte with an ASCII capital made small, every other byte as it is: `lowercased()` of ASCII text, a
  /// byte at a time (keys, hashes and name lookups lowercase as they copy or hash). Inlinable: the key builders
  /// and hashes of other modules called it once per byte (44 M instructions in a 10k-item migration).
  @inlinable package var asciiLowercased: UInt8 { self &- 0x41 < 26 ? self | 0x20 : self }
}

extension Unicode.Scalar {
  /// `CharacterSet.controlCharacters` (general categories Cc and Cf), without a CharacterSet lookup per
  /// scalar: that was a measurable share of reading a keychain dump.
  package var isControlOrFormat: Bool {
    if value < 0x80 { return value < 0x20 || value == 0x7F }
    let category = properties.generalCategory
    return category == .control || category == .format
  }
}
