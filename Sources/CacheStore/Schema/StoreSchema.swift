import Adal2MSALSupport
import GRDB

/// The versioned schema of the store (docs/sqlite-schema.md). Every change is a new named migration appended
/// to the migrator; a migration that shipped is never edited.
enum StoreSchema {
  /// The migrations, in order. "v1" creates every table.
  static var migrator: DatabaseMigrator {
    var migrator = DatabaseMigrator()
    migrator.registerMigration("v1") { db in
      try db.execute(sql: v1)
    }
    migrator.registerMigration("v2") { db in
      try db.execute(sql: v2)
    }
    migrator.registerMigration("v3") { db in
      try db.execute(sql: v3)
    }
    migrator.registerMigration("v4") { db in
      try db.execute(sql: v4)
    }
    migrator.registerMigration("v5") { db in
      try db.execute(sql: v5)
    }
    migrator.registerMigration("v6") { db in
      try withKeyHashFunction(db) { try db.execute(sql: v6) }
    }
    migrator.registerMigration("v7") { db in
      try withKeyHashFunction(db) { try StoreSchemaV7.migrate(db) }
    }
    migrator.registerMigration("v8") { db in
      try StoreSchemaV8.migrate(db)
    }
    migrator.registerMigration("v9") { db in
      try StoreSchemaV9.migrate(db)
    }
    migrator.registerMigration("v10") { db in
      try withKeyHashFunction(db) { try StoreSchemaV10.migrate(db) }
    }
    return migrator
  }

  /// Runs `body` with the SQL function `adal2msal_key_hash(key)` (`KeyHash.of`) defined, for migrations that
  /// fill hash columns from keys already stored.
  private static func withKeyHashFunction(_ db: Database, _ body: () throws -> Void) throws {
    let hash = DatabaseFunction("adal2msal_key_hash", argumentCount: 1, pure: true) { values in
      // A key that is not text (a tampered row) gets 0, so no lookup finds it.
      String.fromDatabaseValue(values[0]).map(KeyHash.of) ?? 0
    }
    db.add(function: hash)
    defer { db.remove(function: hash) }
    try body()
  }

  /// The first schema. Credentials share one table (see the document for why).
  static let v1 = """
    CREATE TABLE settings (
      name  TEXT PRIMARY KEY NOT NULL,
      value TEXT NOT NULL
    ) WITHOUT ROWID;

    CREATE TABLE accounts (
      key                       TEXT PRIMARY KEY NOT NULL,
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
      home_account_id_normalized TEXT NOT NULL
    ) WITHOUT ROWID;
    CREATE INDEX accounts_by_username ON accounts(username_normalized, environment_group);
    CREATE INDEX accounts_by_home_account_id ON accounts(home_account_id_normalized);

    CREATE TABLE credentials (
      key                       TEXT PRIMARY KEY NOT NULL,
      credential_kind           TEXT NOT NULL CHECK (credential_kind IN ('AccessToken', 'RefreshToken', 'IdToken')),
      credential_type           TEXT,
      home_account_id           TEXT NOT NULL,
      home_account_id_normalized TEXT NOT NULL,
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
      additional_fields         TEXT NOT NULL DEFAULT '{}'
    ) WITHOUT ROWID;
    CREATE INDEX credentials_by_home_account_id ON credentials(home_account_id_normalized, credential_kind);

    CREATE TABLE app_metadata (
      key               TEXT PRIMARY KEY NOT NULL,
      client_id         TEXT NOT NULL,
      environment       TEXT NOT NULL,
      family_id         TEXT,
      additional_fields TEXT NOT NULL DEFAULT '{}'
    ) WITHOUT ROWID;

    CREATE TABLE unknown_sections (
      name     TEXT PRIMARY KEY NOT NULL,
      position INTEGER NOT NULL,
      value    TEXT NOT NULL
    ) WITHOUT ROWID;

    CREATE TABLE runs (
      id           INTEGER PRIMARY KEY AUTOINCREMENT,
      started_at   TEXT NOT NULL,
      finished_at  TEXT NOT NULL,
      planned_at   TEXT NOT NULL,
      tool_version TEXT NOT NULL,
      inputs       TEXT NOT NULL,
      options      TEXT NOT NULL,
      summary      TEXT NOT NULL
    );

    CREATE TABLE provenance (
      id          INTEGER PRIMARY KEY,
      row_key     TEXT NOT NULL,
      row_kind    TEXT NOT NULL,
      run_id      INTEGER NOT NULL REFERENCES runs(id),
      source_file TEXT NOT NULL,
      item_index  INTEGER,
      label       TEXT NOT NULL,
      action      TEXT NOT NULL CHECK (action IN ('add', 'update'))
    );
    CREATE INDEX provenance_by_row ON provenance(row_key, run_id);
    """

  /// Each entity's key and field spellings in the file it came from (`WrittenForm`), so that an export without a
  /// target library writes the entry back as it was read. NULL for entities made from ADAL items and for rows
  /// written by v1.
  static let v2 = """
    ALTER TABLE accounts ADD COLUMN written_form TEXT;
    ALTER TABLE credentials ADD COLUMN written_form TEXT;
    ALTER TABLE app_metadata ADD COLUMN written_form TEXT;
    """

  /// Credentials in a rowid table, the canonical key a unique index (`credentials_by_key`). In the
  /// `WITHOUT ROWID` table of v1 every row lived in the key B-tree: a token row (1-3 KB) is larger than an index
  /// cell may hold on a 4 KB page, so each spilled into an overflow page of its own, mostly empty, and keys
  /// arrive in random order, so a large apply rewrote random pages of that tree again and again (issue 23: a
  /// 40,000-item migration wrote a 270 MiB file, two thirds of the credential pages unused). Now rows are
  /// appended to the table and only the keys sit in a B-tree ordered by key. Columns, constraints and the
  /// other index are as before; rows are copied in key order.
  static let v3 = """
    CREATE TABLE credentials_v3 (
      key                       TEXT NOT NULL,
      credential_kind           TEXT NOT NULL CHECK (credential_kind IN ('AccessToken', 'RefreshToken', 'IdToken')),
      credential_type           TEXT,
      home_account_id           TEXT NOT NULL,
      home_account_id_normalized TEXT NOT NULL,
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
      written_form              TEXT
    );
    INSERT INTO credentials_v3 SELECT * FROM credentials ORDER BY key;
    DROP TABLE credentials;
    ALTER TABLE credentials_v3 RENAME TO credentials;
    CREATE UNIQUE INDEX credentials_by_key ON credentials(key);
    CREATE INDEX credentials_by_home_account_id ON credentials(home_account_id_normalized, credential_kind);
    """

  /// The header's application id says "adal2msal store" to a reader given the file as an input by mistake.
  static let v4 = "PRAGMA application_id = \(StoreFileMarker.applicationID)"
  /// Provenance kept compactly: a row's key and kind once (`provenance_rows`), each input file's path once
  /// (`provenance_files`), and per source item only numbers and its label. In v1 every provenance row repeated
  /// the row's key and the file's path, and indexed the key again: a third of a large migration's file
  /// (issue 23). Rows keep their ids and order; `CacheStore.provenance(ofKey:)` gives the same answers.
  static let v5 = """
    CREATE TABLE provenance_rows (
      id       INTEGER PRIMARY KEY,
      row_key  TEXT NOT NULL,
      row_kind TEXT NOT NULL
    );
    CREATE UNIQUE INDEX provenance_rows_by_key ON provenance_rows(row_key, row_kind);
    CREATE TABLE provenance_files (
      id   INTEGER PRIMARY KEY,
      file TEXT NOT NULL UNIQUE
    );
    CREATE TABLE provenance_v5 (
      id         INTEGER PRIMARY KEY,
      row_id     INTEGER NOT NULL REFERENCES provenance_rows(id),
      run_id     INTEGER NOT NULL REFERENCES runs(id),
      file_id    INTEGER NOT NULL REFERENCES provenance_files(id),
      item_index INTEGER,
      label      TEXT NOT NULL,
      action     TEXT NOT NULL CHECK (action IN ('add', 'update'))
    );
    INSERT INTO provenance_rows (row_key, row_kind)
      SELECT row_key, row_kind FROM provenance GROUP BY row_key, row_kind ORDER BY MIN(id);
    INSERT INTO provenance_files (file) SELECT source_file FROM provenance GROUP BY source_file ORDER BY MIN(id);
    INSERT INTO provenance_v5 (id, row_id, run_id, file_id, item_index, label, action)
      SELECT p.id, r.id, p.run_id, f.id, p.item_index, p.label, p.action FROM provenance p
      JOIN provenance_rows r ON r.row_key = p.row_key AND r.row_kind = p.row_kind
      JOIN provenance_files f ON f.file = p.source_file
      ORDER BY p.id;
    DROP TABLE provenance;
    ALTER TABLE provenance_v5 RENAME TO provenance;
    CREATE INDEX provenance_by_row ON provenance(row_id, run_id);
    """

  /// The key indexes on hashes (`KeyHash`): `credentials` and `provenance_rows` get `key_hash`, `credentials`
  /// also `home_account_hash` (of `home_account_id_normalized`), and the indexes on the keys' text
  /// (`credentials_by_key`, `credentials_by_home_account_id`, `provenance_rows_by_key`) become indexes on
  /// these numbers. The text indexes held every key (150-250 bytes) a second or third time, a third of a large
  /// migration's file, and a large apply inserting random keys into them rewrote their pages again and again
  /// (issue 23). Lookups compare the hash and then the text. Rows keep their ids and order.
  static let v6 = """
    ALTER TABLE credentials ADD COLUMN key_hash INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE credentials ADD COLUMN home_account_hash INTEGER NOT NULL DEFAULT 0;
    UPDATE credentials SET key_hash = adal2msal_key_hash(key),
      home_account_hash = adal2msal_key_hash(home_account_id_normalized);
    DROP INDEX credentials_by_key;
    DROP INDEX credentials_by_home_account_id;
    CREATE INDEX credentials_by_key_hash ON credentials(key_hash);
    CREATE INDEX credentials_by_home_account_hash ON credentials(home_account_hash);
    ALTER TABLE provenance_rows ADD COLUMN key_hash INTEGER NOT NULL DEFAULT 0;
    UPDATE provenance_rows SET key_hash = adal2msal_key_hash(row_key);
    DROP INDEX provenance_rows_by_key;
    CREATE INDEX provenance_rows_by_key_hash ON provenance_rows(key_hash);
    """
}
