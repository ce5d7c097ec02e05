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
    // The hex digits of the digest's first bytes, written directly (a lazy joined sequence of per-byte
    // strings cost several times the hash itself).
    var text = Array("sha256:".utf8)
    for byte in SHA256.hash(data: secret).prefix(length / 2) {
      text.append(hexDigits[Int(byte >> 4)])
      text.append(hexDigits[Int(byte & 0x0f)])
    }
    return String(decoding: text, as: UTF8.self)
  }

  private static let hexDigits = Array("0123456789abcdef".utf8)

  /// The full lowercase hex SHA-256 of some bytes (for input-file digests in the run record, not for secrets).
  public static func sha256Hex(_ data: Data) -> String {
    SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined()
  }
}
