import Adal2MSALSupport
import Foundation
import UnifiedCache

/// An entity's fields as (JSON name, text) pairs in the unified-cache field order, for reports and diffs.
/// Secrets appear only as fingerprints; timestamps as epoch seconds, as the cache writes them.
enum EntityFields {
  struct Field: Sendable, Hashable {
    var name: String
    var value: String
  }

  static func of(_ entity: AnyUnifiedEntity) -> [Field] {
    var out: [Field] = []
    forEach(of: entity) { out.append(Field(name: $0, value: $1)) }
    return out
  }

  /// The fields as the report's (name, value) pairs, each value passed through `transform` with its field's name
  /// (the redactor's `field(_:_:)`).
  static func pairs(
    of entity: AnyUnifiedEntity, _ transform: (String, String) -> String
  ) -> [(name: String, value: String)] {
    var out: [(name: String, value: String)] = []
    out.reserveCapacity(16)  // the most fields an entity shows: one allocation, not five as the array grows
    forEach(of: entity) { out.append((name: $0, value: transform($0, $1))) }
    return out
  }

  /// Calls `body` with each present field in order: one walk for both shapes, without an intermediate array
  /// (a report of 100,000 entries builds 200,000 of them).
  static func forEach(of entity: AnyUnifiedEntity, _ body: (String, String) -> Void) {
    func add(_ name: String, _ value: String?) {
      if let value { body(name, value) }
    }
    func time(_ date: Date?) -> String? { date.map(epochSeconds) }
    // The fields every token starts with.
    func addKeyFields(of token: some UnifiedCredential) {
      add("home_account_id", token.homeAccountID)
      add("environment", token.environment)
      add("client_id", token.clientID)
    }
    // A token's declared fields, under their store names (`key_id`, not `kid`).
    func addFields<Credential>(_ declared: [CredentialField<Credential>], of token: Credential) {
      for field in declared {
        switch field.value {
        case .text(let keyPath), .scopes(let keyPath): add(field.column, token[keyPath: keyPath])
        case .epochSeconds(let keyPath): add(field.column, time(token[keyPath: keyPath]))
        }
      }
    }
    switch entity {
    case .account(let account):
      add("home_account_id", account.homeAccountID)
      add("environment", account.environment)
      add("realm", account.realm)
      for field in UnifiedAccount.textFields { add(field.name, account[keyPath: field.keyPath]) }
    case .accessToken(let token):
      add("credential_type", token.credentialType)
      addKeyFields(of: token)
      add("realm", token.realm)
      add("target", token.target)
      add("secret", token.secret.fingerprint)
      addFields(UnifiedAccessToken.fields, of: token)
      // The report leaves out the modification stamps of every token.
      add("client_info", token.clientInfo)
    case .refreshToken(let token):
      addKeyFields(of: token)
      add("secret", token.secret.fingerprint)
      addFields(UnifiedRefreshToken.fields, of: token)
      add("client_info", token.clientInfo)
    case .idToken(let token):
      addKeyFields(of: token)
      add("realm", token.realm)
      add("secret", token.secret.fingerprint)
      add("client_info", token.clientInfo)
    case .appMetadata(let metadata):
      add("client_id", metadata.clientID)
      add("environment", metadata.environment)
      add("family_id", metadata.familyID)
    }
    let extra = entity.additionalFields
    // Names only: values of fields this tool does not model are not known to be free of secrets.
    if !extra.isEmpty { add("additional_fields", extra.keys.joined(separator: ",")) }
  }

  /// The fields a report entry's summary shows (`EntrySummary`), by their names in `forEach`.
  enum SummaryField: Int, CaseIterable {
    case username, realm, environment, secret, target, authorityType, clientID, familyID, expiresOn

    /// The field's name in `forEach`.
    var name: String {
      switch self {
      case .username: "username"
      case .realm: "realm"
      case .environment: "environment"
      case .secret: "secret"
      case .target: "target"
      case .authorityType: "authority_type"
      case .clientID: "client_id"
      case .familyID: "family_id"
      case .expiresOn: "expires_on"
      }
    }
  }

  /// The values `forEach` gives the summary's fields (`SummaryValues`), made in one pass over the entity: the
  /// summary shows two to five fields of each entry, and making all of them (key paths, fingerprints, an
  /// array) was most of the text report's time per entry. Each value is passed through `transform` (the
  /// redactor); without one, the secret and the expiry are kept as numbers, written into the line as text.
  static func summaryValues(of entity: AnyUnifiedEntity, _ transform: ((String) -> String)?) -> SummaryValues {
    var values = SummaryValues()
    func set(_ field: SummaryField, _ value: String?) {
      if let value { values[field] = transform?(value) ?? value }
    }
    func setSecret(_ secret: UnifiedSecret) {
      if transform == nil { values.secretDigest = secret.digestPrefix } else { set(.secret, secret.fingerprint) }
    }
    func setExpiry(_ date: Date?) {
      guard let date else { return }
      if transform == nil {
        values.expirySeconds = epochSecondsValue(date)
      } else {
        set(.expiresOn, epochSeconds(date))
      }
    }
    switch entity {
    case .account(let account):
      set(.username, account.username)
      set(.realm, account.realm)
      set(.environment, account.environment)
      set(.authorityType, account.authorityType)
    case .accessToken(let token):
      set(.realm, token.realm)
      set(.environment, token.environment)
      setSecret(token.secret)
      set(.target, token.target)
      set(.clientID, token.clientID)
      setExpiry(token.expiresOn)
    case .refreshToken(let token):
      set(.realm, token.realm)
      set(.environment, token.environment)
      setSecret(token.secret)
      set(.target, token.target)
      set(.clientID, token.clientID)
      set(.familyID, token.familyID)
    case .idToken(let token):
      set(.realm, token.realm)
      set(.environment, token.environment)
      setSecret(token.secret)
      set(.clientID, token.clientID)
    case .appMetadata(let metadata):
      set(.environment, metadata.environment)
      set(.clientID, metadata.clientID)
      set(.familyID, metadata.familyID)
    }
    return values
  }

  /// Whole epoch seconds, as the unified cache writes timestamps.
  static func epochSeconds(_ date: Date) -> String { String(epochSecondsValue(date)) }

  /// `epochSeconds` as a number.
  static func epochSecondsValue(_ date: Date) -> Int64 {
    let seconds = date.timeIntervalSince1970.rounded(.down)
    guard seconds.isFinite, abs(seconds) < 9e15 else { return 0 }
    return Int64(seconds)
  }
}

extension EntityBox {
  // Methods, so that the entity is read in place: passed on from a reference held in a local (`box.value`), it
  // was copied (every field retained, then released) for each entry of a report.

  /// `EntityFields.forEach` of the boxed entity.
  func forEachField(_ body: (String, String) -> Void) { EntityFields.forEach(of: value, body) }

  /// `EntityFields.summaryValues` of the boxed entity.
  func summaryValues(_ transform: ((String) -> String)?) -> SummaryValues {
    EntityFields.summaryValues(of: value, transform)
  }
}

/// The values of the fields a report entry's summary shows, by `EntityFields.SummaryField`, in fixed slots
/// (an array of them per entry was an allocation, and its strings retained and released, per entry).
struct SummaryValues {
  private var username, realm, environment, secret, target, authorityType, clientID, familyID, expiresOn: String?
  /// The secret's `SecretFingerprint.digestPrefix`, when its fingerprint is shown as it is (not redacted): its
  /// text is written into the line, never made on its own.
  var secretDigest: UInt64?
  /// The expiry's epoch seconds, when shown as they are.
  var expirySeconds: Int64?

  /// The field's value as text (nil when the entity has none).
  subscript(_ field: EntityFields.SummaryField) -> String? {
    get {
      switch field {
      case .username: username
      case .realm: realm
      case .environment: environment
      case .secret: secret ?? secretDigest.map(SecretFingerprint.text(ofDigestPrefix:))
      case .target: target
      case .authorityType: authorityType
      case .clientID: clientID
      case .familyID: familyID
      case .expiresOn: expiresOn ?? expirySeconds.map { String($0) }
      }
    }
    set {
      switch field {
      case .username: username = newValue
      case .realm: realm = newValue
      case .environment: environment = newValue
      case .secret: secret = newValue
      case .target: target = newValue
      case .authorityType: authorityType = newValue
      case .clientID: clientID = newValue
      case .familyID: familyID = newValue
      case .expiresOn: expiresOn = newValue
      }
    }
  }

  /// Every field's value as text, in `SummaryField` order.
  var texts: [String?] { EntityFields.SummaryField.allCases.map { self[$0] } }
}
