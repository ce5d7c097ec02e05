import GRDB
import UnifiedCache

/// The `accounts` table.
extension RowCodec {
  static let accountColumns =
    ["key", "home_account_id", "environment", "realm"] + UnifiedAccount.textFields.map(\.name) + [
      "additional_fields", "username_normalized", "environment_group", "home_account_id_normalized", "written_form",
      "key_hash",
    ]

  /// Binds the row of `account` (canonical key `key`, with its hash) to an insert of `accountColumns`. The `key`
  /// column is left NULL: the key is the one the row's fields give.
  func bind(_ account: UnifiedAccount, key: HashedKey, to statement: BoundStatement) {
    var parameter: Int32 = 0
    func next(_ text: String?) {
      parameter += 1
      statement.bind(parameter, text)
    }
    for text in [nil, account.homeAccountID, account.environment, account.realm] { next(text) }
    for field in UnifiedAccount.textFields { next(account[keyPath: field.keyPath]) }
    next(Self.jsonText(account.additionalFields))
    next(Self.normalizedUsername(account.username))
    next(EnvironmentAliases.group(forHost: account.environment).name)
    next(Self.normalizedHomeAccountID(account.homeAccountID))
    next(Self.writtenFormText(account.writtenForm))
    statement.bind(parameter + 1, key.hash)
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
