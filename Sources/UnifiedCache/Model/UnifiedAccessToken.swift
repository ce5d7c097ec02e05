import Foundation

/// An `AccessToken` entity: a token for some scopes (`target`) of one tenant, Bearer or proof-of-possession.
public struct UnifiedAccessToken: UnifiedEntity, UnifiedCredential {
  // `secret` comes first so that the memberwise initializer, which the public one builds through, has other
  // labels (docs/benchmarks.md, "Counting calls").
  /// `secret`: the token.
  public var secret: UnifiedSecret
  public static let kind = UnifiedEntityKind.accessToken

  /// `credential_type` as written: `AccessToken`, `AccessToken_With_AuthScheme` (msal-common/ObjC PoP) or
  /// `ATExt` (.NET, extra key components in `ext`).
  public var credentialType: String
  /// `home_account_id`; empty for app-only (client-credential) tokens.
  public var homeAccountID: String
  /// `environment`: the host the token was cached under.
  public var environment: String
  /// `client_id`: the application the token was issued to.
  public var clientID: String
  /// `realm`: the tenant; empty for ADFS in MSAL.NET.
  public var realm: String
  /// `target`: the scopes as written (space separated; case kept). An array `target` is joined with spaces.
  public var target: String
  /// `cached_at` (epoch seconds).
  public var cachedAt: Date?
  /// `expires_on` (epoch seconds).
  public var expiresOn: Date?
  /// `extended_expires_on` (epoch seconds; also read from the legacy `ext_expires_on`).
  public var extendedExpiresOn: Date?
  /// `refresh_on` (epoch seconds).
  public var refreshOn: Date?
  /// `token_type` (`Bearer`, `pop`, ...); nil means Bearer.
  public var tokenType: String?
  /// The PoP key id (`kid`, also read from `key_id`, `keyid`, `keyId`).
  public var keyID: String?
  /// `requested_claims` (also read from `requestedClaims`).
  public var requestedClaims: String?
  /// `user_assertion_hash` for on-behalf-of tokens (also read from `userAssertionHash`).
  public var userAssertionHash: String?
  /// `client_info` (.NET writes it on every credential).
  public var clientInfo: String?
  /// `last_modification_time`, as written.
  public var lastModificationTime: String?
  /// `last_modification_app`.
  public var lastModificationApp: String?
  public var additionalFields: JSONObject
  /// The key and field names the entry had in its file (not part of its identity).
  public var writtenForm = WrittenForm()

  /// The scopes, normalized as in the key: split on whitespace, lowercased, sorted, deduplicated.
  public var normalizedScopes: [String] { UnifiedCacheKey.normalizedScopes(target) }

  /// Whether this is a Bearer token (no `token_type`, or `Bearer` in any case).
  public var isBearer: Bool {
    guard let tokenType, !tokenType.isEmpty else { return credentialType != "AccessToken_With_AuthScheme" }
    return tokenType.lowercased() == "bearer"
  }

  /// Whether the token has an `expires_on` the MSAL libraries read: the modelled one, or an integer kept as
  /// written because it is beyond the model's range (MSAL Java's test cache holds `"9999999999999"`). MSAL
  /// Python, Java and Node cannot load an access token without one, and MSAL ObjC would serve it as never expiring
  /// (`MSALLibrary.requiresAccessTokenExpiry`).
  public var hasReadableExpiry: Bool {
    if expiresOn != nil { return true }
    let kept: String? =
      switch additionalFields["expires_on"] {
      case .string(let text), .number(let text): text
      default: nil
      }
    guard let kept else { return false }
    let digits = kept.utf8.first == UInt8(ascii: "-") ? kept.utf8.dropFirst() : kept.utf8[...]
    return !digits.isEmpty && digits.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
  }

  public var canonicalKey: String { UnifiedCacheKey.accessToken(self) }
  public var owningHomeAccountID: String? { homeAccountID }
  public var owningClientID: String? { clientID }
  public var description: String { "AccessToken(\(canonicalKey), secret: \(secret.fingerprint))" }

  /// The optional fields after `realm` and `target`, before `trailingFields`, in the order the cache writer, the
  /// reader, the report and the store's `credentials` row list them: the one declaration they share.
  package static let fields: [CredentialField<UnifiedAccessToken>] = [
    CredentialField("cached_at", .epochSeconds(\.cachedAt)),
    CredentialField("expires_on", .epochSeconds(\.expiresOn)),
    CredentialField("extended_expires_on", .epochSeconds(\.extendedExpiresOn)),
    CredentialField("refresh_on", .epochSeconds(\.refreshOn)),
    CredentialField("token_type", .text(\.tokenType)),
    CredentialField("kid", column: "key_id", .text(\.keyID)),
    CredentialField("requested_claims", .text(\.requestedClaims)),
    CredentialField("user_assertion_hash", .text(\.userAssertionHash)),
  ]
  package static let allFields = fields + trailingFields
}

extension UnifiedAccessToken {
  public init(
    credentialType: String = "AccessToken", homeAccountID: String, environment: String, clientID: String,
    realm: String, target: String, secret: UnifiedSecret, cachedAt: Date? = nil, expiresOn: Date? = nil,
    extendedExpiresOn: Date? = nil, refreshOn: Date? = nil, tokenType: String? = nil, keyID: String? = nil,
    requestedClaims: String? = nil, userAssertionHash: String? = nil, clientInfo: String? = nil,
    lastModificationTime: String? = nil, lastModificationApp: String? = nil,
    additionalFields: JSONObject = JSONObject()
  ) {
    self.init(
      secret: secret, credentialType: credentialType, homeAccountID: homeAccountID, environment: environment,
      clientID: clientID, realm: realm, target: target, cachedAt: cachedAt, expiresOn: expiresOn,
      extendedExpiresOn: extendedExpiresOn, refreshOn: refreshOn, tokenType: tokenType, keyID: keyID,
      requestedClaims: requestedClaims, userAssertionHash: userAssertionHash, clientInfo: clientInfo,
      lastModificationTime: lastModificationTime, lastModificationApp: lastModificationApp,
      additionalFields: additionalFields)
  }
}
