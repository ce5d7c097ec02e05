/// The five kinds of entity in the unified cache. The raw value is the JSON section name.
public enum UnifiedEntityKind: String, Sendable, Hashable, CaseIterable, Codable {
  case accessToken = "AccessToken"
  case refreshToken = "RefreshToken"
  case idToken = "IdToken"
  case account = "Account"
  case appMetadata = "AppMetadata"

  /// The JSON section that holds entities of this kind (`AccessToken`, `Account`, ...).
  public var sectionName: String { rawValue }

  /// Whether entities of this kind carry a `secret`.
  public var holdsSecret: Bool {
    switch self {
    case .accessToken, .refreshToken, .idToken: true
    case .account, .appMetadata: false
    }
  }
}

/// What every entity shares, so that the migration engine and the store can handle them uniformly.
public protocol UnifiedEntity: Sendable, Hashable, CustomStringConvertible {
  /// The kind of entity (its section).
  static var kind: UnifiedEntityKind { get }
  /// The canonical cache key, always computed from the fields (see docs/unified-cache-keys.md).
  var canonicalKey: String { get }
  /// The host the entity was cached under, as written (e.g. `login.windows.net`).
  var environment: String { get }
  /// The account this entity belongs to (`<uid>.<utid>`), nil for app metadata; may be empty for app-only tokens.
  var owningHomeAccountID: String? { get }
  /// The application this entity belongs to, nil for accounts.
  var owningClientID: String? { get }
  /// Every field of the entity that is not modelled, in its original order, written back unchanged.
  var additionalFields: JSONObject { get }
}

extension UnifiedEntity {
  public var kind: UnifiedEntityKind { Self.kind }
}

/// Any entity of the unified cache, for code that handles them in one list.
public enum AnyUnifiedEntity: Sendable, Hashable, CustomStringConvertible {
  case account(UnifiedAccount)
  case accessToken(UnifiedAccessToken)
  case refreshToken(UnifiedRefreshToken)
  case idToken(UnifiedIdToken)
  case appMetadata(UnifiedAppMetadata)

  /// The wrapped entity.
  public var entity: any UnifiedEntity {
    switch self {
    case .account(let entity): entity
    case .accessToken(let entity): entity
    case .refreshToken(let entity): entity
    case .idToken(let entity): entity
    case .appMetadata(let entity): entity
    }
  }

  /// The wrapped entity's fields that the unified-cache model does not know, kept for the round trip. Read
  /// from the case itself: through `entity`, each read boxed a copy of the entity.
  public var additionalFields: JSONObject {
    switch self {
    case .account(let entity): entity.additionalFields
    case .accessToken(let entity): entity.additionalFields
    case .refreshToken(let entity): entity.additionalFields
    case .idToken(let entity): entity.additionalFields
    case .appMetadata(let entity): entity.additionalFields
    }
  }

  /// How the wrapped entity was written in its file.
  public var writtenForm: WrittenForm {
    get {
      switch self {
      case .account(let entity): entity.writtenForm
      case .accessToken(let entity): entity.writtenForm
      case .refreshToken(let entity): entity.writtenForm
      case .idToken(let entity): entity.writtenForm
      case .appMetadata(let entity): entity.writtenForm
      }
    }
    set {
      switch self {
      case .account(var entity):
        entity.writtenForm = newValue
        self = .account(entity)
      case .accessToken(var entity):
        entity.writtenForm = newValue
        self = .accessToken(entity)
      case .refreshToken(var entity):
        entity.writtenForm = newValue
        self = .refreshToken(entity)
      case .idToken(var entity):
        entity.writtenForm = newValue
        self = .idToken(entity)
      case .appMetadata(var entity):
        entity.writtenForm = newValue
        self = .appMetadata(entity)
      }
    }
  }

  /// The token of a credential; nil for an Account or app metadata.
  public var secret: UnifiedSecret? {
    switch self {
    case .accessToken(let token): token.secret
    case .refreshToken(let token): token.secret
    case .idToken(let token): token.secret
    case .account, .appMetadata: nil
    }
  }

  /// Read from the case itself, as `additionalFields` is: through `entity`, each read boxed a copy.
  public var kind: UnifiedEntityKind {
    switch self {
    case .account: .account
    case .accessToken: .accessToken
    case .refreshToken: .refreshToken
    case .idToken: .idToken
    case .appMetadata: .appMetadata
    }
  }

  /// Read from the case itself (see `kind`).
  public var canonicalKey: String {
    switch self {
    case .account(let entity): entity.canonicalKey
    case .accessToken(let entity): entity.canonicalKey
    case .refreshToken(let entity): entity.canonicalKey
    case .idToken(let entity): entity.canonicalKey
    case .appMetadata(let entity): entity.canonicalKey
    }
  }
  public var environment: String { entity.environment }
  public var homeAccountID: String? { entity.owningHomeAccountID }
  public var clientID: String? { entity.owningClientID }
  public var description: String { entity.description }
}
