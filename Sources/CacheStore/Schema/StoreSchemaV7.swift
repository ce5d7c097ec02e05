import GRDB
import MigrationEngine

/// Schema v7, a layout made for bulk writes and compact provenance (issue 23):
///
/// - `accounts`, `credentials` and `app_metadata` are rowid tables with an integer `id` (AUTOINCREMENT, so an
///   id is never given to another row, even after a row is deleted by hand), their rows found by `key_hash`
///   and the key. A new row is appended; an update replaces the row in place and keeps its id.
/// - `credentials.home_account_id_normalized` is gone: it repeated `home_account_id` lowercased; the lookup by
///   account compares `home_account_hash` and then the lowercased `home_account_id` in Swift.
/// - `provenance` refers to the entity row by table and id (`row_table`, `row_id`) instead of by its key
///   text (`provenance_rows`, dropped), and holds ONE row per entity written by a run, its input items packed
///   into `sources` (`ProvenanceSources`), each label stored once in `provenance_labels`.
///
/// Rows are copied in key order and keep their content; provenance keeps every entry of every row still in the
/// store, in the same order. Provenance of a row deleted by hand (a key no table holds) is not carried over:
/// no row is left to refer to.
enum StoreSchemaV7 {
  static func migrate(_ db: Database) throws {
    try rebuild(db, table: "accounts", create: accounts, dropping: [])
    try db.execute(
      sql: """
        CREATE INDEX accounts_by_key_hash ON accounts(key_hash);
        CREATE INDEX accounts_by_username ON accounts(username_normalized, environment_group);
        CREATE INDEX accounts_by_home_account_id ON accounts(home_account_id_normalized);
        """)
    try rebuild(db, table: "credentials", create: credentials, dropping: ["home_account_id_normalized"])
    try db.execute(
      sql: """
        CREATE INDEX credentials_by_key_hash ON credentials(key_hash);
        CREATE INDEX credentials_by_home_account_hash ON credentials(home_account_hash);
        """)
    try rebuild(db, table: "app_metadata", create: appMetadata, dropping: [])
    try db.execute(sql: "CREATE INDEX app_metadata_by_key_hash ON app_metadata(key_hash)")
    try db.execute(sql: "ALTER TABLE provenance RENAME TO provenance_v6; DROP INDEX provenance_by_row;")
    try db.execute(sql: provenance)
    try carryProvenance(db)
    try db.execute(sql: "DROP TABLE provenance_v6; DROP TABLE provenance_rows;")
  }

  /// Replaces `table` by the table `create` makes (named `<table>_v7`), copying every row in key order with
  /// its `key_hash`; the old table's indexes go with it.
  private static func rebuild(_ db: Database, table: String, create: String, dropping: Set<String>) throws {
    try db.execute(sql: create)
    let old = try db.columns(in: table).map(\.name).filter { !dropping.contains($0) && $0 != "key_hash" }
    let list = old.joined(separator: ", ")
    try db.execute(
      sql: """
        INSERT INTO \(table)_v7 (\(list), key_hash) SELECT \(list), adal2msal_key_hash(key) FROM \(table) ORDER BY key;
        DROP TABLE \(table);
        ALTER TABLE \(table)_v7 RENAME TO \(table);
        """)
  }

  /// The v6 provenance (one row per entity and input item, the entity named by `provenance_rows`) written as
  /// v7 rows: the consecutive entries of one entity, run and action become one row.
  private static func carryProvenance(_ db: Database) throws {
    var writer = try ProvenanceWriter(db: db)
    let entries = try Row.fetchCursor(
      db,
      sql: """
        SELECT p.row_id AS old_row, p.run_id, p.action, f.file, p.item_index, p.label, r.row_kind,
          CASE r.row_kind
            WHEN 'Account' THEN (
              SELECT id FROM accounts WHERE key_hash = adal2msal_key_hash(r.row_key) AND key = r.row_key)
            WHEN 'AppMetadata' THEN (
              SELECT id FROM app_metadata WHERE key_hash = adal2msal_key_hash(r.row_key) AND key = r.row_key)
            ELSE (SELECT id FROM credentials WHERE key_hash = adal2msal_key_hash(r.row_key) AND key = r.row_key)
          END AS entity_id
        FROM provenance_v6 p JOIN provenance_rows r ON r.id = p.row_id JOIN provenance_files f ON f.id = p.file_id
        ORDER BY p.id
        """)
    var group: (oldRow: Int64, runID: Int64, action: String, table: StoreTable, entityID: Int64)?
    var sources: [PlanSource] = []
    func flush() throws {
      if let group, !sources.isEmpty {
        try writer.record(
          tableCode: group.table.code, rowID: group.entityID, runID: group.runID, action: group.action,
          sources: sources)
      }
      sources = []
    }
    while let row = try entries.next() {
      guard let entityID: Int64 = row["entity_id"] else { continue }
      let oldRow: Int64 = row["old_row"]
      let runID: Int64 = row["run_id"]
      let action: String = row["action"]
      if group.map({ $0.oldRow != oldRow || $0.runID != runID || $0.action != action }) ?? true {
        try flush()
        let kind: String = row["row_kind"]
        let table: StoreTable =
          switch kind {
          case "Account": .accounts
          case "AppMetadata": .appMetadata
          default: .credentials
          }
        group = (oldRow, runID, action, table, entityID)
      }
      sources.append(PlanSource(file: row["file"], itemIndex: row["item_index"], label: row["label"]))
    }
    try flush()
    try writer.finish()
  }

  static let accounts = """
    CREATE TABLE accounts_v7 (
      id                        INTEGER PRIMARY KEY AUTOINCREMENT,
      key                       TEXT NOT NULL,
      home_account_id           TEXT NOT NULL,
      environment               TEXT NOT NULL,
      realm                     TEXT NOT NULL,
      local_account_id          TEXT,
      username                  TEXT,
      authority_type            TEXT,
      name                      TEXT,
      given_name                TEXT,
      family_name               TEXT,
      middle_name               TEXT,
      alternative_account_id    TEXT,
      client_info               TEXT,
      account_source            TEXT,
      last_modification_time    TEXT,
      last_modification_app     TEXT,
      additional_fields         TEXT NOT NULL DEFAULT '{}',
      username_normalized       TEXT,
      environment_group         TEXT NOT NULL,
      home_account_id_normalized TEXT NOT NULL,
      written_form              TEXT,
      key_hash                  INTEGER NOT NULL
    );
    """

  static let credentials = """
    CREATE TABLE credentials_v7 (
      id                        INTEGER PRIMARY KEY AUTOINCREMENT,
      key                       TEXT NOT NULL,
      credential_kind           TEXT NOT NULL CHECK (credential_kind IN ('AccessToken', 'RefreshToken', 'IdToken')),
      credential_type           TEXT,
      home_account_id           TEXT NOT NULL,
      environment               TEXT NOT NULL,
      client_id                 TEXT NOT NULL,
      realm                     TEXT,
      target                    TEXT,
      secret                    BLOB NOT NULL,
      cached_at                 INTEGER,
      expires_on                INTEGER,
      extended_expires_on       INTEGER,
      refresh_on                INTEGER,
      token_type                TEXT,
      key_id                    TEXT,
      requested_claims          TEXT,
      user_assertion_hash       TEXT,
      family_id                 TEXT,
      client_info               TEXT,
      last_modification_time    TEXT,
      last_modification_app     TEXT,
      additional_fields         TEXT NOT NULL DEFAULT '{}',
      written_form              TEXT,
      key_hash                  INTEGER NOT NULL,
      home_account_hash         INTEGER NOT NULL
    );
    """

  static let appMetadata = """
    CREATE TABLE app_metadata_v7 (
      id                INTEGER PRIMARY KEY AUTOINCREMENT,
      key               TEXT NOT NULL,
      client_id         TEXT NOT NULL,
      environment       TEXT NOT NULL,
      family_id         TEXT,
      additional_fields TEXT NOT NULL DEFAULT '{}',
      written_form      TEXT,
      key_hash          INTEGER NOT NULL
    );
    """

  /// `row_table`: 1 `accounts`, 2 `credentials`, 3 `app_metadata` (`StoreTable.code`). Keyed by the row it
  /// names, so that one B-tree both holds the rows and finds an entity's history; `seq` orders the rows of a
  /// run (`ProvenanceWriter`).
  static let provenance = """
    CREATE TABLE provenance_labels (
      id    INTEGER PRIMARY KEY,
      label TEXT NOT NULL UNIQUE
    );
    CREATE TABLE provenance (
      row_table INTEGER NOT NULL CHECK (row_table IN (1, 2, 3)),
      row_id    INTEGER NOT NULL,
      run_id    INTEGER NOT NULL REFERENCES runs(id),
      seq       INTEGER NOT NULL,
      action    TEXT NOT NULL CHECK (action IN ('add', 'update')),
      sources   BLOB NOT NULL,
      PRIMARY KEY (row_table, row_id, run_id, seq)
    ) WITHOUT ROWID;
    """
}
