import Foundation

/// The JSON object of one entity, as the writer puts it in the cache: modelled fields under their canonical
/// names (timestamps as integer strings, absent values left out), then the unknown fields in their original
/// order. The store uses it to keep each entity's JSON.
public enum UnifiedEntityJSON {
  public static func object(for entity: AnyUnifiedEntity) -> JSONObject {
    switch entity {
    case .account(let value): object(for: value)
    case .accessToken(let value): object(for: value)
    case .refreshToken(let value): object(for: value)
    case .idToken(let value): object(for: value)
    case .appMetadata(let value): object(for: value)
    }
  }

  public static func object(for account: UnifiedAccount) -> JSONObject {
    var out = Builder()
    out["home_account_id"] = account.homeAccountID
    out["environment"] = account.environment
    out["realm"] = account.realm
    out["local_account_id"] = account.localAccountID
    out["username"] = account.username
    out["authority_type"] = account.authorityType
    out["name"] = account.name
    out["given_name"] = account.givenName
    out["family_name"] = account.familyName
    out["middle_name"] = account.middleName
    out["alternative_account_id"] = account.alternativeAccountID
    out["client_info"] = account.clientInfo
    out["account_source"] = account.accountSource
    out["last_modification_time"] = account.lastModificationTime
    out["last_modification_app"] = account.lastModificationApp
    return out.finish(with: account.additionalFields)
  }

  public static func object(for token: UnifiedAccessToken) -> JSONObject {
    var out = Builder()
    out["home_account_id"] = token.homeAccountID
    out["environment"] = token.environment
    out["client_id"] = token.clientID
    out["secret"] = token.secret.value
    out["credential_type"] = token.credentialType
    out["realm"] = token.realm
    out["target"] = token.target
    out.timestamp("cached_at", token.cachedAt)
    out.timestamp("expires_on", token.expiresOn)
    out.timestamp("extended_expires_on", token.extendedExpiresOn)
    out.timestamp("refresh_on", token.refreshOn)
    out["token_type"] = token.tokenType
    out["kid"] = token.keyID
    out["requested_claims"] = token.requestedClaims
    out["user_assertion_hash"] = token.userAssertionHash
    out["client_info"] = token.clientInfo
    out["last_modification_time"] = token.lastModificationTime
    out["last_modification_app"] = token.lastModificationApp
    return out.finish(with: token.additionalFields)
  }

  public static func object(for token: UnifiedRefreshToken) -> JSONObject {
    var out = Builder()
    out["home_account_id"] = token.homeAccountID
    out["environment"] = token.environment
    out["client_id"] = token.clientID
    out["secret"] = token.secret.value
    out["credential_type"] = "RefreshToken"
    out["family_id"] = token.familyID
    out["realm"] = token.realm
    out["target"] = token.target
    out["user_assertion_hash"] = token.userAssertionHash
    out["client_info"] = token.clientInfo
    out["last_modification_time"] = token.lastModificationTime
    out["last_modification_app"] = token.lastModificationApp
    return out.finish(with: token.additionalFields)
  }

  public static func object(for token: UnifiedIdToken) -> JSONObject {
    var out = Builder()
    out["home_account_id"] = token.homeAccountID
    out["environment"] = token.environment
    out["client_id"] = token.clientID
    out["secret"] = token.secret.value
    out["credential_type"] = "IdToken"
    out["realm"] = token.realm
    out["client_info"] = token.clientInfo
    out["last_modification_time"] = token.lastModificationTime
    out["last_modification_app"] = token.lastModificationApp
    return out.finish(with: token.additionalFields)
  }

  public static func object(for metadata: UnifiedAppMetadata) -> JSONObject {
    var out = Builder()
    out["client_id"] = metadata.clientID
    out["environment"] = metadata.environment
    out["family_id"] = metadata.familyID
    return out.finish(with: metadata.additionalFields)
  }

  /// Epoch seconds as an integer string, the form every MSAL library reads.
  public static func epochString(_ date: Date) -> String {
    let seconds = date.timeIntervalSince1970.rounded(.down)
    guard seconds.isFinite, let whole = Int64(exactly: seconds) else { return "0" }
    return String(whole)
  }

  private struct Builder {
    var object = JSONObject()

    subscript(key: String) -> String? {
      get { object[key]?.stringValue }
      set { if let newValue { object[key] = .string(newValue) } }
    }

    mutating func timestamp(_ key: String, _ date: Date?) {
      if let date { object[key] = .string(UnifiedEntityJSON.epochString(date)) }
    }

    /// Appends the unknown fields, except any that a modelled field already wrote.
    func finish(with additional: JSONObject) -> JSONObject {
      var result = object
      for member in additional where result[member.key] == nil { result[member.key] = member.value }
      return result
    }
  }
}
