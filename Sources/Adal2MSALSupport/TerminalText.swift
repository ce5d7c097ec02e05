#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Text from an input (a username, a field value) made safe to print on a terminal: control characters are
/// shown as escapes instead of reaching the terminal, where ESC and BEL sequences can retitle the window,
/// move the cursor or hide lines.
///
/// C0 controls other than line feed and tab, DEL and the C1 controls (U+0080–U+009F, which some terminals
/// read as ESC sequences) become `\x1B`-style escapes, and a backslash that could start one is left as it is:
/// the escapes are for reading, not for decoding back.
package enum TerminalText {
  /// `text` with its control characters escaped, or `text` itself when it has none (the common case costs
  /// one scan of its UTF-8 bytes).
  package static func escaped(_ text: String, keepingNewlines: Bool = true) -> String {
    guard needsEscaping(text, keepingNewlines: keepingNewlines) else { return text }
    var out = ""
    out.reserveCapacity(text.utf8.count + 8)
    for scalar in text.unicodeScalars {
      if isControl(scalar.value, keepingNewlines: keepingNewlines) {
        out += "\\x" + hex(scalar.value)
      } else {
        out.unicodeScalars.append(scalar)
      }
    }
    return out
  }

  /// `lines` as text, one line each, ending in a line feed. A line feed inside one (a value read from an input)
  /// is written as `escaped` writes other controls, `\x0A`, so that no value starts a line of its own: a
  /// username can then not forge a line of `inspect`'s output. Other controls are left to `escaped`.
  package static func joinedLines(_ lines: [String]) -> String {
    lines.map { $0.contains("\n") ? $0.replacingOccurrences(of: "\n", with: escapedLineFeed) : $0 }
      .joined(separator: "\n") + "\n"
  }

  /// A line feed inside a line, as `escaped` writes other controls.
  package static let escapedLineFeed = "\\x" + hex(0x0A)

  /// Writes each line feed in `bytes` from `start` on as `escapedLineFeed`, in place: the bytes of one line (of
  /// a report), where a line feed is a value's, which must not start a line of its own.
  package static func escapeLineFeeds(in bytes: inout [UInt8], from start: Int) {
    let first = bytes.withUnsafeBufferPointer { buffer -> Int? in
      guard start < buffer.count, let base = buffer.baseAddress,
        let found = memchr(base + start, 0x0A, buffer.count - start)
      else { return nil }
      return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
    }
    guard let first else { return }
    let rest = Array(bytes[first...])
    bytes.removeSubrange(first...)
    for byte in rest {
      if byte == 0x0A { bytes.append(contentsOf: escapedLineFeed.utf8) } else { bytes.append(byte) }
    }
  }

  /// Whether `text` holds a control character that `escaped` would replace.
  package static func needsEscaping(_ text: String, keepingNewlines: Bool = true) -> Bool {
    var previous: UInt8 = 0
    for byte in text.utf8 {
      if byte < 0x20 || byte == 0x7F {
        if !(keepingNewlines && (byte == 0x0A || byte == 0x09)) { return true }
      } else if previous == 0xC2, byte >= 0x80, byte <= 0x9F {
        // U+0080–U+009F are 0xC2 0x80–0x9F in UTF-8.
        return true
      }
      previous = byte
    }
    return false
  }

  /// `bytes` (UTF-8 text) with its control characters escaped as `escaped` does, keeping line feeds and
  /// tabs; with `keepingColors`, SGR sequences (`ESC [ digits ; m`: colours only, which cannot move the cursor
  /// or retitle a window) are kept, for output coloured on purpose. Returns `bytes` itself when nothing needs
  /// escaping (one scan).
  package static func escaped(bytes: [UInt8], keepingColors: Bool) -> [UInt8] {
    guard let first = firstControl(in: bytes) else { return bytes }
    var out = Array(bytes[..<first])
    out.reserveCapacity(bytes.count + 16)
    var index = first
    while index < bytes.count {
      let byte = bytes[index]
      if keepingColors, byte == 0x1B, let length = sgrLength(bytes, at: index) {
        out += bytes[index..<index + length]
        index += length
      } else if (byte < 0x20 && byte != 0x0A && byte != 0x09) || byte == 0x7F {
        out += Array("\\x\(hex(UInt32(byte)))".utf8)
        index += 1
      } else if byte == 0xC2, index + 1 < bytes.count, (0x80...0x9F).contains(bytes[index + 1]) {
        out += Array("\\x\(hex(UInt32(bytes[index + 1])))".utf8)
        index += 2
      } else {
        out.append(byte)
        index += 1
      }
    }
    return out
  }

  /// The index of the first byte that may need escaping.
  private static func firstControl(in bytes: [UInt8]) -> Int? {
    bytes.withUnsafeBufferPointer { buffer in
      func mayNeedEscaping(_ byte: UInt8) -> Bool {
        (byte < 0x20 && byte != 0x0A && byte != 0x09) || byte == 0x7F || byte == 0xC2
      }
      // Sixteen bytes at a time, as vector compares: every report is scanned whole, and a run with no byte
      // that may need escaping (nearly all of them) needs no byte-by-byte look. Line feeds and tabs are
      // excluded in the compare, so the line feed that ends every line does not send its run there.
      var start = 0
      if let base = UnsafeRawPointer(buffer.baseAddress) {
        typealias Bytes = SIMD16<UInt8>
        let (space, lineFeed, tab, delete, c1Lead) = (
          Bytes(repeating: 0x20), Bytes(repeating: 0x0A), Bytes(repeating: 0x09), Bytes(repeating: 0x7F),
          Bytes(repeating: 0xC2)
        )
        while start + 16 <= buffer.count {
          let run = base.loadUnaligned(fromByteOffset: start, as: Bytes.self)
          let control = (run .< space) .& (run .!= lineFeed) .& (run .!= tab)
          if (control .| (run .== delete) .| (run .== c1Lead)).anyLaneSet {
            if let found = buffer[start..<start + 16].firstIndex(where: mayNeedEscaping) { return found }
          }
          start += 16
        }
      }
      return buffer[start...].firstIndex(where: mayNeedEscaping)
    }
  }

  /// The length of an SGR sequence at `index` (`ESC [`, up to 16 digits and semicolons, `m`), or nil.
  private static func sgrLength(_ bytes: [UInt8], at index: Int) -> Int? {
    guard index + 2 < bytes.count, bytes[index + 1] == UInt8(ascii: "[") else { return nil }
    var end = index + 2
    while end < bytes.count, end - index < 19, bytes[end] == UInt8(ascii: ";") || (0x30...0x39).contains(bytes[end]) {
      end += 1
    }
    return end < bytes.count && bytes[end] == UInt8(ascii: "m") ? end - index + 1 : nil
  }

  private static func isControl(_ value: UInt32, keepingNewlines: Bool) -> Bool {
    if keepingNewlines, value == 0x0A || value == 0x09 { return false }
    return value < 0x20 || (0x7F...0x9F).contains(value)
  }

  /// The two uppercase hex digits of a byte's value, as escapes (`\x1B`) write them.
  static func hex(_ value: UInt32) -> String {
    let digits = Array("0123456789ABCDEF")
    return String([digits[Int(value >> 4) & 0xF], digits[Int(value) & 0xF]])
  }
}

extension SIMDMask where Storage == SIMD16<Int8> {
  /// Whether any lane is set, as one OR of the mask's two halves: the standard library's `any(_:)` becomes a
  /// chain of shuffles and compares on x86-64 without SSE4 (about 35 instructions where this is 5), and
  /// `firstControl` runs it for every 16 bytes of a report.
  @inline(__always) fileprivate var anyLaneSet: Bool {
    let flags = SIMD16<UInt8>(repeating: 0).replacing(with: 0xFF, where: self)
    let halves = unsafeBitCast(flags, to: SIMD2<UInt64>.self)
    return halves[0] | halves[1] != 0
  }
}
