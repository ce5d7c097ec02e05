import Adal2MSALSupport

/// Turns one entity object (from a JSON section or a keychain item's payload) into a model entity.
///
/// Field-name variants are normalized here (see docs/formats.md); an object missing a field the entity cannot
/// exist without (environment, client id, secret, home account id of an account) is reported
/// (`unified.unmodelled-entry`) and yields no entity; the caller says what becomes of it.
enum EntityDecoder {
  static func decode(
    _ kind: UnifiedEntityKind, _ object: JSONObject, path: String, location: SourceLocation
  ) -> (entity: AnyUnifiedEntity?, diagnostics: [Diagnostic]) {
    var fields = FieldReader(object, path: path, location: location)
    let entity: AnyUnifiedEntity?
    switch kind {
    case .account: entity = account(&fields).map(AnyUnifiedEntity.account)
    case .accessToken: entity = accessToken(&fields).map(AnyUnifiedEntity.accessToken)
    case .refreshToken: entity = refreshToken(&fields).map(AnyUnifiedEntity.refreshToken)
    case .idToken: entity = idToken(&fields).map(AnyUnifiedEntity.idToken)
    case .appMetadata: entity = appMetadata(&fields).map(AnyUnifiedEntity.appMetadata)
    }
    if var written = entity, !fields.spellings.isEmpty || !fields.rawValues.isEmpty || fields.credentialType != nil {
      written.writtenForm.fieldNames = fields.spellings
      written.writtenForm.values = fields.rawValues
      if let type = fields.credentialType { written.writtenForm.values["credential_type"] = .string(type) }
      return (written, fields.diagnostics)
    }
    return (entity, fields.diagnostics)
  }

  /// `diagnostics` for a reader that has no file to write an unusable entity back into (a keychain item, an
  /// MSAL.NET dictionary entry): the entity is skipped, and says so (`unified.invalid-entry`).
  static func skipping(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
    diagnostics.map { diagnostic in
      guard diagnostic.code == "unified.unmodelled-entry" else { return diagnostic }
      return Diagnostic(
        .warning, code: "unified.invalid-entry", diagnostic.message + "; skipped", at: diagnostic.location)
    }
  }

  /// `diagnostics` for the JSON reader, which keeps an unusable entry verbatim in its section.
  static func keepingVerbatim(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
    diagnostics.map { diagnostic in
      guard diagnostic.code == "unified.unmodelled-entry" else { return diagnostic }
      var kept = diagnostic
      kept.message += "; kept verbatim and written back as it was"
      return kept
    }
  }

  /// Reports the missing required fields; true when all are present.
  private static func require(_ fields: inout FieldReader, _ values: [(String, String?)]) -> Bool {
    let missing = values.filter { $0.1 == nil || $0.1?.isEmpty == true }.map(\.0)
    guard missing.isEmpty else {
      let known = fields.remaining.keys.count
      fields.report(
        .warning, "unified.unmodelled-entry",
        "cannot be modelled: missing \(missing.joined(separator: ", ")) (\(known) other fields)")
      return false
    }
    return true
  }

  private static func credentialType(_ fields: inout FieldReader, accepted: [String], defaultValue: String) -> String {
    let written = fields.string("credential_type")
    if let written, !accepted.contains(where: { $0.caseInsensitiveCompare(written) == .orderedSame }) {
      fields.report(
        .warning, "unified.credential-type", "unexpected credential_type '\(written)' in this section",
        field: "credential_type")
    }
    return written ?? defaultValue
  }

  static func account(_ fields: inout FieldReader) -> UnifiedAccount? {
    let home = fields.string("home_account_id")
    let environment = fields.string("environment")
    let realm = fields.realm(default: "")
    var account = UnifiedAccount(homeAccountID: home ?? "", environment: environment ?? "", realm: realm)
    for field in UnifiedAccount.textFields {
      account[keyPath: field.keyPath] = fields.string(field.name)
      // Early MSAL Python wrote "AAD" for AAD v2 accounts; every current MSAL lists only MSSTS/ADFS accounts.
      // Noted as it is read, so that the notes keep the order of the fields.
      if field.name == "authority_type", account.authorityType == "AAD" {
        account.authorityType = "MSSTS"
        fields.report(
          .note, "unified.authority-type",
          "authority_type 'AAD' read as 'MSSTS' (current MSAL libraries ignore 'AAD' accounts)",
          field: "authority_type")
      }
    }
    guard require(&fields, [("home_account_id", home), ("environment", environment)]) else { return nil }
    account.additionalFields = fields.remaining
    return account
  }

  static func accessToken(_ fields: inout FieldReader) -> UnifiedAccessToken? {
    let type = credentialType(
      &fields, accepted: ["AccessToken", "AccessToken_With_AuthScheme", "ATExt"], defaultValue: "AccessToken")
    let key = CredentialKey(&fields)
    let token = UnifiedAccessToken(
      credentialType: type, homeAccountID: key.homeAccountID ?? "", environment: key.environment ?? "",
      clientID: key.clientID ?? "", realm: fields.realm(default: ""), target: fields.target("target") ?? "",
      secret: UnifiedSecret(key.secret ?? ""))
    guard let read = credential(token, &fields, key: key) else { return nil }
    if !read.hasReadableExpiry {
      // What the exports for these libraries leave out (`MSALLibrary.requiresAccessTokenExpiry`), said as it is read.
      fields.report(
        .note, "unified.access-token-without-expiry",
        "an access token without a readable expires_on (epoch seconds): MSAL Python, Java and Node cannot load "
          + "it, MSAL ObjC would serve it as never expiring, and an export for them leaves it out")
    }
    return read
  }

  static func refreshToken(_ fields: inout FieldReader) -> UnifiedRefreshToken? {
    let type = credentialType(&fields, accepted: ["RefreshToken", "FamilyRefreshToken"], defaultValue: "RefreshToken")
    if type != "RefreshToken" { fields.credentialType = type }
    let key = CredentialKey(&fields)
    let token = UnifiedRefreshToken(
      homeAccountID: key.homeAccountID ?? "", environment: key.environment ?? "", clientID: key.clientID ?? "",
      secret: UnifiedSecret(key.secret ?? ""))
    return credential(token, &fields, key: key)
  }

  static func idToken(_ fields: inout FieldReader) -> UnifiedIdToken? {
    let type = credentialType(&fields, accepted: ["IdToken"], defaultValue: "IdToken")
    // MSAL Go writes `IDToken`: kept so that the entry is written back as it came.
    if type != "IdToken" { fields.credentialType = type }
    let key = CredentialKey(&fields)
    let token = UnifiedIdToken(
      homeAccountID: key.homeAccountID ?? "", environment: key.environment ?? "", clientID: key.clientID ?? "",
      realm: fields.realm(default: ""), secret: UnifiedSecret(key.secret ?? ""))
    return credential(token, &fields, key: key)
  }

  /// The fields every token starts with, read in the order the writer writes them.
  private struct CredentialKey {
    let homeAccountID: String?
    let environment: String?
    let clientID: String?
    let secret: String?

    init(_ fields: inout FieldReader) {
      homeAccountID = fields.string("home_account_id")
      environment = fields.string("environment")
      clientID = fields.string("client_id")
      secret = fields.string("secret")
    }
  }

  /// `token` with its optional fields (`allFields`) read into it, and what is left
  /// as its additional fields; nil (reported) when it lacks a field no token can be without.
  private static func credential<Credential: UnifiedCredential>(
    _ token: Credential, _ fields: inout FieldReader, key: CredentialKey
  ) -> Credential? {
    var token = token
    for field in Credential.allFields {
      switch field.value {
      case .text(let keyPath): token[keyPath: keyPath] = fields.string(field.name)
      case .epochSeconds(let keyPath): token[keyPath: keyPath] = fields.timestamp(field.name)
      case .scopes(let keyPath): token[keyPath: keyPath] = fields.target(field.name)
      }
    }
    let required = [("environment", key.environment), ("client_id", key.clientID), ("secret", key.secret)]
    guard require(&fields, required) else { return nil }
    token.additionalFields = fields.remaining
    return token
  }

  static func appMetadata(_ fields: inout FieldReader) -> UnifiedAppMetadata? {
    let clientID = fields.string("client_id")
    let environment = fields.string("environment")
    let familyID = fields.string("family_id")
    guard require(&fields, [("client_id", clientID), ("environment", environment)]) else { return nil }
    return UnifiedAppMetadata(
      clientID: clientID ?? "", environment: environment ?? "", familyID: familyID, additionalFields: fields.remaining)
  }
}
