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

  private static func digestPrefix(of digest: SHA256.Digest) -> UInt64 {
    digest.prefix(length / 2).reduce(0) { ($0 << 8) | UInt64($1) }
  }

  /// `sha256:` and the hex digits of a `digestPrefix`.
  package static func text(ofDigestPrefix prefix: UInt64) -> String {
    var text = Array("sha256:".utf8)
    for shift in stride(from: (length - 1) * 4, through: 0, by: -4) {
      text.append(hexDigits[Int((prefix >> UInt64(shift)) & 0x0f)])
    }
    return String(decoding: text, as: UTF8.self)
  }

  private static let hexDigits = Array("0123456789abcdef".utf8)

  /// The full lowercase hex SHA-256 of some bytes (for input-file digests in the run record, not for secrets).
  package static func sha256Hex(_ data: Data) -> String {
    String(
      decoding: SHA256.hash(data: data).flatMap { [hexDigits[Int($0 >> 4)], hexDigits[Int($0 & 0x0f)]] }, as: UTF8.self)
  }
}
