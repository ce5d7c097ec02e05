import GRDB

/// Schema v10: the account lookups go through hashes, as the credential lookups have since v6. `accounts` kept
/// `username` trimmed and lowercased (`username_normalized`) and `home_account_id` lowercased
/// (`home_account_id_normalized`) as text, in each row and again in an index: 110-odd bytes an account, twice,
/// which kept a 10k-item store above 1.2x its tokens and fields (issue 23). They become `username_hash` and
/// `home_account_hash` (`KeyHash` of the same text; NULL for a blank username), indexed as `accounts_by_username`
/// (with `environment_group`) and `accounts_by_home_account_hash`. A lookup compares the hash and then the
/// normalized text of the row's own field.
///
/// The table is rebuilt (SQLite cannot change a column's type in place), every row copied with its id in id
/// order, its hashes computed from the text it held, with the AUTOINCREMENT counter kept.
enum StoreSchemaV10 {
  /// Each replaced column with its new line and the expression that fills it from the old column.
  static let replaced = [
    (
      old: "username_normalized       TEXT,", new: "username_hash             INTEGER,",
      fill: "CASE WHEN username_normalized IS NULL THEN NULL ELSE adal2msal_key_hash(username_normalized) END"
    ),
    (
      old: "home_account_id_normalized TEXT NOT NULL,", new: "home_account_hash         INTEGER NOT NULL,",
      fill: "adal2msal_key_hash(home_account_id_normalized)"
    ),
  ]

  /// Needs `adal2msal_key_hash` (`StoreSchema.withKeyHashFunction`).
  static func migrate(_ db: Database) throws {
    let columns = try db.columns(in: "accounts").map(\.name)
    let select = columns.map { column in
      replaced.first { $0.old.hasPrefix(column + " ") }?.fill ?? column
    }
    try TableRebuild.rebuild(
      db, table: "accounts", indexes: ["accounts_by_key_hash"], order: "id", migration: "v10",
      select: select.joined(separator: ", ")
    ) { create in
      var lines = create.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
      for change in replaced {
        let found = lines.indices.filter { lines[$0].drop { $0 == " " } == change.old }
        guard found.count == 1, let line = found.first else { return nil }
        lines[line] = String(lines[line].prefix { $0 == " " }) + change.new
      }
      return lines.joined(separator: "\n")
    }
    try db.execute(
      sql: """
        CREATE INDEX accounts_by_username ON accounts(username_hash, environment_group);
        CREATE INDEX accounts_by_home_account_hash ON accounts(home_account_hash);
        """)
  }
}
