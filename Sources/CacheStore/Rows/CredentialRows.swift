import Foundation
import GRDB
import UnifiedCache

/// The `credentials` table: access, refresh and id tokens, told apart by `credential_kind`.
extension RowCodec {
  /// The columns: a token's key fields, then the fields the tokens declare (`UnifiedAccessToken.fields`, the
  /// refresh token's `family_id`, the trailing fields every token has), then what the store adds (the hashes
  /// its indexes are on, `KeyHash`).
  static let credentialColumns =
    [
      "key", "credential_kind", "credential_type", "home_account_id", "environment", "client_id", "realm", "target",
      "secret",
    ] + UnifiedAccessToken.fields.map(\.column) + ["family_id"] + UnifiedIdToken.trailingFields.map(\.column) + [
      "additional_fields", "written_form", "key_hash", "home_account_hash",
    ]

  /// Where each of a kind's `allFields` goes among the parameters of an insert of `credentialColumns` and where
  /// the token keeps it, found once: a row is written without looking its columns up by name.
  private static let accessTokenFields = FieldBinding.of(
    UnifiedAccessToken.allFields, trailing: [\.clientInfo, \.lastModificationTime, \.lastModificationApp])
  private static let refreshTokenFields = FieldBinding.of(
    UnifiedRefreshToken.allFields, trailing: [\.clientInfo, \.lastModificationTime, \.lastModificationApp])
  private static let idTokenFields = FieldBinding.of(
    UnifiedIdToken.allFields, trailing: [\.clientInfo, \.lastModificationTime, \.lastModificationApp])

  /// Records the row of `token` (canonical key `key`, with its hash) for an insert of `credentialColumns`. The
  /// `key` column is left NULL: the key is the one the row's fields give.
  func bind(_ token: UnifiedAccessToken, key: HashedKey, to row: RecordedRows) throws(CacheStoreError) {
    // An ATExt token's key names a digest of its `ext`, an additional field: not the key that seals them
    // (`fieldsKey(of:)`).
    let fieldsKey =
      sealing == nil || token.additionalFields.isEmpty ? key.text : Self.fieldsKey(of: .accessToken(token))
    try bindCommon(token, key: key, fieldsKey: fieldsKey, Self.accessTokenFields, to: row)
    row.bind(CredentialParameter.credentialType, token.credentialType)
    row.bind(CredentialParameter.realm, token.realm)
    row.bind(CredentialParameter.target, token.target)
  }

  func bind(_ token: UnifiedRefreshToken, key: HashedKey, to row: RecordedRows) throws(CacheStoreError) {
    try bindCommon(token, key: key, fieldsKey: key.text, Self.refreshTokenFields, to: row)
  }

  func bind(_ token: UnifiedIdToken, key: HashedKey, to row: RecordedRows) throws(CacheStoreError) {
    try bindCommon(token, key: key, fieldsKey: key.text, Self.idTokenFields, to: row)
    row.bind(CredentialParameter.realm, token.realm)
  }

  /// The columns every token fills and its optional fields (`allFields`); every other column stays NULL (a
  /// parameter that is not bound is NULL, `RecordedRows`). `fieldsKey` seals `additional_fields` and
  /// `written_form` (`fieldsKey(of:)`).
  private func bindCommon<Credential: UnifiedCredential>(
    _ token: Credential, key: HashedKey, fieldsKey: String, _ fields: [FieldBinding<Credential>],
    to row: RecordedRows
  ) throws(CacheStoreError) {
    typealias Parameter = CredentialParameter
    row.bind(Parameter.kind, Credential.kind.rawValue)
    row.bind(Parameter.homeAccountID, token.homeAccountID)
    row.bind(Parameter.environment, token.environment)
    row.bind(Parameter.clientID, token.clientID)
    row.bind(Parameter.secret, try secretValue(token.secret, rowKey: key.text))
    fields.bind(token, to: row)
    try bindField(
      Self.jsonText(token.additionalFields), column: "additional_fields", rowKey: fieldsKey,
      parameter: Parameter.additionalFields, to: row)
    try bindField(
      Self.writtenFormText(token.writtenForm), column: "written_form", rowKey: fieldsKey,
      parameter: Parameter.writtenForm, to: row)
    row.bind(Parameter.keyHash, key.hash)
    row.bind(Parameter.homeAccountHash, KeyHash.ofLowercased(token.homeAccountID))
  }

  /// The entity of a `credentials` row.
  func credential(from row: Row) throws(CacheStoreError) -> AnyUnifiedEntity {
    let fields = try RowFields(row, codec: self)
    let kind = try fields.required("credential_kind")
    let (additional, fieldsKey) = try additionalFields(kind: kind, fields: fields)
    // A sealed secret is bound to its row's key; a row that stores no key is sealed under the key its fields
    // give.
    var sealedKey = fields.key
    if sealing != nil, fields.storedKey == nil {
      sealedKey = additional.isEmpty ? fieldsKey : try canonicalKey(kind: kind, fields: fields, additional: additional)
    }
    let secret = try secret(from: row, rowKey: sealedKey)
    var entity = try credential(kind: kind, fields: fields, secret: secret, additional: additional)
    entity.writtenForm = try writtenForm(fields, sealedUnder: fieldsKey)
    return entity
  }

  /// A credential row's `additional_fields`, and the key that seals them and `written_form` (`fieldsKey(of:)`):
  /// the row's stored key, else the canonical key of its other fields; without a key, `fields.key`.
  private func additionalFields(
    kind: String, fields: RowFields
  ) throws(CacheStoreError) -> (JSONObject, fieldsKey: String) {
    var fieldsKey = fields.key
    if sealing != nil, fields.storedKey == nil {
      fieldsKey = try canonicalKey(kind: kind, fields: fields, additional: JSONObject())
    }
    let additional = try jsonObject(try fields.field("additional_fields", sealedUnder: fieldsKey), rowKey: fieldsKey)
    return (additional, fieldsKey)
  }

  /// The canonical key of a `credentials` row as its fields give it, the secret left unread; nil when the row
  /// cannot be read.
  func derivedCredentialKey(from row: Row) -> String? {
    guard let fields = try? RowFields(row, codec: self), let kind = try? fields.required("credential_kind"),
      let (additional, _) = try? additionalFields(kind: kind, fields: fields)
    else { return nil }
    return try? canonicalKey(kind: kind, fields: fields, additional: additional)
  }

  /// The canonical key of a credential row's fields: the token built without its secret.
  private func canonicalKey(kind: String, fields: RowFields, additional: JSONObject) throws(CacheStoreError) -> String {
    try credential(kind: kind, fields: fields, secret: UnifiedSecret(""), additional: additional).canonicalKey
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

/// The parameter index (1-based, as sqlite3_bind_* counts) of each `credentials` column in an insert of
/// `RowCodec.credentialColumns`.
private enum CredentialParameter {
  static let index = Dictionary(
    uniqueKeysWithValues: RowCodec.credentialColumns.enumerated().map { ($0.element, Int32($0.offset + 1)) })

  static let key = of("key")
  static let kind = of("credential_kind")
  static let credentialType = of("credential_type")
  static let homeAccountID = of("home_account_id")
  static let environment = of("environment")
  static let clientID = of("client_id")
  static let realm = of("realm")
  static let target = of("target")
  static let secret = of("secret")
  static let additionalFields = of("additional_fields")
  static let writtenForm = of("written_form")
  static let keyHash = of("key_hash")
  static let homeAccountHash = of("home_account_hash")

  static func of(_ column: String) -> Int32 {
    guard let position = index[column] else { preconditionFailure("no credentials column \(column)") }
    return position
  }
}

extension FieldBinding where Root: UnifiedCredential {
  /// The bindings of a token kind's `allFields` to an insert of `credentialColumns`, in their order.
  ///
  /// `trailing` is the token type's own key paths of `clientInfo`, `lastModificationTime` and
  /// `lastModificationApp`, in that order. `UnifiedCredential.trailingFields` declares those fields once for every
  /// token, through the protocol's properties, whose key paths have no offset; each is bound through the type's
  /// own property instead, which has one.
  static func of(_ fields: [CredentialField<Root>], trailing: [KeyPath<Root, String?> & Sendable]) -> [FieldBinding] {
    let declared: [KeyPath<Root, String?>] = [\.clientInfo, \.lastModificationTime, \.lastModificationApp]
    precondition(trailing.count == declared.count, "one key path for each trailing field")
    return fields.map { field in
      let parameter = CredentialParameter.of(field.column)
      switch field.value {
      case .text(let keyPath), .scopes(let keyPath):
        return .text(declared.firstIndex(of: keyPath).map { trailing[$0] } ?? keyPath, parameter: parameter)
      case .epochSeconds(let keyPath):
        return .date(keyPath, parameter: parameter)
      }
    }
  }
}
