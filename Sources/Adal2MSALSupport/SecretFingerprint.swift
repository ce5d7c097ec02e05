import Crypto
import Foundation

/// The only way a secret (an access, refresh or id token, a session key) is ever shown: a short SHA-256
/// fingerprint such as `sha256:3f1a9c0b7d2e`.
///
/// Twelve hex digits tell tokens apart in a report without giving anything away.
public enum SecretFingerprint {
  /// The number of hex digits shown.
  public static let length = 12

  public static func of(_ secret: String) -> String { of(Data(secret.utf8)) }

  public static func of(_ secret: Data) -> String {
    let digest = SHA256.hash(data: secret)
    let hex = digest.lazy.map { byte in
      let digits = Array("0123456789abcdef")
      return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0f)]])
    }.joined()
    return "sha256:" + hex.prefix(length)
  }

  /// The full lowercase hex SHA-256 of some bytes (for input-file digests in the run record, not for secrets).
  public static func sha256Hex(_ data: Data) -> String {
    SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined()
  }
}
