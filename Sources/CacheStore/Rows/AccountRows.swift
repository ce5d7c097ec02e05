import GRDB
import UnifiedCache

/// The `accounts` table.
extension RowCodec {
  static let accountColumns =
    ["key", "home_account_id", "environment", "realm"] + UnifiedAccount.textFields.map(\.name) + [
      "additional_fields", "username_hash", "environment_group", "home_account_hash", "written_form",
      "key_hash",
    ]

  /// Records the row of `account` (canonical key `key`, with its hash) for an insert of `accountColumns`. The `key`
  /// column is left NULL: the key is the one the row's fields give. `environmentGroups` keeps the group name of
  /// each environment met (`EnvironmentAliases.group(forHost:)` normalizes the host and looks it up, about
  /// 11,000 instructions, for a handful of distinct environments in a run).
  func bind(
    _ account: UnifiedAccount, key: HashedKey, to row: RecordedRows,
    environmentGroups: inout TextMemo<String>
  ) throws(CacheStoreError) {
    var parameter: Int32 = 0
    func next(_ text: String?) {
      parameter += 1
      row.bind(parameter, text)
    }
    next(nil)
    next(account.homeAccountID)
    next(account.environment)
    next(account.realm)
    Self.accountTextFields.bind(account, to: row)
    parameter += Int32(Self.accountTextFields.count)
    parameter += 1
    try bindField(
      Self.jsonText(account.additionalFields), column: "additional_fields", rowKey: key.text, parameter: parameter,
      to: row)
    parameter += 1
    row.bind(parameter, AccountLookup.normalizedUsername(account.username).map(KeyHash.of))
    // By the exact text: two spellings of a host are two environments, each with its own group.
    let group: String
    if let known = environmentGroups.value(of: account.environment) {
      group = known
    } else {
      group = EnvironmentAliases.group(forHost: account.environment).name
      environmentGroups.remember(group, for: account.environment)
    }
    next(group)
    parameter += 1
    row.bind(parameter, KeyHash.ofLowercased(account.homeAccountID))
    parameter += 1
    try bindField(
      Self.writtenFormText(account.writtenForm), column: "written_form", rowKey: key.text, parameter: parameter,
      to: row)
    row.bind(parameter + 1, key.hash)
  }

  /// `UnifiedAccount.textFields`, the columns after `realm`.
  private static let accountTextFields = UnifiedAccount.textFields.map { field in
    guard let column = accountColumns.firstIndex(of: field.name) else { preconditionFailure("no column \(field.name)") }
    return FieldBinding.text(field.keyPath, parameter: Int32(column + 1))
  }

  func account(from row: Row) throws(CacheStoreError) -> UnifiedAccount {
    let fields = try RowFields(row, codec: self)
    let key = fields.key
    var account = UnifiedAccount(
      homeAccountID: try fields.required("home_account_id"),
      environment: try fields.required("environment"),
      realm: try fields.required("realm"))
    for field in UnifiedAccount.textFields { account[keyPath: field.keyPath] = try fields.text(field.name) }
    // Sealed under the row's key (its additional fields are no part of it).
    let sealedKey = sealing == nil ? key : fields.storedKey ?? account.canonicalKey
    account.additionalFields = try jsonObject(
      try fields.field("additional_fields", sealedUnder: sealedKey), rowKey: sealedKey)
    account.writtenForm = try writtenForm(fields, sealedUnder: sealedKey)
    return account
  }
}
