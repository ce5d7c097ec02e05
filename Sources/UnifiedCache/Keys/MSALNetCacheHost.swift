/// The host MSAL.NET, MSAL Java, msal-common (msal-node) and MSAL ObjC store a cloud's entries under: the
/// `preferred_cache` of Azure AD's instance discovery (`login.windows.net` for the public cloud,
/// `login.partner.microsoftonline.cn` for China). Each finds an entry under any alias of its cloud, but writes what
/// a refresh returns under this host, so an entry left under another alias stays beside the new one: the redeemed
/// refresh token is never replaced, and the next silent refresh may post it again. Hosts of no known cloud (ADFS,
/// B2C, others) are kept. The clouds and their cache hosts are `EnvironmentAliases`' table.
///
/// The libraries' sources (docs/sources.md):
/// - MSAL.NET: `TokenCache.ITokenCacheInternal.cs` `SaveTokenResponseAsync` writes every item, Account and app
///   metadata included, under `instanceDiscoveryMetadata.PreferredCache` (`KnownMetadataProvider`:
///   `login.windows.net` for the public cloud).
/// - MSAL Java: `AbstractApplicationBase.java` writes `instanceDiscoveryMetadata.preferredCache` for Azure AD
///   authorities (the host itself for ADFS and B2C).
/// - msal-common (msal-node): `ResponseHandler.ts` builds every cache record with
///   `env = authority.getPreferredCache()` (`AuthorityMetadata.ts`: `preferred_cache` `login.windows.net`).
/// - MSAL ObjC (IdentityCore): `MSIDOauth2Factory` `fillBaseToken`/`fillAccount` set `storageEnvironment` to
///   `[cacheAuthority cacheEnvironmentWithContext:]`, which `MSIDAADAuthority` takes from `MSIDAadAuthorityCache`
///   `cacheUrlForAuthority:` (discovery's `preferred_cache`); `MSIDBaseToken.tokenCacheItem` and
///   `MSIDAccount.accountCacheItem` write `storageEnvironment`. Its app metadata (`fillAppMetadata`) is written
///   under `cacheAuthority.environment`, the configured authority's host, so it keeps its host.
/// - MSAL Python and MSAL Go write the configured host (`environment=authority.instance`): their entries keep it.
public enum MSALNetCacheHost {
  /// The cache host of `environment`'s cloud (`EnvironmentGroup.preferredCacheHost`), or `environment` itself
  /// outside the known clouds.
  public static func of(_ environment: String) -> String {
    let group = EnvironmentAliases.group(forHost: environment)
    return group.isKnown ? group.preferredCacheHost : environment
  }

  /// `entity` under its cloud's cache host (keys follow, as they are computed from the fields), whether it was
  /// made here (from ADAL, an MSAL ObjC keychain item, an MSAL.NET v2 dictionary cache) or read from an MSAL JSON
  /// file under another alias (MSAL Python's `login.microsoftonline.com`). `appMetadata: false` keeps an app
  /// metadata entry's host (MSAL ObjC).
  public static func adopting(_ entity: AnyUnifiedEntity, appMetadata: Bool = true) -> AnyUnifiedEntity {
    switch entity {
    case .account(let account): .account(moving(account))
    case .accessToken(let token): .accessToken(moving(token))
    case .refreshToken(let token): .refreshToken(moving(token))
    case .idToken(let token): .idToken(moving(token))
    case .appMetadata(let metadata): appMetadata ? .appMetadata(moving(metadata)) : entity
    }
  }

  /// `entity` under its cloud's cache host.
  static func moving<Entity: CacheHosted>(_ entity: Entity) -> Entity {
    var moved = entity
    moved.environment = of(entity.environment)
    return moved
  }
}

/// An entity whose `environment` can move to its cloud's cache host (`MSALNetCacheHost.moving`).
protocol CacheHosted { var environment: String { get set } }
extension UnifiedAccount: CacheHosted {}
extension UnifiedAccessToken: CacheHosted {}
extension UnifiedRefreshToken: CacheHosted {}
extension UnifiedIdToken: CacheHosted {}
extension UnifiedAppMetadata: CacheHosted {}

extension MSALLibrary {
  /// `entity` as this library will store it: for MSAL.NET, Java, msal-node and ObjC under its cloud's cache host
  /// (`MSALNetCacheHost`; ObjC's app metadata keeps its host), for MSAL Python and Go as it is.
  public func stored(_ entity: AnyUnifiedEntity) -> AnyUnifiedEntity {
    switch self {
    case .dotnet, .java, .node: MSALNetCacheHost.adopting(entity)
    case .objc: MSALNetCacheHost.adopting(entity, appMetadata: false)
    case .python, .go: entity
    }
  }
}
