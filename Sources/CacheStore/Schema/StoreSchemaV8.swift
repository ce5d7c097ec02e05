import GRDB

/// Schema v8: an entity row stores no key text when its key is the one its fields give (issue 23). `key` in
/// `accounts`, `credentials` and `app_metadata` may be NULL, and is NULL in every row written since: the key
/// is the entity's canonical key (`UnifiedCacheKey`), derived from the row when it is needed (a lookup compares
/// it after the `key_hash` index found the row, an export sorts by it, a sealed secret is bound to it). A row of
/// an older store keeps its key only when that key is not the one its fields give. The keys were 10% of a
/// large migration's file (150-250 bytes a row), a third of a small token's row.
///
/// The tables are rebuilt (SQLite cannot drop a NOT NULL), every row copied with its id, in id order, with
/// the same indexes; the AUTOINCREMENT counter is carried over, so no id is given again.
enum StoreSchemaV8 {
  static func migrate(_ db: Database) throws {
    for (table, indexes) in [
      (StoreTable.accounts, ["accounts_by_key_hash", "accounts_by_username", "accounts_by_home_account_id"]),
      (StoreTable.credentials, ["credentials_by_key_hash", "credentials_by_home_account_hash"]),
      (StoreTable.appMetadata, ["app_metadata_by_key_hash"]),
    ] {
      try rebuildWithNullableKey(db, table: table.name, indexes: indexes)
      try dropDerivedKeys(db, table: table)
    }
  }

  /// Replaces `table` by the same table whose `key` may be NULL, keeping every row, its id, the indexes and
  /// the AUTOINCREMENT counter.
  private static func rebuildWithNullableKey(_ db: Database, table: String, indexes: [String]) throws {
    try TableRebuild.rebuild(db, table: table, indexes: indexes, order: "id", migration: "v8") { create in
      // The v7 statement (`CREATE TABLE "<table>"` since its rename), its key column made nullable.
      var lines = create.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
      let keyLine = lines.firstIndex { $0.drop { $0 == " " }.hasPrefix("key ") && $0.hasSuffix(" TEXT NOT NULL,") }
      guard let keyLine, lines.first == "CREATE TABLE \"\(table)\" (" else { return nil }
      lines[keyLine] = String(lines[keyLine].dropLast(" NOT NULL,".count)) + ","
      return lines.joined(separator: "\n")
    }
  }

  /// Sets `key` to NULL in every row whose key is the one its fields give (`StoreTable.derivedKey(of:codec:)` of the
  /// row). A row that cannot be read keeps its key.
  private static func dropDerivedKeys(_ db: Database, table: StoreTable) throws {
    let codec = RowCodec(sealing: nil, file: "")
    var derived: [Int64] = []
    let rows = try Row.fetchCursor(db, sql: "SELECT * FROM \(table.name) ORDER BY id")
    while let row = try rows.next() {
      guard let stored = String.fromDatabaseValue(row["key"]) else { continue }
      if table.derivedKey(of: row, codec: codec) == stored { derived.append(row["id"]) }
    }
    let clear = try db.makeStatement(sql: "UPDATE \(table.name) SET key = NULL WHERE id = ?")
    for id in derived { try clear.execute(arguments: [id]) }
  }

}
