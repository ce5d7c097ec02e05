import GRDB
import UnifiedCache

/// The `credentials` table: access, refresh and id tokens, told apart by `credential_kind`.
extension RowCodec {
  /// The columns: a token's key fields, then the fields the tokens declare (`UnifiedAccessToken.fields`, the
  /// refresh token's `family_id`, the trailing fields every token has), then what the store adds.
  static let credentialColumns =
    [
      "key", "credential_kind", "credential_type", "home_account_id", "home_account_id_normalized", "environment",
      "client_id", "realm", "target", "secret",
    ] + UnifiedAccessToken.fields.map(\.column) + ["family_id"] + UnifiedIdToken.trailingFields.map(\.column) + [
      "additional_fields", "written_form",
    ]

  /// Where each of a kind's `allFields` goes among the columns, found once: a row is written without looking
  /// its columns up by name.
  private static let accessTokenPositions = CredentialRowValues.positions(of: UnifiedAccessToken.allFields)
  private static let refreshTokenPositions = CredentialRowValues.positions(of: UnifiedRefreshToken.allFields)
  private static let idTokenPositions = CredentialRowValues.positions(of: UnifiedIdToken.allFields)

  func arguments(for token: UnifiedAccessToken) throws(CacheStoreError) -> StatementArguments {
    var row = try CredentialRowValues(token, Self.accessTokenPositions, codec: self)
    row["credential_type"] = token.credentialType
    row["realm"] = token.realm
    row["target"] = token.target
    return StatementArguments(row.values)
  }

  func arguments(for token: UnifiedRefreshToken) throws(CacheStoreError) -> StatementArguments {
    StatementArguments(try CredentialRowValues(token, Self.refreshTokenPositions, codec: self).values)
  }

  func arguments(for token: UnifiedIdToken) throws(CacheStoreError) -> StatementArguments {
    var row = try CredentialRowValues(token, Self.idTokenPositions, codec: self)
    row["realm"] = token.realm
    return StatementArguments(row.values)
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
      let token = UnifiedAccessToken(
        credentialType: try fields.text("credential_type") ?? "AccessToken",
        homeAccountID: try fields.required("home_account_id"),
        environment: try fields.required("environment"),
        clientID: try fields.required("client_id"),
        realm: try fields.text("realm") ?? "",
        target: try fields.text("target") ?? "", secret: secret, additionalFields: additional)
      return .accessToken(try read(into: token, from: fields))
    case .refreshToken:
      let token = UnifiedRefreshToken(
        homeAccountID: try fields.required("home_account_id"),
        environment: try fields.required("environment"),
        clientID: try fields.required("client_id"),
        secret: secret, additionalFields: additional)
      return .refreshToken(try read(into: token, from: fields))
    case .idToken:
      let token = UnifiedIdToken(
        homeAccountID: try fields.required("home_account_id"),
        environment: try fields.required("environment"),
        clientID: try fields.required("client_id"),
        realm: try fields.text("realm") ?? "", secret: secret, additionalFields: additional)
      return .idToken(try read(into: token, from: fields))
    default:
      throw corrupt("a credential of unknown kind", rowKey: key)
    }
  }

  /// `token` with its optional fields (`allFields`) read from their columns.
  private func read<Credential: UnifiedCredential>(
    into token: Credential, from fields: RowFields
  ) throws(CacheStoreError) -> Credential {
    var token = token
    for field in Credential.allFields {
      switch field.value {
      case .text(let keyPath), .scopes(let keyPath): token[keyPath: keyPath] = try fields.text(field.column)
      case .epochSeconds(let keyPath): token[keyPath: keyPath] = try fields.date(field.column)
      }
    }
    return token
  }
}

/// One `credentials` row's values in column order, set by column name: the columns every token fills, its
/// optional fields (`allFields`); the caller sets the columns only its kind has.
private struct CredentialRowValues {
  static let index = Dictionary(
    uniqueKeysWithValues: RowCodec.credentialColumns.enumerated().map { ($0.element, $0.offset) })

  private(set) var values = [(any DatabaseValueConvertible)?](repeating: nil, count: RowCodec.credentialColumns.count)

  init<Credential: UnifiedCredential>(
    _ token: Credential, _ positions: [Int], codec: RowCodec
  ) throws(CacheStoreError) {
    let key = token.canonicalKey
    self["key"] = key
    self["credential_kind"] = Credential.kind.rawValue
    self["home_account_id"] = token.homeAccountID
    self["home_account_id_normalized"] = RowCodec.normalizedHomeAccountID(token.homeAccountID)
    self["environment"] = token.environment
    self["client_id"] = token.clientID
    self["secret"] = try codec.secretValue(token.secret, rowKey: key)
    for (field, position) in zip(Credential.allFields, positions) {
      switch field.value {
      case .text(let keyPath), .scopes(let keyPath): values[position] = token[keyPath: keyPath]
      case .epochSeconds(let keyPath): values[position] = RowCodec.epoch(token[keyPath: keyPath])
      }
    }
    self["additional_fields"] = RowCodec.jsonText(token.additionalFields)
    self["written_form"] = RowCodec.writtenFormText(token.writtenForm)
  }

  /// The position of each field's column, in the order of `fields`.
  static func positions<Credential>(of fields: [CredentialField<Credential>]) -> [Int] {
    fields.map { field in
      guard let position = index[field.column] else { preconditionFailure("no credentials column \(field.column)") }
      return position
    }
  }

  subscript(column: String) -> (any DatabaseValueConvertible)? {
    get { Self.index[column].flatMap { values[$0] } }
    set {
      guard let position = Self.index[column] else { preconditionFailure("no credentials column \(column)") }
      values[position] = newValue
    }
  }
}
