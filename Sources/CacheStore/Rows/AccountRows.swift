import GRDB
import UnifiedCache

/// The `accounts` table.
extension RowCodec {
  static let accountColumns = [
    "key", "home_account_id", "environment", "realm", "local_account_id", "username", "authority_type", "name",
    "given_name", "family_name", "middle_name", "alternative_account_id", "client_info", "account_source",
    "last_modification_time", "last_modification_app", "additional_fields", "username_normalized",
    "environment_group", "home_account_id_normalized",
  ]

  func arguments(for account: UnifiedAccount) -> StatementArguments {
    let values: [(any DatabaseValueConvertible)?] = [
      account.canonicalKey, account.homeAccountID, account.environment, account.realm, account.localAccountID,
      account.username, account.authorityType, account.name, account.givenName, account.familyName,
      account.middleName, account.alternativeAccountID, account.clientInfo, account.accountSource,
      account.lastModificationTime, account.lastModificationApp, Self.jsonText(account.additionalFields),
      Self.normalizedUsername(account.username), EnvironmentAliases.group(forHost: account.environment).name,
      Self.normalizedHomeAccountID(account.homeAccountID),
    ]
    return StatementArguments(values)
  }

  func account(from row: Row) throws(CacheStoreError) -> UnifiedAccount {
    let key: String = row["key"]
    return UnifiedAccount(
      homeAccountID: row["home_account_id"], environment: row["environment"], realm: row["realm"],
      localAccountID: row["local_account_id"], username: row["username"], authorityType: row["authority_type"],
      name: row["name"], givenName: row["given_name"], familyName: row["family_name"], middleName: row["middle_name"],
      alternativeAccountID: row["alternative_account_id"], clientInfo: row["client_info"],
      accountSource: row["account_source"], lastModificationTime: row["last_modification_time"],
      lastModificationApp: row["last_modification_app"],
      additionalFields: try jsonObject(row["additional_fields"], rowKey: key))
  }
}
