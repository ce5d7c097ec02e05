import GRDB

extension StoreSchema {
  /// The store that every migration has run on, built in one step: what a file that holds nothing yet gets.
  /// Replaying the history on such a file rebuilt each entity table two to four times, each migration in a
  /// transaction of its own, and then needed a `VACUUM` for the pages the rebuilds left free: most of a small
  /// migration's time. Each migration's name is recorded as applied, so that a later version migrates this
  /// store as it migrates one that ran them all. `SchemaMigrationTests` checks that both give the same schema,
  /// statement for statement.
  static var newStoreMigrator: DatabaseMigrator {
    var migrator = DatabaseMigrator()
    for (index, name) in Self.migrator.migrations.enumerated() {
      migrator.registerMigration(name) { db in
        guard index == 0 else { return }
        for statement in currentStatements { try db.execute(sql: statement) }
        try db.execute(sql: v4)
      }
    }
    return migrator
  }

  /// Whether the file holds the current schema and nothing older: `newStoreMigrator` made it, and another
  /// process that creates the same file may still be recording the migrations' names, one transaction each.
  /// Such a file is completed by `newStoreMigrator`: the older migrations were not written for it (most fail).
  static func holdsCurrentSchema(_ db: Database) throws -> Bool {
    let statements = try String.fetchAll(
      db,
      sql: """
        SELECT sql FROM sqlite_schema
        WHERE sql IS NOT NULL AND name NOT IN ('grdb_migrations', 'sqlite_sequence')
        """)
    return Set(statements) == Set(currentStatements) && statements.count == currentStatements.count
  }

  /// `current`, one statement each, without the semicolons.
  static let currentStatements = current.components(separatedBy: ";\n").map {
    $0.hasSuffix(";") ? String($0.dropLast()) : $0
  }

  /// The tables and indexes after the last migration, each statement as SQLite holds it once the migrations
  /// have run (a table that a migration rebuilt and renamed is named in quotes). A new migration changes this
  /// too; `SchemaMigrationTests` fails until it does.
  static let current = """
    CREATE TABLE settings (
      name  TEXT PRIMARY KEY NOT NULL,
      value TEXT NOT NULL
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
    CREATE TABLE provenance_files (
      id   INTEGER PRIMARY KEY,
      file TEXT NOT NULL UNIQUE
    );
    CREATE TABLE provenance_labels (
      id    INTEGER PRIMARY KEY,
      label TEXT NOT NULL UNIQUE
    );
    CREATE TABLE "accounts" (
      id                        INTEGER PRIMARY KEY AUTOINCREMENT,
      key                       TEXT,
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
      username_hash             INTEGER,
      environment_group         TEXT NOT NULL,
      home_account_hash         INTEGER NOT NULL,
      written_form              TEXT,
      key_hash                  INTEGER NOT NULL
    );
    CREATE TABLE "app_metadata" (
      id                INTEGER PRIMARY KEY AUTOINCREMENT,
      key               TEXT,
      client_id         TEXT NOT NULL,
      environment       TEXT NOT NULL,
      family_id         TEXT,
      additional_fields TEXT NOT NULL DEFAULT '{}',
      written_form      TEXT,
      key_hash          INTEGER NOT NULL
    );
    CREATE TABLE "credentials" (
      id                        INTEGER PRIMARY KEY AUTOINCREMENT,
      key                       TEXT,
      credential_kind           TEXT NOT NULL CHECK (credential_kind = 'AccessToken'\
     OR credential_kind = 'RefreshToken' OR credential_kind = 'IdToken'),
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
    CREATE TABLE "provenance" (
      row_table INTEGER NOT NULL CHECK (row_table = 1 OR row_table = 2 OR row_table = 3),
      row_id    INTEGER NOT NULL,
      run_id    INTEGER NOT NULL REFERENCES runs(id),
      seq       INTEGER NOT NULL,
      action    TEXT NOT NULL CHECK (action IN ('add', 'update')),
      sources   BLOB NOT NULL,
      PRIMARY KEY (row_table, row_id, run_id, seq)
    ) WITHOUT ROWID;
    CREATE INDEX accounts_by_key_hash ON accounts(key_hash);
    CREATE INDEX accounts_by_username ON accounts(username_hash, environment_group);
    CREATE INDEX accounts_by_home_account_hash ON accounts(home_account_hash);
    CREATE INDEX app_metadata_by_key_hash ON app_metadata(key_hash);
    CREATE INDEX credentials_by_key_hash ON credentials(key_hash);
    CREATE INDEX credentials_by_home_account_hash ON credentials(home_account_hash);
    """
}
