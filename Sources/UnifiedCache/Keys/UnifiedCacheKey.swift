import Adal2MSALSupport

/// Canonical cache keys, computed from an entity's fields and never taken from a file.
///
/// One format for every entity, the MSAL.NET / Python / Java one: components joined with `-`, the whole key
/// lowercased. The environment is the raw host, lowercased; alias groups are compared separately
/// (`EnvironmentAliases`). Full format and examples: docs/unified-cache-keys.md.
public enum UnifiedCacheKey {
  /// `<home_account_id>-<environment>-<realm>`.
  public static func account(homeAccountID: String, environment: String, realm: String) -> String {
    join([homeAccountID, environment, realm])
  }

  /// `<home>-<env>-accesstoken-<client_id>-<realm>-<target>`; for a non-Bearer token the descriptor is
  /// `accesstoken_with_authscheme` and `-<token_type>` is appended (as MSAL.NET). An `ATExt` token (.NET
  /// extra key components in `ext`) gets the descriptor `atext` and a `-<digest of ext>` suffix.
  public static func accessToken(_ token: UnifiedAccessToken) -> String {
    var descriptor = "accesstoken"
    var suffix: [String] = []
    if !token.isBearer {
      descriptor = "accesstoken_with_authscheme"
      suffix.append(token.tokenType ?? "")
    }
    if token.credentialType.lowercased() == "atext" {
      descriptor = "atext"
      let ext = token.additionalFields["ext"].map { JSONText.compact($0) } ?? ""
      suffix.append(String(SecretFingerprint.of(ext).dropFirst("sha256:".count)))
    }
    let components = [
      token.homeAccountID, token.environment, descriptor, token.clientID, token.realm, keyTarget(token.target),
    ]
    return join(suffix.isEmpty ? components : components + suffix)
  }

  /// The target as a key holds it (`normalizedScopes`, joined with spaces), or as a key joins it: one ASCII
  /// scope (most access tokens' `resource/.default`) is the target itself, which `join` lowercases as it
  /// copies it (lowercased into a list, and joined into another string, it was three allocations a token).
  private static func keyTarget(_ target: String) -> String {
    let isOneASCIIScope = target.utf8.withContiguousStorageIfAvailable { bytes in
      !bytes.isEmpty && !bytes.contains { $0 >= 0x80 || $0 == 0x20 || (0x09...0x0D).contains($0) }
    }
    return isOneASCIIScope == true ? target : normalizedScopes(target).joined(separator: " ")
  }

  /// `<home>-<env>-refreshtoken-<client_id>--`, or `<home>-<env>-refreshtoken-<family_id>--` for a family
  /// refresh token (as MSAL.NET and Java). A Python-style family token (keyed by client id in the file) gets
  /// the family key too: it is the same entity.
  public static func refreshToken(_ token: UnifiedRefreshToken) -> String {
    join([token.homeAccountID, token.environment, "refreshtoken", token.effectiveFamilyID ?? token.clientID, "", ""])
  }

  /// `<home>-<env>-idtoken-<client_id>-<realm>-` (the empty last component is the target).
  public static func idToken(_ token: UnifiedIdToken) -> String {
    join([token.homeAccountID, token.environment, "idtoken", token.clientID, token.realm, ""])
  }

  /// `appmetadata-<environment>-<client_id>`.
  public static func appMetadata(environment: String, clientID: String) -> String {
    join(["appmetadata", environment, clientID])
  }

  /// Scopes as in a key: split on whitespace, lowercased, sorted, deduplicated.
  public static func normalizedScopes(_ target: String) -> [String] {
    // ASCII targets (nearly all) are split on their bytes: there the whitespace characters are exactly
    // U+0009–U+000D and U+0020 (CR LF, one character, splits the same). Splitting by characters was a hot spot.
    let scopes: [String]
    var target = target
    let (ascii, whitespace) = target.withUTF8 { bytes in
      (!bytes.contains { $0 >= 0x80 }, bytes.contains { $0 == 0x20 || (0x09...0x0D).contains($0) })
    }
    // One scope (most access tokens' `resource/.default`): nothing to split, sort or deduplicate.
    if ascii, !whitespace { return target.isEmpty ? [] : [target.lowercased()] }
    if ascii {
      scopes = target.utf8.split(whereSeparator: { $0 == 0x20 || (0x09...0x0D).contains($0) })
        .map { Substring($0).lowercased() }
    } else {
      scopes = target.split(whereSeparator: { $0.isWhitespace }).map { $0.lowercased() }
    }
    return Array(Set(scopes)).sorted()
  }

  /// ASCII components (nearly all) are lowercased as they are copied into the key, eight bytes at a time, one
  /// allocation in all: a joined String, lowercased into another, was a measurable part of planning (four keys
  /// per ADAL item), and so was copying a byte at a time.
  static func join(_ components: [String]) -> String {
    let count = components.reduce(components.count - 1) { $0 + $1.utf8.count }
    var ascii = count > 0
    let key = String(unsafeUninitializedCapacity: max(0, count)) { buffer in
      guard let out = buffer.baseAddress else { return 0 }
      var position = 0
      for index in components.indices where ascii {
        if index > 0 {
          out[position] = UInt8(ascii: "-")
          position += 1
        }
        var component = components[index]
        component.withUTF8 { bytes in
          ascii = String.copyLowercasingASCII(bytes, to: out + position)
          position += bytes.count
        }
      }
      return ascii ? position : 0
    }
    return ascii ? key : components.joined(separator: "-").lowercased()
  }
}
