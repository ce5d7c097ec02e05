import Foundation

/// base64url (RFC 4648 §5) without padding, as ADAL writes keychain attributes and JWTs carry their segments.
package enum Base64URL {
  package static func encode(_ data: Data) -> String {
    // One pass over the ASCII bytes of the standard encoding (three Foundation string replacements were a
    // hot spot: every keychain key and id token goes through here).
    var bytes = Array(data.base64EncodedString().utf8)
    while bytes.last == UInt8(ascii: "=") { bytes.removeLast() }
    for index in bytes.indices {
      if bytes[index] == UInt8(ascii: "+") {
        bytes[index] = UInt8(ascii: "-")
      } else if bytes[index] == UInt8(ascii: "/") {
        bytes[index] = UInt8(ascii: "_")
      }
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  package static func encode(_ string: String) -> String { encode(Data(string.utf8)) }

  /// Decodes base64url with or without padding; also accepts the standard alphabet and ignores whitespace and
  /// `=` wherever they are. Returns nil for input whose length leaves a single dangling character (`count % 4 ==
  /// 1`) or that holds other characters; like Foundation, it ignores the unused bits of the last character.
  /// Table-driven on the UTF-8 bytes: every id token and keychain attribute goes through here, and rewriting
  /// them for Foundation's decoder cost about 100 instructions a character.
  package static func decode(_ text: String) -> Data? {
    withDecoded(text[...]) { Data(buffer: $0) }
  }

  /// `text` decoded into a temporary buffer and handed to `body`, or nil when it does not decode: the result is
  /// made once from the decoded bytes (an array, then a `Data` copied from it, then a string copied from that
  /// were three allocations for each keychain attribute decoded).
  private static func withDecoded<Result>(
    _ text: Substring, _ body: (UnsafeBufferPointer<UInt8>) -> Result?
  ) -> Result? {
    var text = text
    return text.withUTF8 { bytes in
      withUnsafeTemporaryAllocation(of: UInt8.self, capacity: maxDecodedCount(bytes.count)) { buffer in
        decode(bytes, into: buffer).flatMap { body(UnsafeBufferPointer(rebasing: buffer[..<$0])) }
      }
    }
  }

  /// The most bytes `decode(_:into:)` writes for `count` characters.
  package static func maxDecodedCount(_ count: Int) -> Int { count / 4 * 3 + 2 }

  /// `decode(_:)` into `output` (at least `maxDecodedCount(text.count)` bytes): the number of bytes written, or nil.
  /// For callers that decode many parts into one buffer of their own (each id token's header and payload).
  package static func decode(_ text: UnsafeBufferPointer<UInt8>, into output: UnsafeMutableBufferPointer<UInt8>) -> Int?
  {
    precondition(output.count >= maxDecodedCount(text.count))
    var written = 0
    func append(_ bits: UInt32) {
      output[written] = UInt8(truncatingIfNeeded: bits)
      written += 1
    }
    var bits: UInt32 = 0
    var pending = 0
    // Four characters at a time while none is padding, whitespace or invalid (whose table values have a high bit
    // set, which the OR of the four shows): three bytes written at once, where the loop below takes a character,
    // its table lookup and its checks at a time. The first group it cannot take, and the rest, go to that loop.
    var index = 0
    sextets.withUnsafeBufferPointer { table in
      guard let input = text.baseAddress, let target = output.baseAddress else { return }
      while index + 4 <= text.count {
        let first = table[Int(input[index])]
        let second = table[Int(input[index + 1])]
        let third = table[Int(input[index + 2])]
        let fourth = table[Int(input[index + 3])]
        guard (first | second | third | fourth) & 0xC0 == 0 else { return }
        let group = UInt32(first) << 18 | UInt32(second) << 12 | UInt32(third) << 6 | UInt32(fourth)
        target[written] = UInt8(truncatingIfNeeded: group >> 16)
        target[written + 1] = UInt8(truncatingIfNeeded: group >> 8)
        target[written + 2] = UInt8(truncatingIfNeeded: group)
        written += 3
        index += 4
      }
    }
    for byte in text[index...] {
      let value = sextets[Int(byte)]
      if value == skipped { continue }
      guard value != invalid else { return nil }
      bits = bits << 6 | UInt32(value)
      pending += 1
      if pending == 4 {
        append(bits >> 16)
        append(bits >> 8)
        append(bits)
        (bits, pending) = (0, 0)
      }
    }
    switch pending {
    case 1: return nil
    case 2: append(bits >> 4)
    case 3:
      append(bits >> 10)
      append(bits >> 2)
    default: break
    }
    return written
  }

  private static let (skipped, invalid): (UInt8, UInt8) = (0xFE, 0xFF)

  /// Each byte's 6-bit value in either alphabet, `skipped` for padding and whitespace, else `invalid`.
  private static let sextets: [UInt8] = {
    var table = [UInt8](repeating: invalid, count: 256)
    for (value, character) in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8.enumerated() {
      table[Int(character)] = UInt8(value)
    }
    for character in "+-".utf8 { table[Int(character)] = 62 }
    for character in "/_".utf8 { table[Int(character)] = 63 }
    for character in "= \n\r\t".utf8 { table[Int(character)] = skipped }
    return table
  }()

  /// Decodes to a UTF-8 string, or nil when the bytes are not UTF-8. A leading byte order mark is dropped, as
  /// Foundation's `String(data:encoding:)` drops it.
  package static func decodeString(_ text: String) -> String? { decodeString(text[...]) }

  package static func decodeString(_ text: Substring) -> String? {
    withDecoded(text) { bytes in
      let startsWithByteOrderMark = bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF
      return String(
        validating: startsWithByteOrderMark ? UnsafeBufferPointer(rebasing: bytes[3...]) : bytes, as: UTF8.self)
    }
  }
}
