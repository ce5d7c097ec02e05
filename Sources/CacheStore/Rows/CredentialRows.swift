import GRDB
import UnifiedCache

/// The `credentials` table: access, refresh and id tokens, told apart by `credential_kind`.
extension RowCodec {
  static let credentialColumns = [
    "key", "credential_kind", "credential_type", "home_account_id", "home_account_id_normalized", "environment",
    "client_id", "realm", "target", "secret", "cached_at", "expires_on", "extended_expires_on", "refresh_on",
    "token_type", "key_id", "requested_claims", "user_assertion_hash", "family_id", "client_info",
    "last_modification_time", "last_modification_app", "additional_fields", "written_form",
  ]

  func arguments(for token: UnifiedAccessToken) throws(CacheStoreError) -> StatementArguments {
    let key = token.canonicalKey
    let values: [(any DatabaseValueConvertible)?] = [
      key, UnifiedEntityKind.accessToken.rawValue, token.credentialType, token.homeAccountID,
      Self.normalizedHomeAccountID(token.homeAccountID), token.environment, token.clientID, token.realm, token.target,
      try secretValue(token.secret, rowKey: key), Self.epoch(token.cachedAt), Self.epoch(token.expiresOn),
      Self.epoch(token.extendedExpiresOn), Self.epoch(token.refreshOn), token.tokenType, token.keyID,
      token.requestedClaims, token.userAssertionHash, nil, token.clientInfo, token.lastModificationTime,
      token.lastModificationApp, Self.jsonText(token.additionalFields), Self.writtenFormText(token.writtenForm),
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
      Self.jsonText(token.additionalFields), Self.writtenFormText(token.writtenForm),
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
      Self.writtenFormText(token.writtenForm),
    ]
    return StatementArguments(values)
  }

  /// The entity of a `credentials` row.
  func credential(from row: Row) throws(CacheStoreError) -> AnyUnifiedEntity {
    let fields = try RowFields(row, codec: self)
    let key = fields.key
    let kind = try fields.required("credential_kind")
    let secret = try secret(from: row, rowKey: key)
    let additional = try jsonObject(try fields.text("additional_fields"), rowKey: key)
    var entity = try credential(kind: kind, fields: fields, secret: secret, additional: additional)
    entity.writtenForm = try writtenForm(fields)
    return entity
  }

  private func credential(
    kind: String, fields: RowFields, secret: UnifiedSecret, additional: JSONObject
  ) throws(CacheStoreError) -> AnyUnifiedEntity {
    let key = fields.key
    switch UnifiedEntityKind(rawValue: kind) {
    case .accessToken:
      return .accessToken(
        UnifiedAccessToken(
          credentialType: try fields.text("credential_type") ?? "AccessToken",
          homeAccountID: try fields.required("home_account_id"),
          environment: try fields.required("environment"),
          clientID: try fields.required("client_id"),
          realm: try fields.text("realm") ?? "",
          target: try fields.text("target") ?? "", secret: secret, cachedAt: try fields.date("cached_at"),
          expiresOn: try fields.date("expires_on"), extendedExpiresOn: try fields.date("extended_expires_on"),
          refreshOn: try fields.date("refresh_on"), tokenType: try fields.text("token_type"),
          keyID: try fields.text("key_id"),
          requestedClaims: try fields.text("requested_claims"),
          userAssertionHash: try fields.text("user_assertion_hash"),
          clientInfo: try fields.text("client_info"), lastModificationTime: try fields.text("last_modification_time"),
          lastModificationApp: try fields.text("last_modification_app"), additionalFields: additional))
    case .refreshToken:
      return .refreshToken(
        UnifiedRefreshToken(
          homeAccountID: try fields.required("home_account_id"),
          environment: try fields.required("environment"),
          clientID: try fields.required("client_id"),
          secret: secret, familyID: try fields.text("family_id"), realm: try fields.text("realm"),
          target: try fields.text("target"),
          userAssertionHash: try fields.text("user_assertion_hash"), clientInfo: try fields.text("client_info"),
          lastModificationTime: try fields.text("last_modification_time"),
          lastModificationApp: try fields.text("last_modification_app"),
          additionalFields: additional))
    case .idToken:
      return .idToken(
        UnifiedIdToken(
          homeAccountID: try fields.required("home_account_id"),
          environment: try fields.required("environment"),
          clientID: try fields.required("client_id"),
          realm: try fields.text("realm") ?? "", secret: secret, clientInfo: try fields.text("client_info"),
          lastModificationTime: try fields.text("last_modification_time"),
          lastModificationApp: try fields.text("last_modification_app"),
          additionalFields: additional))
    default:
      throw corrupt("a credential of unknown kind", rowKey: key)
    }
  }
}
