/// Whether a key found in a file names the entity its fields describe, allowing for the key styles the MSAL
/// libraries write (see docs/unified-cache-keys.md): case differences, trailing empty or extra components
/// (msal-node's `--`/`----`, Go's missing ones), Python's target on refresh-token keys, msal-node's account key
/// built from the home tenant, and Python's client-id key for family refresh tokens.
enum KeyStyles {
  static func agrees(fileKey: String, with entity: AnyUnifiedEntity) -> Bool {
    let key = fileKey.lowercased()
    if key == entity.canonicalKey { return true }
    switch entity {
    case .account(let account):
      let tenant = UnifiedAccount.homeTenant(of: account.homeAccountID) ?? account.realm
      return key == UnifiedCacheKey.join([account.homeAccountID, account.environment, tenant])
    case .accessToken(let token):
      let descriptors = ["accesstoken", "accesstoken_with_authscheme", "atext", token.credentialType.lowercased()]
      let targets = [
        UnifiedCacheKey.normalizedScopes(token.target).joined(separator: " "), token.target.lowercased(),
      ]
      return descriptors.contains { descriptor in
        let head = UnifiedCacheKey.join([
          token.homeAccountID, token.environment, descriptor, token.clientID, token.realm,
        ])
        return targets.contains { onlyExtraComponents(key, after: head + "-" + $0) }
      }
    case .refreshToken(let token):
      let owners = [token.clientID, token.effectiveFamilyID].compactMap { $0 }
      return owners.contains { owner in
        onlyExtraComponents(
          key, after: UnifiedCacheKey.join([token.homeAccountID, token.environment, "refreshtoken", owner]))
      }
    case .idToken(let token):
      let head = UnifiedCacheKey.join([token.homeAccountID, token.environment, "idtoken", token.clientID, token.realm])
      return onlyExtraComponents(key, after: head)
    case .appMetadata:
      return false
    }
  }

  /// `key` is `head` followed by nothing or by `-`-separated extra components (empty ones, a claims hash, a
  /// scheme, Python's target on a refresh token).
  private static func onlyExtraComponents(_ key: String, after head: String) -> Bool {
    guard key.hasPrefix(head) else { return false }
    let rest = key.dropFirst(head.count)
    return rest.isEmpty || rest.hasPrefix("-")
  }
}
