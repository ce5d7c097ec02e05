import Adal2MSALSupport

/// The cache key each MSAL library computes for an entity, from the entity's fields.
///
/// Every library finds the entry it replaces on refresh, or removes on sign-out, under the key it computes
/// (MSAL.NET alone re-keys on load), so an export for a library must use exactly these keys. The target component
/// is the `target` field as written, lowercased, never re-sorted: that is what the libraries do with a stored
/// entry. The rules: docs/unified-cache-keys.md; the libraries' code they were read from: docs/sources.md.
public enum LibraryKeys {
  /// For MSAL ObjC, which finds keychain items by attributes rather than a key: `<acct>|<svce>`.
  public static func key(for entity: AnyUnifiedEntity, in library: MSALLibrary) -> String {
    if library == .objc { return UnifiedKeychainWriter.address(of: entity) }
    return switch entity {
    case .account(let account): accountKey(account, library)
    case .accessToken(let token): accessTokenKey(token, library)
    case .refreshToken(let token): refreshTokenKey(token, library)
    case .idToken(let token): idTokenKey(token, library)
    case .appMetadata(let metadata): appMetadataKey(metadata, library)
    }
  }

  /// What `library` keeps one entry of: two entities with the same slot cannot both live in its cache, even when
  /// their keys differ. The key itself but for MSAL Python's refresh tokens: it keys them by their own `target`,
  /// yet finds the one to redeem by home account, environment and client id (or family) and replaces only that
  /// one on refresh, so a second refresh token of the client stays behind, stale (docs/unified-cache-keys.md).
  /// Their slot is the key without the target.
  public static func slot(for entity: AnyUnifiedEntity, in library: MSALLibrary) -> String {
    if library == .python, case .refreshToken(let token) = entity {
      return lowered([token.homeAccountID, token.environment, "refreshtoken", token.clientID])
    }
    return key(for: entity, in: library)
  }

  static func accountKey(_ account: UnifiedAccount, _ library: MSALLibrary) -> String {
    let parts = [account.homeAccountID, account.environment, account.realm]
    switch library {
    case .dotnet:
      // MSAL.NET does not lowercase account keys.
      return parts.joined(separator: "-")
    case .node:
      // msal-node keys an account by the tenant half of its home account id.
      let tenant = account.homeAccountID.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        .dropFirst().first.map(String.init)
      let third = (tenant?.isEmpty == false ? tenant : nil) ?? account.realm
      return lowered([account.homeAccountID, account.environment, third])
    case .python, .java, .go, .objc:
      return lowered(parts)
    }
  }

  static func accessTokenKey(_ token: UnifiedAccessToken, _ library: MSALLibrary) -> String {
    let head = [token.homeAccountID, token.environment]
    let target = token.target
    switch library {
    case .dotnet:
      if token.credentialType.lowercased() == "atext" {
        // MSAL.NET's own hash of its extra key components cannot be recomputed here; it re-keys on load anyway.
        return token.writtenForm.key ?? token.canonicalKey
      }
      if !token.isBearer {
        return lowered(
          head + ["accesstoken_with_authscheme", token.clientID, token.realm, target, token.tokenType ?? ""])
      }
      return lowered(head + ["accesstoken", token.clientID, token.realm, target])
    case .python, .go:
      let extKey = token.additionalFields["ext_cache_key"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
      var parts = head + [extKey == nil ? "accesstoken" : "atext", token.clientID, token.realm, target]
      if library == .go, !token.isBearer { parts.append(token.tokenType ?? "") }
      if let extKey { parts.append(extKey) }
      return lowered(parts)
    case .java, .objc:
      return lowered(head + ["accesstoken", token.clientID, token.realm, target])
    case .node:
      let descriptor = token.isBearer ? "accesstoken" : "accesstoken_with_authscheme"
      let claimsHash = token.additionalFields["requestedClaimsHash"]?.stringValue ?? ""
      let scheme = token.isBearer ? "" : (token.tokenType ?? "")
      return lowered(head + [descriptor, token.clientID, token.realm, target, claimsHash, scheme])
    }
  }

  static func refreshTokenKey(_ token: UnifiedRefreshToken, _ library: MSALLibrary) -> String {
    let head = [token.homeAccountID, token.environment, "refreshtoken"]
    let owner = token.effectiveFamilyID ?? token.clientID
    switch library {
    case .dotnet, .java, .objc:
      return lowered(head + [owner, "", ""])
    case .python:
      // MSAL Python keys every refresh token by its client id, a family token too, and ends the key with the
      // token's own target (empty when it has none).
      return lowered(head + [token.clientID, "", token.target ?? ""])
    case .node:
      return lowered(head + [owner, "", "", "", ""])
    case .go:
      return lowered(head + [owner])
    }
  }

  static func idTokenKey(_ token: UnifiedIdToken, _ library: MSALLibrary) -> String {
    let parts = [token.homeAccountID, token.environment, "idtoken", token.clientID, token.realm]
    switch library {
    case .dotnet, .python, .java, .objc: return lowered(parts + [""])
    case .node: return lowered(parts + ["", "", ""])
    case .go: return lowered(parts)
    }
  }

  static func appMetadataKey(_ metadata: UnifiedAppMetadata, _ library: MSALLibrary) -> String {
    let parts = ["appmetadata", metadata.environment, metadata.clientID]
    // MSAL Python does not lowercase its app metadata keys.
    return library == .python ? parts.joined(separator: "-") : lowered(parts)
  }

  private static func lowered(_ parts: [String]) -> String { parts.joined(separator: "-").lowercased() }
}
