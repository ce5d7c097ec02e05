import Adal2MSALSupport
import Foundation
import UnifiedCache

/// Field-wise comparison and merge of an incoming entity with the existing one under the same key.
///
/// The incoming side sets only what it knows; a field it leaves nil (or an unknown field) keeps the existing
/// value. So an existing entry that already holds everything the input says is `unchanged`, and an update
/// never drops what another writer stored (`client_info`, unknown fields).
enum EntityMerge {
  /// `incoming` laid over `existing`: every field `incoming` sets wins, the rest is kept.
  static func merged(_ incoming: AnyUnifiedEntity, over existing: AnyUnifiedEntity) -> AnyUnifiedEntity {
    switch (incoming, existing) {
    case (.account(let new), .account(let old)): .account(merge(new, old))
    case (.accessToken(let new), .accessToken(let old)): .accessToken(merge(new, old))
    case (.refreshToken(let new), .refreshToken(let old)): .refreshToken(merge(new, old))
    case (.idToken(let new), .idToken(let old)): .idToken(merge(new, old))
    case (.appMetadata(let new), .appMetadata(let old)): .appMetadata(merge(new, old))
    default: incoming
    }
  }

  /// How an incoming entity relates to the existing one under the same key.
  enum Comparison: Equatable {
    /// The existing entry already holds everything the incoming one says.
    case same
    /// The incoming entity only adds fields the existing entry lacks (named).
    case adds([String])
    /// Both set these fields, to different values.
    case contradicts([String])
  }

  static func compare(_ incoming: AnyUnifiedEntity, with existing: AnyUnifiedEntity) -> Comparison {
    let merged = merged(incoming, over: existing)
    if merged == existing { return .same }
    let new = EntityFields.of(incoming)
    let old = EntityFields.of(existing)
    var contradicting: [String] = []
    var adding: [String] = []
    for field in new {
      guard let current = old.first(where: { $0.name == field.name }) else {
        adding.append(field.name)
        continue
      }
      let same =
        field.name == "username"
        ? sameUsername(field.value, current.value)
        : keyFields.contains(field.name)
          ? field.value.lowercased() == current.value.lowercased() : field.value == current.value
      if !same { contradicting.append(field.name) }
    }
    // Secrets are compared by value, not by their (short) fingerprints.
    if secret(of: incoming) != secret(of: existing), !contradicting.contains("secret") {
      contradicting.append("secret")
    }
    if contradicting.isEmpty, adding.isEmpty { adding.append("additional_fields") }
    return contradicting.isEmpty ? .adds(adding.sorted()) : .contradicts(contradicting.sorted())
  }

  /// Fields that are components of the (lowercased) cache key: under one key they can differ only in case, and
  /// a case difference is not a disagreement (ADAL archives keep the app's client id as the app wrote it, MSAL
  /// writers as the app configured it). The existing spelling is kept.
  static let keyFields: Set<String> = ["home_account_id", "environment", "client_id", "realm"]

  /// `new`, unless it equals `old` but for case: then `old`, so merging never rewrites an identifier's case.
  private static func keepingCase(_ new: String, _ old: String) -> String {
    // Equal spellings, the common case, need no lowercased copies.
    new == old || new.lowercased() == old.lowercased() ? old : new
  }

  /// `new`, unless it is `old`'s instant within a millisecond: then `old`. A time read with microseconds (ADAL
  /// Python's `expiresOn`) comes back from the store a few hundred nanoseconds off for some values (a `Double` of
  /// seconds since 1970 beside `Date`'s since 2001), and MSAL keeps whole seconds: not a change of the entity.
  private static func keepingTime(_ new: Date?, _ old: Date?) -> Date? {
    guard let new, let old else { return new ?? old }
    return abs(new.timeIntervalSince(old)) < 0.001 ? old : new
  }

  private static func keepingCase(_ new: String?, _ old: String?) -> String? {
    guard let new, let old else { return new ?? old }
    return keepingCase(new, old)
  }

  /// Usernames match as `accountForUsername` matches them: trimmed, case-insensitive.
  static func sameUsername(_ lhs: String?, _ rhs: String?) -> Bool {
    func normal(_ name: String?) -> String? { name?.trimmedWhitespaceAndNewlines().lowercased() }
    return normal(lhs) == normal(rhs)
  }

  private static func secret(of entity: AnyUnifiedEntity) -> String? {
    switch entity {
    case .accessToken(let token): token.secret.value
    case .refreshToken(let token): token.secret.value
    case .idToken(let token): token.secret.value
    case .account, .appMetadata: nil
    }
  }

  private static func fields(_ new: JSONObject, _ old: JSONObject) -> JSONObject {
    var out = old
    for member in new { out[member.key] = member.value }
    return out
  }

  private static func merge(_ new: UnifiedAccount, _ old: UnifiedAccount) -> UnifiedAccount {
    var out = old
    out.homeAccountID = keepingCase(new.homeAccountID, old.homeAccountID)
    out.environment = keepingCase(new.environment, old.environment)
    out.realm = keepingCase(new.realm, old.realm)
    out.localAccountID = new.localAccountID ?? old.localAccountID
    out.username = sameUsername(new.username, old.username) ? old.username : (new.username ?? old.username)
    out.authorityType = new.authorityType ?? old.authorityType
    out.name = new.name ?? old.name
    out.givenName = new.givenName ?? old.givenName
    out.familyName = new.familyName ?? old.familyName
    out.middleName = new.middleName ?? old.middleName
    out.alternativeAccountID = new.alternativeAccountID ?? old.alternativeAccountID
    out.clientInfo = new.clientInfo ?? old.clientInfo
    out.accountSource = new.accountSource ?? old.accountSource
    out.lastModificationTime = new.lastModificationTime ?? old.lastModificationTime
    out.lastModificationApp = new.lastModificationApp ?? old.lastModificationApp
    out.additionalFields = fields(new.additionalFields, old.additionalFields)
    return out
  }

  private static func merge(_ new: UnifiedAccessToken, _ old: UnifiedAccessToken) -> UnifiedAccessToken {
    var out = new
    out.homeAccountID = keepingCase(new.homeAccountID, old.homeAccountID)
    out.environment = keepingCase(new.environment, old.environment)
    out.clientID = keepingCase(new.clientID, old.clientID)
    out.realm = keepingCase(new.realm, old.realm)
    // One token is cached once: the time the target holds for it stands (an ADAL item before 2.7 archives none,
    // and its mapping takes the clock's).
    out.cachedAt = (new.secret == old.secret ? old.cachedAt : nil) ?? keepingTime(new.cachedAt, old.cachedAt)
    out.expiresOn = keepingTime(new.expiresOn, old.expiresOn)
    out.extendedExpiresOn = keepingTime(new.extendedExpiresOn, old.extendedExpiresOn)
    out.refreshOn = keepingTime(new.refreshOn, old.refreshOn)
    out.tokenType = new.tokenType ?? old.tokenType
    out.keyID = new.keyID ?? old.keyID
    out.requestedClaims = new.requestedClaims ?? old.requestedClaims
    out.userAssertionHash = new.userAssertionHash ?? old.userAssertionHash
    out.clientInfo = new.clientInfo ?? old.clientInfo
    out.lastModificationTime = new.lastModificationTime ?? old.lastModificationTime
    out.lastModificationApp = new.lastModificationApp ?? old.lastModificationApp
    out.additionalFields = fields(new.additionalFields, old.additionalFields)
    return out
  }

  private static func merge(_ new: UnifiedRefreshToken, _ old: UnifiedRefreshToken) -> UnifiedRefreshToken {
    var out = new
    out.homeAccountID = keepingCase(new.homeAccountID, old.homeAccountID)
    out.environment = keepingCase(new.environment, old.environment)
    out.clientID = keepingCase(new.clientID, old.clientID)
    out.familyID = new.familyID ?? old.familyID
    out.realm = keepingCase(new.realm, old.realm)
    out.target = new.target ?? old.target
    out.userAssertionHash = new.userAssertionHash ?? old.userAssertionHash
    out.clientInfo = new.clientInfo ?? old.clientInfo
    out.lastModificationTime = new.lastModificationTime ?? old.lastModificationTime
    out.lastModificationApp = new.lastModificationApp ?? old.lastModificationApp
    out.additionalFields = fields(new.additionalFields, old.additionalFields)
    return out
  }

  private static func merge(_ new: UnifiedIdToken, _ old: UnifiedIdToken) -> UnifiedIdToken {
    var out = new
    out.homeAccountID = keepingCase(new.homeAccountID, old.homeAccountID)
    out.environment = keepingCase(new.environment, old.environment)
    out.clientID = keepingCase(new.clientID, old.clientID)
    out.realm = keepingCase(new.realm, old.realm)
    out.clientInfo = new.clientInfo ?? old.clientInfo
    out.lastModificationTime = new.lastModificationTime ?? old.lastModificationTime
    out.lastModificationApp = new.lastModificationApp ?? old.lastModificationApp
    out.additionalFields = fields(new.additionalFields, old.additionalFields)
    return out
  }

  private static func merge(_ new: UnifiedAppMetadata, _ old: UnifiedAppMetadata) -> UnifiedAppMetadata {
    var out = new
    out.environment = keepingCase(new.environment, old.environment)
    out.clientID = keepingCase(new.clientID, old.clientID)
    out.familyID = new.familyID ?? old.familyID
    out.additionalFields = fields(new.additionalFields, old.additionalFields)
    return out
  }
}
