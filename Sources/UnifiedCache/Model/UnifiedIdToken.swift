/// An `IdToken` entity: the raw id token (a JWT) of one account in one tenant, for one app.
public struct UnifiedIdToken: UnifiedEntity, UnifiedCredential {
  // `secret` comes first so that the memberwise initializer, which the public one builds through, has other
  // labels (docs/benchmarks.md, "Counting calls").
  /// `secret`: the id token (JWT).
  public var secret: UnifiedSecret
  public static let kind = UnifiedEntityKind.idToken

  /// `home_account_id`.
  public var homeAccountID: String
  /// `environment`.
  public var environment: String
  /// `client_id`.
  public var clientID: String
  /// `realm`: the tenant; empty for ADFS in MSAL.NET.
  public var realm: String
  /// `client_info`.
  public var clientInfo: String?
  /// `last_modification_time`, as written.
  public var lastModificationTime: String?
  /// `last_modification_app`.
  public var lastModificationApp: String?
  public var additionalFields: JSONObject
  /// The key and field names the entry had in its file (not part of its identity).
  public var writtenForm = WrittenForm()

  public var canonicalKey: String { UnifiedCacheKey.idToken(self) }
  public var owningHomeAccountID: String? { homeAccountID }
  public var owningClientID: String? { clientID }
  public var description: String { "IdToken(\(canonicalKey), secret: \(secret.fingerprint))" }

  /// An id token has no optional fields of its own: its `trailingFields`.
  package static let allFields = trailingFields
}

extension UnifiedIdToken {
  public init(
    homeAccountID: String, environment: String, clientID: String, realm: String, secret: UnifiedSecret,
    clientInfo: String? = nil, lastModificationTime: String? = nil, lastModificationApp: String? = nil,
    additionalFields: JSONObject = JSONObject()
  ) {
    self.init(
      secret: secret, homeAccountID: homeAccountID, environment: environment, clientID: clientID, realm: realm,
      clientInfo: clientInfo, lastModificationTime: lastModificationTime, lastModificationApp: lastModificationApp,
      additionalFields: additionalFields)
  }
}
