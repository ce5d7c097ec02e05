import GRDB
import UnifiedCache

/// The `accounts` table.
extension RowCodec {
  static let accountColumns = [
    "key", "home_account_id", "environment", "realm", "local_account_id", "username", "authority_type", "name",
    "given_name", "family_name", "middle_name", "alternative_account_id", "client_info", "account_source",
    "last_modification_time", "last_modification_app", "additional_fields", "username_normalized",
    "environment_group", "home_account_id_normalized", "written_form",
  ]

  func arguments(for account: UnifiedAccount) -> StatementArguments {
    let values: [(any DatabaseValueConvertible)?] = [
      account.canonicalKey, account.homeAccountID, account.environment, account.realm, account.localAccountID,
      account.username, account.authorityType, account.name, account.givenName, account.familyName,
      account.middleName, account.alternativeAccountID, account.clientInfo, account.accountSource,
      account.lastModificationTime, account.lastModificationApp, Self.jsonText(account.additionalFields),
      Self.normalizedUsername(account.username), EnvironmentAliases.group(forHost: account.environment).name,
      Self.normalizedHomeAccountID(account.homeAccountID), Self.writtenFormText(account.writtenForm),
    ]
    return StatementArguments(values)
  }

  func account(from row: Row) throws(CacheStoreError) -> UnifiedAccount {
    let fields = try RowFields(row, codec: self)
    let key = fields.key
    var account = UnifiedAccount(
      homeAccountID: try fields.required("home_account_id"),
      environment: try fields.required("environment"),
      realm: try fields.required("realm"),
      localAccountID: try fields.text("local_account_id"),
      username: try fields.text("username"),
      authorityType: try fields.text("authority_type"),
      name: try fields.text("name"),
      givenName: try fields.text("given_name"),
      familyName: try fields.text("family_name"),
      middleName: try fields.text("middle_name"),
      alternativeAccountID: try fields.text("alternative_account_id"), clientInfo: try fields.text("client_info"),
      accountSource: try fields.text("account_source"), lastModificationTime: try fields.text("last_modification_time"),
      lastModificationApp: try fields.text("last_modification_app"),
      additionalFields: try jsonObject(try fields.text("additional_fields"), rowKey: key))
    account.writtenForm = try writtenForm(fields)
    return account
  }
}
