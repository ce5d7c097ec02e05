import Crypto
import Foundation

/// The only way a secret (an access, refresh or id token, a session key) is ever shown: a short SHA-256
/// fingerprint such as `sha256:3f1a9c0b7d2e`.
///
/// Twelve hex digits tell tokens apart in a report without giving anything away.
package enum SecretFingerprint {
  /// The number of hex digits shown.
  package static let length = 12

  package static func of(_ secret: String) -> String { text(ofDigestPrefix: digestPrefix(of: secret)) }

  package static func of(_ secret: Data) -> String { text(ofDigestPrefix: digestPrefix(of: secret)) }

  /// The digest's first `length / 2` bytes as one integer: what a value that is fingerprinted often keeps, so
  /// that it hashes once (the text form is rebuilt from it on demand).
  package static func digestPrefix(of secret: String) -> UInt64 {
    var secret = secret
    return secret.withUTF8 { digestPrefix(of: SHA256.hash(data: $0)) }
  }

  package static func digestPrefix(of secret: Data) -> UInt64 { digestPrefix(of: SHA256.hash(data: secret)) }

  /// Read from the digest's bytes in place: iterating the digest as a sequence copied it into an array of its
  /// own, an allocation for each secret of a read.
  private static func digestPrefix(of digest: SHA256.Digest) -> UInt64 {
    digest.withUnsafeBytes { bytes in bytes.prefix(length / 2).reduce(0) { ($0 << 8) | UInt64($1) } }
  }

  /// `sha256:` and the hex digits of a `digestPrefix`.
  /// Written into the string's own storage: reports make one per token entry, and an array grown digit by
  /// digit, then copied into the string, was three allocations each.
  package static func text(ofDigestPrefix prefix: UInt64) -> String {
    String(unsafeUninitializedCapacity: scheme.count + length) { buffer in
      for (index, byte) in scheme.enumerated() { buffer[index] = byte }
      for digit in 0..<length { buffer[scheme.count + digit] = hexDigit(digit, of: prefix) }
      return scheme.count + length
    }
  }

  /// Appends `text(ofDigestPrefix:)` as UTF-8, without making the String (a report line holds it).
  package static func write(ofDigestPrefix prefix: UInt64, to bytes: inout [UInt8]) {
    bytes.append(contentsOf: scheme)
    for digit in 0..<length { bytes.append(hexDigit(digit, of: prefix)) }
  }

  /// The `digit`th hex digit shown of a `digestPrefix`, from the left.
  private static func hexDigit(_ digit: Int, of prefix: UInt64) -> UInt8 {
    hexDigits[Int((prefix >> UInt64((length - 1 - digit) * 4)) & 0x0f)]
  }

  private static let scheme = Array("sha256:".utf8)
  private static let hexDigits = Array("0123456789abcdef".utf8)

  /// The full lowercase hex SHA-256 of some bytes (for input-file digests in the run record, not for secrets).
  ///
  /// - Parameter passed: told, every `stride` bytes and at the end, the offset below which every byte is hashed
  ///   (an input's pages given back behind the digest, `InputPages.resumeReleases(below:)`).
  package static func sha256Hex(_ data: Data, stride: Int = 1 << 20, passed: ((Int) -> Void)? = nil) -> String {
    var hasher = SHA256()
    data.withUnsafeBytes { bytes in
      var start = 0
      repeat {
        let end = min(start + stride, bytes.count)
        hasher.update(bufferPointer: UnsafeRawBufferPointer(rebasing: bytes[start..<end]))
        passed?(end)
        start = end
      } while start < bytes.count
    }
    return String(
      decoding: hasher.finalize().flatMap { [hexDigits[Int($0 >> 4)], hexDigits[Int($0 & 0x0f)]] }, as: UTF8.self)
  }
}
