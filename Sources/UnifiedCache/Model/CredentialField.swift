import Foundation

/// What every token (access, refresh and id token) has: the key fields, the secret and the trailing text fields.
package protocol UnifiedCredential: UnifiedEntity {
  /// `home_account_id`.
  var homeAccountID: String { get set }
  /// `client_id`.
  var clientID: String { get set }
  /// `secret`: the token.
  var secret: UnifiedSecret { get }
  /// `client_info`.
  var clientInfo: String? { get set }
  /// `last_modification_time`, as written.
  var lastModificationTime: String? { get set }
  /// `last_modification_app`.
  var lastModificationApp: String? { get set }
  var additionalFields: JSONObject { get set }
  var writtenForm: WrittenForm { get set }
  /// The token's own optional fields, then `trailingFields`: what the cache writer, the reader and the store's
  /// `credentials` row walk. Stored once per type: a key path made in a generic context is built anew each time.
  static var allFields: [CredentialField<Self>] { get }
}

/// One optional field of a token: its name in the cache, its column in the store (and name in the report), and
/// where the model keeps it, by what kind of value it holds. The cache writer, the reader, the report and the
/// store's `credentials` rows all walk the same declarations (`UnifiedAccessToken.fields`, ...).
package struct CredentialField<Credential: UnifiedCredential>: Sendable {
  /// What the field holds, which says how each stage reads and writes it.
  package enum Value: Sendable {
    /// A string.
    case text(WritableKeyPath<Credential, String?> & Sendable)
    /// Epoch seconds: an integer string in the cache, an integer in the store.
    case epochSeconds(WritableKeyPath<Credential, Date?> & Sendable)
    /// `target`: space-separated scopes (early MSAL Python wrote an array).
    case scopes(WritableKeyPath<Credential, String?> & Sendable)
  }

  /// The name in the cache JSON (the model's own when the MSAL libraries spell it differently).
  package let name: String
  /// The column in the store's `credentials` table and the name in the report: the cache name but for `kid`.
  package let column: String
  package let value: Value

  package init(_ name: String, column: String? = nil, _ value: Value) {
    self.name = name
    self.column = column ?? name
    self.value = value
  }
}

extension UnifiedCredential {
  /// The text fields every token ends with, in the order the writer, the reader and the store write them.
  package static var trailingFields: [CredentialField<Self>] {
    [
      CredentialField("client_info", .text(\.clientInfo)),
      CredentialField("last_modification_time", .text(\.lastModificationTime)),
      CredentialField("last_modification_app", .text(\.lastModificationApp)),
    ]
  }
}
