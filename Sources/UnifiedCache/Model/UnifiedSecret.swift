import Adal2MSALSupport

/// A token (`secret` field): the only way the model holds one, so that printing, dumping or interpolating
/// any entity shows the fingerprint (`sha256:3f1a9c0b7d2e`) and never the token.
public struct UnifiedSecret: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible,
  CustomReflectable
{
  /// The token itself. Read it only to write it to a cache.
  public let value: String
  /// Hashed once: plans and reports show a secret's fingerprint several times.
  package let digestPrefix: UInt64

  public init(_ value: String) {
    self.init(value, digestPrefix: SecretFingerprint.digestPrefix(of: value))
  }

  /// A secret whose `SecretFingerprint.digestPrefix` is already known (a token mapped from another model).
  package init(_ value: String, digestPrefix: UInt64) {
    self.value = value
    self.digestPrefix = digestPrefix
  }

  /// The fingerprint of the token, safe to show.
  public var fingerprint: String { SecretFingerprint.text(ofDigestPrefix: digestPrefix) }

  public var description: String { fingerprint }
  public var debugDescription: String { "UnifiedSecret(\(fingerprint))" }
  public var customMirror: Mirror { Mirror(self, children: ["fingerprint": fingerprint], displayStyle: .struct) }
}
