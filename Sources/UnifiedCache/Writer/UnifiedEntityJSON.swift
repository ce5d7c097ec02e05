import Foundation

/// The JSON object of one entity, as the writer puts it in the cache: modelled fields (timestamps as integer
/// strings, absent values left out), then the unknown fields in their original order.
///
/// Fields whose names differ between the MSAL libraries are spelled as `library` reads them
/// (`FieldSpelling`); without a library, as the entry had them in its file, else under the model's names.
public enum UnifiedEntityJSON {
  public static func object(for entity: AnyUnifiedEntity, library: MSALLibrary? = nil) -> JSONObject {
    switch entity {
    case .account(let value): object(for: value, library: library)
    case .accessToken(let value): object(for: value, library: library)
    case .refreshToken(let value): object(for: value, library: library)
    case .idToken(let value): object(for: value, library: library)
    case .appMetadata(let value): object(for: value, library: library)
    }
  }

  public static func object(for account: UnifiedAccount, library: MSALLibrary? = nil) -> JSONObject {
    let spelling = FieldSpelling(library: library, form: account.writtenForm)
    var out = Builder(spelling: spelling)
    out["home_account_id"] = account.homeAccountID
    out["environment"] = account.environment
    for name in spelling.names(realm: account.realm) { out[name] = account.realm }
    for field in UnifiedAccount.textFields { out[field.name] = account[keyPath: field.keyPath] }
    return out.finish(with: account.additionalFields)
  }

  public static func object(for token: UnifiedAccessToken, library: MSALLibrary? = nil) -> JSONObject {
    let spelling = FieldSpelling(library: library, form: token.writtenForm)
    var out = Builder(spelling: spelling)
    out.key(of: token)
    out["credential_type"] = spelling.credentialType(of: token)
    for name in spelling.names(realm: token.realm) { out[name] = token.realm }
    out.target(token.target)
    var written = token
    written.tokenType = spelling.tokenType(of: token)
    out.fields(of: written, spelling: spelling)
    return out.finish(with: token.additionalFields)
  }

  public static func object(for token: UnifiedRefreshToken, library: MSALLibrary? = nil) -> JSONObject {
    let spelling = FieldSpelling(library: library, form: token.writtenForm)
    var out = Builder(spelling: spelling)
    out.key(of: token)
    out["credential_type"] = spelling.writtenCredentialType(default: "RefreshToken")
    out.fields(of: token, spelling: spelling)
    return out.finish(with: token.additionalFields)
  }

  public static func object(for token: UnifiedIdToken, library: MSALLibrary? = nil) -> JSONObject {
    let spelling = FieldSpelling(library: library, form: token.writtenForm)
    var out = Builder(spelling: spelling)
    out.key(of: token)
    // MSAL Go spells it `IDToken`.
    out["credential_type"] = library == .go ? "IDToken" : spelling.writtenCredentialType(default: "IdToken")
    for name in spelling.names(realm: token.realm) { out[name] = token.realm }
    out.fields(of: token, spelling: spelling)
    return out.finish(with: token.additionalFields)
  }

  public static func object(for metadata: UnifiedAppMetadata, library: MSALLibrary? = nil) -> JSONObject {
    var out = Builder()
    out["client_id"] = metadata.clientID
    out["environment"] = metadata.environment
    // MSAL ObjC always writes `family_id`, empty for an app outside any family.
    out["family_id"] = library == .objc ? (metadata.familyID ?? "") : metadata.familyID
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
    /// Set when the entity is written as it was read: its timestamps' exact JSON.
    var rawValues: [String: JSONValue] = [:]

    init(spelling: FieldSpelling? = nil) {
      if let spelling, spelling.library == nil { rawValues = spelling.form.values }
    }

    subscript(key: String) -> String? {
      get { object[key]?.stringValue }
      set { if let newValue { object[key] = .string(newValue) } }
    }

    /// The fields every token starts with.
    mutating func key(of token: some UnifiedCredential) {
      self["home_account_id"] = token.homeAccountID
      self["environment"] = token.environment
      self["client_id"] = token.clientID
      self["secret"] = token.secret.value
    }

    /// The optional fields of `token` (`allFields`), each under the names `spelling` gives it.
    mutating func fields<Credential: UnifiedCredential>(
      of token: Credential, spelling: FieldSpelling
    ) {
      for field in Credential.allFields {
        switch field.value {
        case .text(let keyPath): for name in spelling.names(of: field.name) { self[name] = token[keyPath: keyPath] }
        case .epochSeconds(let keyPath):
          for name in spelling.names(of: field.name) { timestamp(name, token[keyPath: keyPath]) }
        case .scopes(let keyPath): target(token[keyPath: keyPath])
        }
      }
    }

    /// `target`, or the array of scopes the entry had (early MSAL Python) when it still says the same.
    mutating func target(_ value: String?) {
      guard let value else { return }
      if case .array(let items)? = rawValues["target"], items.compactMap(\.stringValue).joined(separator: " ") == value
      {
        object["target"] = .array(items)
      } else {
        object["target"] = .string(value)
      }
    }

    /// Epoch seconds as an integer string, or as the entry had them when they still say the same.
    mutating func timestamp(_ key: String, _ date: Date?) {
      guard let date else { return }
      if let raw = rawValues[key], FieldReader.epoch(raw) == date {
        object[key] = raw
      } else {
        object[key] = .string(UnifiedEntityJSON.epochString(date))
      }
    }

    /// Appends the unknown fields, except any that a modelled field already wrote.
    func finish(with additional: JSONObject) -> JSONObject {
      var result = object
      for member in additional where result[member.key] == nil { result[member.key] = member.value }
      return result
    }
  }
}
