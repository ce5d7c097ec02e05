/// A `RefreshToken` entity. With a non-blank `familyID` it is a family refresh token (FOCI), shared by every
/// app of the family and keyed by the family id; `clientID` still names the app that received it.
public struct UnifiedRefreshToken: UnifiedEntity, UnifiedCredential {
  // `secret` comes first so that the memberwise initializer, which the public one builds through, has other
  // labels (docs/benchmarks.md, "Counting calls").
  /// `secret`: the token.
  public var secret: UnifiedSecret
  public static let kind = UnifiedEntityKind.refreshToken

  /// `home_account_id`.
  public var homeAccountID: String
  /// `environment`.
  public var environment: String
  /// `client_id`: the application that received the token (also for a family token).
  public var clientID: String
  /// `family_id` (`"1"` for FOCI). Kept as written, so an empty string stays empty; see `isFamilyToken`.
  public var familyID: String?
  /// `realm`: optional on refresh tokens (some writers leave it out).
  public var realm: String?
  /// `target`: optional; MSAL Python writes the scopes here.
  public var target: String?
  /// `user_assertion_hash` for on-behalf-of tokens.
  public var userAssertionHash: String?
  /// `client_info`.
  public var clientInfo: String?
  /// `last_modification_time`, as written.
  public var lastModificationTime: String?
  /// `last_modification_app`.
  public var lastModificationApp: String?
  public var additionalFields: JSONObject
  /// The key and field names the entry had in its file (not part of its identity).
  public var writtenForm = WrittenForm()

  /// The family id when it is not blank: the token is a family refresh token.
  public var effectiveFamilyID: String? {
    guard let familyID, !familyID.allSatisfy(\.isWhitespace) else { return nil }
    return familyID
  }

  /// Whether this is a family refresh token (non-blank `family_id`).
  public var isFamilyToken: Bool { effectiveFamilyID != nil }

  public var canonicalKey: String { UnifiedCacheKey.refreshToken(self) }
  public var owningHomeAccountID: String? { homeAccountID }
  public var owningClientID: String? { clientID }
  public var description: String { "RefreshToken(\(canonicalKey), secret: \(secret.fingerprint))" }

  /// The optional fields after the secret, before `trailingFields`, in the order the cache writer, the reader, the
  /// report and the store's `credentials` row list them: the one declaration they share.
  package static let fields: [CredentialField<UnifiedRefreshToken>] = [
    CredentialField("family_id", .text(\.familyID)),
    CredentialField("realm", .text(\.realm)),
    CredentialField("target", .scopes(\.target)),
    CredentialField("user_assertion_hash", .text(\.userAssertionHash)),
  ]
  package static let allFields = fields + trailingFields
}

extension UnifiedRefreshToken {
  public init(
    homeAccountID: String, environment: String, clientID: String, secret: UnifiedSecret, familyID: String? = nil,
    realm: String? = nil, target: String? = nil, userAssertionHash: String? = nil, clientInfo: String? = nil,
    lastModificationTime: String? = nil, lastModificationApp: String? = nil,
    additionalFields: JSONObject = JSONObject()
  ) {
    self.init(
      secret: secret, homeAccountID: homeAccountID, environment: environment, clientID: clientID, familyID: familyID,
      realm: realm, target: target, userAssertionHash: userAssertionHash, clientInfo: clientInfo,
      lastModificationTime: lastModificationTime, lastModificationApp: lastModificationApp,
      additionalFields: additionalFields)
  }
}
