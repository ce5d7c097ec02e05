import GRDB
import UnifiedCache

/// The `credentials` table: access, refresh and id tokens, told apart by `credential_kind`.
extension RowCodec {
  static let credentialColumns = [
    "key", "credential_kind", "credential_type", "home_account_id", "home_account_id_normalized", "environment",
    "client_id", "realm", "target", "secret", "cached_at", "expires_on", "extended_expires_on", "refresh_on",
    "token_type", "key_id", "requested_claims", "user_assertion_hash", "family_id", "client_info",
    "last_modification_time", "last_modification_app", "additional_fields",
  ]

  func arguments(for token: UnifiedAccessToken) throws(CacheStoreError) -> StatementArguments {
    let key = token.canonicalKey
    let values: [(any DatabaseValueConvertible)?] = [
      key, UnifiedEntityKind.accessToken.rawValue, token.credentialType, token.homeAccountID,
      Self.normalizedHomeAccountID(token.homeAccountID), token.environment, token.clientID, token.realm, token.target,
      try secretValue(token.secret, rowKey: key), Self.epoch(token.cachedAt), Self.epoch(token.expiresOn),
      Self.epoch(token.extendedExpiresOn), Self.epoch(token.refreshOn), token.tokenType, token.keyID,
      token.requestedClaims, token.userAssertionHash, nil, token.clientInfo, token.lastModificationTime,
      token.lastModificationApp, Self.jsonText(token.additionalFields),
    ]
    return StatementArguments(values)
  }

  func arguments(for token: UnifiedRefreshToken) throws(CacheStoreError) -> StatementArguments {
    let key = token.canonicalKey
    let values: [(any DatabaseValueConvertible)?] = [
      key, UnifiedEntityKind.refreshToken.rawValue, nil, token.homeAccountID,
      Self.normalizedHomeAccountID(token.homeAccountID), token.environment, token.clientID, token.realm, token.target,
      try secretValue(token.secret, rowKey: key), nil, nil, nil, nil, nil, nil, nil, token.userAssertionHash,
      token.familyID, token.clientInfo, token.lastModificationTime, token.lastModificationApp,
      Self.jsonText(token.additionalFields),
    ]
    return StatementArguments(values)
  }

  func arguments(for token: UnifiedIdToken) throws(CacheStoreError) -> StatementArguments {
    let key = token.canonicalKey
    let values: [(any DatabaseValueConvertible)?] = [
      key, UnifiedEntityKind.idToken.rawValue, nil, token.homeAccountID,
      Self.normalizedHomeAccountID(token.homeAccountID), token.environment, token.clientID, token.realm, nil,
      try secretValue(token.secret, rowKey: key), nil, nil, nil, nil, nil, nil, nil, nil, nil, token.clientInfo,
      token.lastModificationTime, token.lastModificationApp, Self.jsonText(token.additionalFields),
    ]
    return StatementArguments(values)
  }

  /// The entity of a `credentials` row.
  func credential(from row: Row) throws(CacheStoreError) -> AnyUnifiedEntity {
    let key: String = row["key"]
    let kind: String = row["credential_kind"]
    let secret = try secret(from: row, rowKey: key)
    let additional = try jsonObject(row["additional_fields"], rowKey: key)
    switch UnifiedEntityKind(rawValue: kind) {
    case .accessToken:
      return .accessToken(
        UnifiedAccessToken(
          credentialType: row["credential_type"] ?? "AccessToken", homeAccountID: row["home_account_id"],
          environment: row["environment"], clientID: row["client_id"], realm: row["realm"] ?? "",
          target: row["target"] ?? "", secret: secret, cachedAt: Self.date(row, "cached_at"),
          expiresOn: Self.date(row, "expires_on"), extendedExpiresOn: Self.date(row, "extended_expires_on"),
          refreshOn: Self.date(row, "refresh_on"), tokenType: row["token_type"], keyID: row["key_id"],
          requestedClaims: row["requested_claims"], userAssertionHash: row["user_assertion_hash"],
          clientInfo: row["client_info"], lastModificationTime: row["last_modification_time"],
          lastModificationApp: row["last_modification_app"], additionalFields: additional))
    case .refreshToken:
      return .refreshToken(
        UnifiedRefreshToken(
          homeAccountID: row["home_account_id"], environment: row["environment"], clientID: row["client_id"],
          secret: secret, familyID: row["family_id"], realm: row["realm"], target: row["target"],
          userAssertionHash: row["user_assertion_hash"], clientInfo: row["client_info"],
          lastModificationTime: row["last_modification_time"], lastModificationApp: row["last_modification_app"],
          additionalFields: additional))
    case .idToken:
      return .idToken(
        UnifiedIdToken(
          homeAccountID: row["home_account_id"], environment: row["environment"], clientID: row["client_id"],
          realm: row["realm"] ?? "", secret: secret, clientInfo: row["client_info"],
          lastModificationTime: row["last_modification_time"], lastModificationApp: row["last_modification_app"],
          additionalFields: additional))
    default:
      throw corrupt("a credential of unknown kind", rowKey: key)
    }
  }
}
