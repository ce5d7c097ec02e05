import Adal2MSALSupport
import Foundation

/// A secret string read from an ADAL item (an access, refresh or id token, a session key).
///
/// Its `description` and `debugDescription` are the fingerprint (`sha256:…`), never the value, so a secret
/// cannot leak through string interpolation, `print`, `dump` of a containing type or a test failure message.
/// Read `value` only where the secret itself is needed (writing the migrated cache).
public struct ADALSecret: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible,
  CustomReflectable
{
  /// The secret itself.
  public let value: String
  /// Hashed once: the planner compares and sorts by fingerprints many times per item.
  package let digestPrefix: UInt64

  public init(_ value: String) {
    self.value = value
    digestPrefix = SecretFingerprint.digestPrefix(of: value)
  }

  /// `sha256:` and the first 12 hex digits of the SHA-256 of the UTF-8 value.
  public var fingerprint: String { SecretFingerprint.text(ofDigestPrefix: digestPrefix) }

  public var description: String { fingerprint }
  public var debugDescription: String { "ADALSecret(\(fingerprint))" }
  /// Mirrors show the fingerprint only (`dump`, Swift Testing's value rendering).
  public var customMirror: Mirror { Mirror(self, children: ["fingerprint": fingerprint]) }
}

/// Bytes that are secret (the broker `sessionKey`): shown as a fingerprint only.
public struct ADALSecretData: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible,
  CustomReflectable
{
  /// The secret bytes.
  public let value: Data

  public init(_ value: Data) { self.value = value }

  public var fingerprint: String { SecretFingerprint.of(value) }
  public var description: String { fingerprint }
  public var debugDescription: String { "ADALSecretData(\(value.count) bytes, \(fingerprint))" }
  public var customMirror: Mirror { Mirror(self, children: ["fingerprint": fingerprint]) }
}
