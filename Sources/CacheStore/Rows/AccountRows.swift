import GRDB
import UnifiedCache

/// The `accounts` table.
extension RowCodec {
  static let accountColumns =
    ["key", "home_account_id", "environment", "realm"] + UnifiedAccount.textFields.map(\.name) + [
      "additional_fields", "username_normalized", "environment_group", "home_account_id_normalized", "written_form",
    ]

  func arguments(for account: UnifiedAccount) -> StatementArguments {
    let keys: [(any DatabaseValueConvertible)?] = [
      account.canonicalKey, account.homeAccountID, account.environment, account.realm,
    ]
    let texts: [(any DatabaseValueConvertible)?] = UnifiedAccount.textFields.map { account[keyPath: $0.keyPath] }
    let derived: [(any DatabaseValueConvertible)?] = [
      Self.jsonText(account.additionalFields), Self.normalizedUsername(account.username),
      EnvironmentAliases.group(forHost: account.environment).name, Self.normalizedHomeAccountID(account.homeAccountID),
      Self.writtenFormText(account.writtenForm),
    ]
    return StatementArguments(keys + texts + derived)
  }

  func account(from row: Row) throws(CacheStoreError) -> UnifiedAccount {
    let fields = try RowFields(row, codec: self)
    let key = fields.key
    var account = UnifiedAccount(
      homeAccountID: try fields.required("home_account_id"),
      environment: try fields.required("environment"),
      realm: try fields.required("realm"))
    for field in UnifiedAccount.textFields { account[keyPath: field.keyPath] = try fields.text(field.name) }
    account.additionalFields = try jsonObject(try fields.text("additional_fields"), rowKey: key)
    account.writtenForm = try writtenForm(fields)
    return account
  }
}
