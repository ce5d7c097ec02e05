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
  /// `SecretFingerprint.digestPrefix(of: value)`, or 0 until it is needed (`init(hashingWhenNeeded:)`).
  private let knownDigestPrefix: UInt64

  /// A secret hashed now: the planner compares and sorts refresh and id tokens by their fingerprints many times
  /// per item.
  public init(_ value: String) {
    self.value = value
    knownDigestPrefix = SecretFingerprint.digestPrefix(of: value)
  }

  /// A secret hashed only where its fingerprint is asked for: an access token, whose fingerprint only a token
  /// that is planned shows. Most of a cache's access tokens are expired (they live about an hour) and are
  /// skipped without it: hashing every one as it was read was about 1.5% of the 40k-item dry run's samples
  /// (docs/benchmarks.md, "Access tokens hashed where they are planned").
  package init(hashingWhenNeeded value: String) {
    self.value = value
    knownDigestPrefix = 0
  }

  /// The first bytes of the value's SHA-256 (`SecretFingerprint.digestPrefix`). A digest that starts with six
  /// zero bytes reads as not known yet and is computed again at each use: the same value, a little later.
  package var digestPrefix: UInt64 {
    knownDigestPrefix != 0 ? knownDigestPrefix : SecretFingerprint.digestPrefix(of: value)
  }

  /// `sha256:` and the first 12 hex digits of the SHA-256 of the UTF-8 value.
  public var fingerprint: String { SecretFingerprint.text(ofDigestPrefix: digestPrefix) }

  /// Secrets are equal when their values are, whether or not either was hashed yet.
  public static func == (lhs: ADALSecret, rhs: ADALSecret) -> Bool { lhs.value == rhs.value }
  public func hash(into hasher: inout Hasher) { hasher.combine(value) }

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
