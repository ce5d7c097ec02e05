/// One section of the cache: entities of one kind, unique by canonical key, listed in key order.
public struct UnifiedSection<Entity: UnifiedEntity>: Sendable, Hashable, Sequence {
  private var byKey: [String: Entity] = [:]

  public init() {}

  public init(_ entities: [Entity]) {
    for entity in entities { upsert(entity) }
  }

  public var count: Int { byKey.count }
  public var isEmpty: Bool { byKey.isEmpty }

  /// The canonical keys, sorted.
  public var keys: [String] { byKey.keys.sorted() }

  /// The entities, sorted by canonical key (the order the writer uses).
  public var entities: [Entity] { keys.compactMap { byKey[$0] } }

  /// The entity with this canonical key.
  public subscript(key: String) -> Entity? { byKey[key] }

  /// Makes room for `count` entities, so that filling a section of known size does not rehash it as it grows.
  public mutating func reserveCapacity(_ count: Int) { byKey.reserveCapacity(count) }

  /// Inserts the entity, or replaces the one with the same canonical key; returns the replaced one.
  @discardableResult
  public mutating func upsert(_ entity: Entity) -> Entity? {
    byKey.updateValue(entity, forKey: entity.canonicalKey)
  }

  /// Removes and returns the entity with this canonical key.
  @discardableResult
  public mutating func remove(key: String) -> Entity? { byKey.removeValue(forKey: key) }

  public func makeIterator() -> IndexingIterator<[Entity]> { entities.makeIterator() }
}

/// The whole unified cache: the five sections plus any top-level section this tool does not know, kept as
/// JSON in its original order and written back unchanged.
public struct UnifiedCacheContents: Sendable, Hashable, CustomStringConvertible {
  public var accounts: UnifiedSection<UnifiedAccount>
  public var accessTokens: UnifiedSection<UnifiedAccessToken>
  public var refreshTokens: UnifiedSection<UnifiedRefreshToken>
  public var idTokens: UnifiedSection<UnifiedIdToken>
  public var appMetadata: UnifiedSection<UnifiedAppMetadata>
  /// Top-level members other than the five sections (e.g. MSAL.NET's "unknown nodes"), in file order.
  public var unknownSections: JSONObject

  public init(
    accounts: UnifiedSection<UnifiedAccount> = .init(), accessTokens: UnifiedSection<UnifiedAccessToken> = .init(),
    refreshTokens: UnifiedSection<UnifiedRefreshToken> = .init(), idTokens: UnifiedSection<UnifiedIdToken> = .init(),
    appMetadata: UnifiedSection<UnifiedAppMetadata> = .init(), unknownSections: JSONObject = JSONObject()
  ) {
    self.accounts = accounts
    self.accessTokens = accessTokens
    self.refreshTokens = refreshTokens
    self.idTokens = idTokens
    self.appMetadata = appMetadata
    self.unknownSections = unknownSections
  }

  /// Every entity, section by section (AccessToken, RefreshToken, IdToken, Account, AppMetadata), each in key order.
  public var allEntities: [AnyUnifiedEntity] {
    accessTokens.map(AnyUnifiedEntity.accessToken) + refreshTokens.map(AnyUnifiedEntity.refreshToken)
      + idTokens.map(AnyUnifiedEntity.idToken) + accounts.map(AnyUnifiedEntity.account)
      + appMetadata.map(AnyUnifiedEntity.appMetadata)
  }

  /// The entity of this kind with this canonical key: one lookup in its section, without listing any section
  /// (`allEntities` sorts each section's keys).
  public subscript(kind: UnifiedEntityKind, key: String) -> AnyUnifiedEntity? {
    switch kind {
    case .account: accounts[key].map(AnyUnifiedEntity.account)
    case .accessToken: accessTokens[key].map(AnyUnifiedEntity.accessToken)
    case .refreshToken: refreshTokens[key].map(AnyUnifiedEntity.refreshToken)
    case .idToken: idTokens[key].map(AnyUnifiedEntity.idToken)
    case .appMetadata: appMetadata[key].map(AnyUnifiedEntity.appMetadata)
    }
  }

  /// Adds an entity of any kind, replacing one with the same canonical key; returns the replaced one.
  @discardableResult
  public mutating func upsert(_ entity: AnyUnifiedEntity) -> AnyUnifiedEntity? {
    switch entity {
    case .account(let value): accounts.upsert(value).map(AnyUnifiedEntity.account)
    case .accessToken(let value): accessTokens.upsert(value).map(AnyUnifiedEntity.accessToken)
    case .refreshToken(let value): refreshTokens.upsert(value).map(AnyUnifiedEntity.refreshToken)
    case .idToken(let value): idTokens.upsert(value).map(AnyUnifiedEntity.idToken)
    case .appMetadata(let value): appMetadata.upsert(value).map(AnyUnifiedEntity.appMetadata)
    }
  }

  /// Whether the cache holds no entity and no unknown section.
  public var isEmpty: Bool { !holdsEntities && unknownSections.isEmpty }

  /// Whether any of the five sections holds an entity.
  public var holdsEntities: Bool {
    !(accounts.isEmpty && accessTokens.isEmpty && refreshTokens.isEmpty && idTokens.isEmpty && appMetadata.isEmpty)
  }

  public var description: String {
    "UnifiedCacheContents(accounts: \(accounts.count), accessTokens: \(accessTokens.count), "
      + "refreshTokens: \(refreshTokens.count), idTokens: \(idTokens.count), appMetadata: \(appMetadata.count), "
      + "unknownSections: \(unknownSections.keys))"
  }
}
