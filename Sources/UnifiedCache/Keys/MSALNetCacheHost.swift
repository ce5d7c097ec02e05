/// The host MSAL.NET stores a cloud's entries under: the `preferred_cache` of Azure AD's instance discovery
/// (`login.windows.net` for the public cloud). MSAL.NET finds an entry under any alias of its cloud, but writes what
/// a refresh returns under this host, so an entry made for it under another alias stays beside the new one (the
/// redeemed refresh token is never replaced). Hosts of no known cloud (ADFS, B2C, others) are kept.
/// The clouds and their cache hosts are `EnvironmentAliases`' table.
public enum MSALNetCacheHost {
  /// The cache host of `environment`'s cloud (`EnvironmentGroup.preferredCacheHost`), or `environment` itself
  /// outside the known clouds.
  public static func of(_ environment: String) -> String {
    let group = EnvironmentAliases.group(forHost: environment)
    return group.isKnown ? group.preferredCacheHost : environment
  }

  /// `entity` as MSAL.NET would have stored it. An entity that was not read from an MSAL cache file (migrated from
  /// ADAL, or an MSAL ObjC keychain item) moves to its cloud's cache host; one read from a file keeps the host its
  /// writer chose, so that a cache comes back entry for entry.
  public static func adopting(_ entity: AnyUnifiedEntity) -> AnyUnifiedEntity {
    guard entity.writtenForm.key == nil else { return entity }
    let host = of(entity.environment)
    guard host != entity.environment else { return entity }
    switch entity {
    case .account(var account):
      account.environment = host
      return .account(account)
    case .accessToken(var token):
      token.environment = host
      return .accessToken(token)
    case .refreshToken(var token):
      token.environment = host
      return .refreshToken(token)
    case .idToken(var token):
      token.environment = host
      return .idToken(token)
    case .appMetadata(var metadata):
      metadata.environment = host
      return .appMetadata(metadata)
    }
  }
}

extension MSALLibrary {
  /// `entity` as this library will store it: for MSAL.NET under its cloud's cache host (`MSALNetCacheHost`), for the
  /// others as it is.
  public func stored(_ entity: AnyUnifiedEntity) -> AnyUnifiedEntity {
    self == .dotnet ? MSALNetCacheHost.adopting(entity) : entity
  }
}
