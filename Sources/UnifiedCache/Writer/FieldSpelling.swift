/// The names of the modelled fields that the MSAL libraries spell differently, and which spelling to write.
///
/// For a target library: the names that library reads (docs/unified-cache-keys.md, "Field spellings by
/// library"). Without one: the names the entry had in its file (`WrittenForm`), else the model's own name.
struct FieldSpelling {
  /// A modelled field with more than one spelling; the raw value is the model's own name.
  enum Field: String {
    case keyID = "kid"
    case requestedClaims = "requested_claims"
    case userAssertionHash = "user_assertion_hash"
    case extendedExpiresOn = "extended_expires_on"
    case tokenType = "token_type"

    /// Every name the field is read under, the model's own first: the one list of its aliases. The names
    /// `names(_:)` writes for a library are among them.
    var readNames: [String] {
      switch self {
      case .keyID: ["kid", "key_id", "keyid", "keyId"]
      case .requestedClaims: ["requested_claims", "requestedClaims"]
      case .userAssertionHash: ["user_assertion_hash", "userAssertionHash"]
      case .extendedExpiresOn: ["extended_expires_on", "ext_expires_on"]
      case .tokenType: ["token_type", "tokenType"]
      }
    }
  }

  /// The names a field (by the model's name) is read under: its aliases when it has any, else its name.
  static func readNames(of name: String) -> [String] { Field(rawValue: name)?.readNames ?? [name] }

  let library: MSALLibrary?
  let form: WrittenForm

  func names(_ field: Field) -> [String] {
    guard let library else { return form.names(for: field.rawValue) }
    switch (field, library) {
    case (.keyID, .python), (.keyID, .node): return ["key_id"]
    case (.keyID, .go): return ["keyid"]
    case (.requestedClaims, .node): return ["requestedClaims"]
    case (.userAssertionHash, .node): return ["userAssertionHash"]
    // MSAL.NET writes both names and reads `ext_expires_on` when the other is missing.
    case (.extendedExpiresOn, .dotnet): return ["extended_expires_on", "ext_expires_on"]
    default: return [field.rawValue]
    }
  }

  /// The names to write the field `name` (the model's) under: its spellings when it has several, else its name.
  func names(of name: String) -> [String] {
    guard let field = Field(rawValue: name) else { return [name] }
    return names(field)
  }

  /// The names to write a realm under: none when the entry had none (MSAL.NET's ADFS entries), and MSAL.NET
  /// leaves an empty realm out as it writes them.
  func names(realm: String) -> [String] {
    guard let library else { return form.names(for: "realm") }
    return library == .dotnet && realm.isEmpty ? [] : ["realm"]
  }

  /// `token_type`: MSAL.NET leaves it out for Bearer tokens; MSAL Python and Go always write it (Go's reads
  /// compare it with the request's, Python's SSH-certificate and PoP lookups filter on it).
  func tokenType(of token: UnifiedAccessToken) -> String? {
    switch library {
    case .dotnet?: return token.isBearer ? nil : token.tokenType
    case .python?, .go?: return token.tokenType ?? (token.isBearer ? "Bearer" : nil)
    default: return token.tokenType
    }
  }

  /// The `credential_type` of a refresh or id token: as read when written as read, else `defaultValue`.
  func writtenCredentialType(default defaultValue: String) -> String {
    guard library == nil, case .string(let written)? = form.values["credential_type"] else { return defaultValue }
    return written
  }

  /// `credential_type`: msal-node and MSAL ObjC mark tokens that are not Bearer `AccessToken_With_AuthScheme`;
  /// the others write `AccessToken` for them (MSAL.NET's `ATExt` stays as it is).
  func credentialType(of token: UnifiedAccessToken) -> String {
    switch library {
    case nil: return token.credentialType
    case .node?, .objc?: return token.isBearer ? "AccessToken" : "AccessToken_With_AuthScheme"
    case .dotnet?, .python?, .java?, .go?:
      return token.credentialType == "AccessToken_With_AuthScheme" ? "AccessToken" : token.credentialType
    }
  }
}
