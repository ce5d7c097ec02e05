/// An `Account` entity: one user in one tenant (`realm`) of one environment.
public struct UnifiedAccount: UnifiedEntity {
  // `realm` comes first so that the memberwise initializer, which the public one builds through, has other
  // labels (docs/benchmarks.md, "Counting calls").
  /// `realm`: the tenant id (or `organizations`, `adfs`, ...); empty for ADFS in MSAL.NET.
  public var realm: String
  public static let kind = UnifiedEntityKind.account

  /// `home_account_id`: `<uid>.<utid>` from client_info, or the id token `sub` for ADFS.
  public var homeAccountID: String
  /// `environment`: the host, e.g. `login.windows.net`.
  public var environment: String
  /// `local_account_id`: the `oid` (or `sub`) in this tenant.
  public var localAccountID: String?
  /// `username`: the UPN / preferred_username shown to the user.
  public var username: String?
  /// `authority_type`: `MSSTS`, `ADFS`, `MSA`, `AAD`, `Generic` or `Other`.
  public var authorityType: String?
  /// `name`: display name.
  public var name: String?
  /// `given_name`.
  public var givenName: String?
  /// `family_name`.
  public var familyName: String?
  /// `middle_name` (MSAL ObjC).
  public var middleName: String?
  /// `alternative_account_id` (MSAL ObjC).
  public var alternativeAccountID: String?
  /// `client_info`: base64url JSON `{"uid":…,"utid":…}`.
  public var clientInfo: String?
  /// `account_source` (.NET, Python): the grant that created the account.
  public var accountSource: String?
  /// `last_modification_time`, as written (MSAL ObjC writes fractional seconds).
  public var lastModificationTime: String?
  /// `last_modification_app`.
  public var lastModificationApp: String?
  public var additionalFields: JSONObject
  /// The key and field names the entry had in its file (not part of its identity).
  public var writtenForm = WrittenForm()

  public var canonicalKey: String {
    UnifiedCacheKey.account(homeAccountID: homeAccountID, environment: environment, realm: realm)
  }
  public var owningHomeAccountID: String? { homeAccountID }
  public var owningClientID: String? { nil }
  public var description: String { "Account(\(canonicalKey), username: \(username ?? "-"))" }

  /// The optional text fields after the key fields, each under its name in the cache, in the order the cache
  /// writer, the reader, the report and the store's `accounts` table list them: the one declaration they share.
  package static let textFields: [(name: String, keyPath: WritableKeyPath<UnifiedAccount, String?> & Sendable)] = [
    ("local_account_id", \.localAccountID), ("username", \.username), ("authority_type", \.authorityType),
    ("name", \.name), ("given_name", \.givenName), ("family_name", \.familyName), ("middle_name", \.middleName),
    ("alternative_account_id", \.alternativeAccountID), ("client_info", \.clientInfo),
    ("account_source", \.accountSource), ("last_modification_time", \.lastModificationTime),
    ("last_modification_app", \.lastModificationApp),
  ]
}

extension UnifiedAccount {
  public init(
    homeAccountID: String, environment: String, realm: String, localAccountID: String? = nil,
    username: String? = nil, authorityType: String? = nil, name: String? = nil, givenName: String? = nil,
    familyName: String? = nil, middleName: String? = nil, alternativeAccountID: String? = nil,
    clientInfo: String? = nil, accountSource: String? = nil, lastModificationTime: String? = nil,
    lastModificationApp: String? = nil, additionalFields: JSONObject = JSONObject()
  ) {
    self.init(
      realm: realm, homeAccountID: homeAccountID, environment: environment, localAccountID: localAccountID,
      username: username, authorityType: authorityType, name: name, givenName: givenName, familyName: familyName,
      middleName: middleName, alternativeAccountID: alternativeAccountID, clientInfo: clientInfo,
      accountSource: accountSource, lastModificationTime: lastModificationTime,
      lastModificationApp: lastModificationApp, additionalFields: additionalFields)
  }
}

extension UnifiedAccount {
  /// Whether the account is in its user's home tenant: its realm is the tenant its home account id names
  /// (`homeTenant(of:)`), compared ignoring case (tenant ids are GUIDs or domain names). Lookups prefer it among a
  /// user's Accounts, and msal-node marks its tenant profile so.
  public var isInHomeTenant: Bool {
    guard !realm.isEmpty, let home = Self.homeTenant(of: homeAccountID) else { return false }
    return realm.lowercased() == home.lowercased()
  }

  /// The home tenant a home account id names: its second `.`-separated part (the `utid` of `<uid>.<utid>`), when
  /// not empty, as msal-common reads it (`homeAccountId.split(".")[1]`).
  public static func homeTenant(of homeAccountID: String) -> String? {
    let parts = homeAccountID.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count > 1, !parts[1].isEmpty else { return nil }
    return String(parts[1])
  }
}
