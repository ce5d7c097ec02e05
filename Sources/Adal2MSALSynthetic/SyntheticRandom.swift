import Foundation

/// SplitMix64: a tiny deterministic generator, so every run of a seed gives the same bytes on every platform.
public struct SyntheticRandom: Sendable {
  public private(set) var state: UInt64

  public init(seed: UInt64) { state = seed &* 0x9E37_79B9_7F4A_7C15 &+ 0x2545_F491_4F6C_DD1D }

  /// Starts from `state` as it is (plain SplitMix64 seeding), for the benchmarks' and tests' own sequences.
  public init(state: UInt64) { self.state = state }

  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A number in `0..<bound` (bound > 0).
  public mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(max(1, bound))) }

  /// A number in `range`.
  public mutating func within(_ range: ClosedRange<Int>) -> Int { range.lowerBound + below(range.count) }

  /// True with probability `percent`/100.
  public mutating func chance(_ percent: Int) -> Bool { below(100) < percent }

  /// `count` random bytes.
  public mutating func bytes(_ count: Int) -> [UInt8] {
    var result: [UInt8] = []
    result.reserveCapacity(count + 8)
    while result.count < count {
      var word = next()
      for _ in 0..<8 {
        result.append(UInt8(truncatingIfNeeded: word))
        word >>= 8
      }
    }
    result.removeLast(result.count - count)
    return result
  }

  /// A lowercase version-4 style GUID.
  public mutating func guid() -> String {
    let high = next()
    let low = next()
    let hex = SyntheticText.hex(high, digits: 16) + SyntheticText.hex(low, digits: 16)
    let characters = Array(hex)
    let variant = Array("89ab")[Int(low >> 60) & 3]
    return String(characters[0..<8]) + "-" + String(characters[8..<12]) + "-4" + String(characters[13..<16]) + "-"
      + String(variant) + String(characters[17..<20]) + "-" + String(characters[20..<32])
  }
}

/// Text helpers for the generator: hex, base64 and base64url of bytes.
public enum SyntheticText {
  private static let standard = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
  private static let urlSafe = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

  public static func hex(_ value: UInt64, digits: Int) -> String {
    let text = String(value, radix: 16)
    return String(repeating: "0", count: max(0, digits - text.count)) + text
  }

  /// `value` in decimal, zero-padded to `width` digits.
  public static func pad(_ value: Int, _ width: Int) -> String {
    let text = String(value)
    return String(repeating: "0", count: max(0, width - text.count)) + text
  }

  /// Lowercase hex of `bytes`.
  public static func hex(_ bytes: [UInt8]) -> String {
    var output: [UInt8] = []
    output.reserveCapacity(bytes.count * 2)
    for byte in bytes {
      output.append(hexDigits[Int(byte >> 4)])
      output.append(hexDigits[Int(byte & 15)])
    }
    return String(decoding: output, as: UTF8.self)
  }

  private static let hexDigits = Array("0123456789abcdef".utf8)

  /// Standard base64 with padding.
  public static func base64(_ bytes: some Collection<UInt8>) -> String {
    String(decoding: encode(Array(bytes), alphabet: standard, pad: true), as: UTF8.self)
  }

  /// base64url without padding (JWT segments, ADAL keychain attributes).
  public static func base64URL(_ bytes: some Collection<UInt8>) -> String {
    String(decoding: encode(Array(bytes), alphabet: urlSafe, pad: false), as: UTF8.self)
  }

  public static func base64URL(_ text: String) -> String { base64URL(Array(text.utf8)) }

  /// Appends the standard base64 of `bytes` to `output`.
  public static func appendBase64(_ bytes: [UInt8], to output: inout [UInt8]) {
    output.append(contentsOf: encode(bytes, alphabet: standard, pad: true))
  }

  private static func encode(_ bytes: [UInt8], alphabet: [UInt8], pad: Bool) -> [UInt8] {
    var output: [UInt8] = []
    output.reserveCapacity((bytes.count + 2) / 3 * 4)
    var index = 0
    while index + 3 <= bytes.count {
      let chunk = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
      output.append(alphabet[Int(chunk >> 18 & 63)])
      output.append(alphabet[Int(chunk >> 12 & 63)])
      output.append(alphabet[Int(chunk >> 6 & 63)])
      output.append(alphabet[Int(chunk & 63)])
      index += 3
    }
    let rest = bytes.count - index
    if rest > 0 {
      let chunk = UInt32(bytes[index]) << 16 | (rest == 2 ? UInt32(bytes[index + 1]) << 8 : 0)
      output.append(alphabet[Int(chunk >> 18 & 63)])
      output.append(alphabet[Int(chunk >> 12 & 63)])
      if rest == 2 { output.append(alphabet[Int(chunk >> 6 & 63)]) }
      if pad { output.append(contentsOf: rest == 2 ? [UInt8(ascii: "=")] : [UInt8(ascii: "="), UInt8(ascii: "=")]) }
    }
    return output
  }
}
