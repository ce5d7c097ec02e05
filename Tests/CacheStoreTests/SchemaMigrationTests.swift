import Adal2MSALSupport
import Foundation
import GRDB
import Testing
import UnifiedCache
import _Adal2MSALTestSupport

@testable import CacheStore

/// Stores written by an older schema migrate when next opened for writing, and keep every row.
@Suite struct SchemaMigrationTests {
  /// A store as v2 wrote it: the migrations up to "v2", the entities of `contents`.
  static func version2Store(holding contents: UnifiedCacheContents) throws -> String {
    try store(upTo: "v2", holding: contents, tables: ["accounts", "credentials", "app_metadata"])
  }

  /// A store with the migrations up to `version` whose `tables` hold the rows a current store holds after
  /// applying a plan that adds `contents` (every column the older table has, copied in the order the current
  /// table holds them; a column the current table no longer has is computed as the version wrote it, by
  /// `RowCodec`). `provenance` (v5 and v6 layout): one `add` row per entity of run 1, from `test.json`.
  static func store(upTo version: String, holding contents: UnifiedCacheContents, tables: [String]) throws -> String {
    let current = try CacheStore.open(path: try StoreTestSupport.freshPath())
    try current.apply(StoreTestSupport.plan(adding: contents))
    try spellOutKeys(current)
    let path = try StoreTestSupport.freshPath()
    let queue = try DatabaseQueue(path: path)
    try StoreSchema.migrator.migrate(queue, upTo: version)
    try queue.writeWithoutTransaction { db in
      try db.execute(sql: "ATTACH DATABASE ? AS current", arguments: [current.path])
      db.add(
        function: DatabaseFunction("normalized_username", argumentCount: 1, pure: true) {
          AccountLookup.normalizedUsername(String.fromDatabaseValue($0[0]))
        })
      db.add(
        function: DatabaseFunction("normalized_home_account_id", argumentCount: 1, pure: true) {
          String.fromDatabaseValue($0[0]).map(RowCodec.normalizedHomeAccountID)
        })
      let derived = [
        "home_account_id_normalized": "normalized_home_account_id(home_account_id)",
        "username_normalized": "normalized_username(username)",
      ]
      for table in tables where !table.hasPrefix("provenance") {
        let current = Set(try db.columns(in: table, in: "current").map(\.name))
        let columns = try db.columns(in: table, in: "main").map(\.name)
        let values = columns.map { current.contains($0) ? $0 : derived[$0] ?? "NULL" }
        try db.execute(
          sql: """
            INSERT INTO main.\(table) (\(columns.joined(separator: ", ")))
            SELECT \(values.joined(separator: ", ")) FROM current.\(table) \(current.contains("key") ? "ORDER BY key" : "")
            """)
      }
      if tables.contains("provenance") { try v5Provenance(db) }
      try db.execute(sql: "DETACH DATABASE current")
    }
    try queue.close()
    return path
  }

  /// Writes into `store` every key its rows leave to their fields (v8), as older schemas stored them.
  static func spellOutKeys(_ store: CacheStore) throws {
    try store.queue.write { db in
      for table in [StoreTable.accounts, .credentials, .appMetadata] {
        for row in try Row.fetchAll(db, sql: "SELECT * FROM \(table.name) WHERE key IS NULL") {
          let key = try #require(table.key(of: row, codec: store.codec))
          try db.execute(sql: "UPDATE \(table.name) SET key = ? WHERE id = ?", arguments: [key, row["id"] as Int64])
        }
      }
    }
  }

  /// Provenance in the v5/v6 layout: every entity's key once in `provenance_rows`, one `add` row each.
  static func v5Provenance(_ db: Database) throws {
    let hashed = try db.columns(in: "provenance_rows").contains { $0.name == "key_hash" }
    try db.execute(
      sql: """
        INSERT INTO provenance_rows (row_key, row_kind)
          SELECT key, 'Account' FROM accounts UNION ALL SELECT key, credential_kind FROM credentials
          UNION ALL SELECT key, 'AppMetadata' FROM app_metadata;
        INSERT INTO provenance_files (file) VALUES ('test.json');
        INSERT INTO provenance (row_id, run_id, file_id, item_index, label, action)
          SELECT id, 1, 1, id, 'test ' || row_kind, 'add' FROM provenance_rows;
        """)
    if hashed {
      for (id, key) in try Row.fetchAll(db, sql: "SELECT id, row_key FROM provenance_rows").map({
        ($0["id"] as Int64, $0["row_key"] as String)
      }) {
        try db.execute(
          sql: "UPDATE provenance_rows SET key_hash = ? WHERE id = ?", arguments: [KeyHash.of(key), id])
      }
    }
  }

  static func schema(_ store: CacheStore) throws -> [String: String] {
    try store.queue.read { db in
      Dictionary(
        uniqueKeysWithValues: try Row.fetchAll(db, sql: "SELECT name, sql FROM sqlite_schema WHERE sql IS NOT NULL")
          .map { ($0["name"] as String, $0["sql"] as String) })
    }
  }

  @Test func aVersion2StoreMigratesToARowidCredentialsTable() throws {
    let contents = try ApplyTests.seedContents()
    let path = try Self.version2Store(holding: contents)
    let store = try CacheStore.open(path: path)

    #expect(try store.contents() == contents)
    let schema = try Self.schema(store)
    let credentials = try #require(schema["credentials"])
    #expect(!credentials.contains("WITHOUT ROWID"))
    #expect(credentials.contains("written_form"))
    #expect(schema["credentials_by_key_hash"] != nil)
    #expect(schema["credentials_by_home_account_hash"] != nil)
    #expect(schema["credentials_v3"] == nil)
    let applied = try store.queue.read { db in try StoreSchema.migrator.appliedIdentifiers(db) }
    #expect(applied == ["v1", "v2", "v3", "v4", "v5", "v6", "v7", "v8", "v9", "v10"])
    // v4: the header says "adal2msal store" to an input reader (StoreFileMarker; the file's own bytes once the
    // WAL is checkpointed, which the end-to-end verdict test reads).
    let applicationID = try store.queue.read { db in try Int32.fetchOne(db, sql: "PRAGMA application_id") }
    #expect(applicationID == StoreFileMarker.applicationID)

    // The migrated rows are found by key: the same plan again finds every entity current.
    let again = try store.apply(StoreTestSupport.plan(adding: contents))
    #expect(again.rowsWritten == 0)
    #expect(again.rowsAlreadyCurrent == contents.allEntities.count)
  }

  /// v5: provenance rows written in the v1 layout (key and file path in every row) come back the same, in the
  /// same order, from the compact tables; v7 packs them into one row per entity and run. Provenance of a key no
  /// table holds (a row deleted by hand) has nothing to refer to and is not carried over.
  @Test func aVersion4StoreKeepsItsProvenanceInTheCompactTables() throws {
    let path = try StoreTestSupport.freshPath()
    let queue = try DatabaseQueue(path: path)
    try StoreSchema.migrator.migrate(queue, upTo: "v4")
    let rows: [RowProvenance] = [
      RowProvenance(
        rowKey: "uid.utid-login.microsoftonline.com-utid", rowKind: "Account", runID: 1, sourceFile: "/in/a.plist",
        itemIndex: 3, label: "ADAL MRRT", action: "add"),
      RowProvenance(
        rowKey: "uid.utid-login.microsoftonline.com-utid", rowKind: "Account", runID: 1, sourceFile: "/in/b.json",
        itemIndex: nil, label: "MSAL account", action: "add"),
      RowProvenance(
        rowKey: "uid.utid-login.microsoftonline.com-refreshtoken-client--", rowKind: "RefreshToken", runID: 1,
        sourceFile: "/in/a.plist", itemIndex: 4, label: "ADAL FRT(1)", action: "add"),
      RowProvenance(
        rowKey: "uid.utid-login.microsoftonline.com-utid", rowKind: "Account", runID: 2, sourceFile: "/in/a.plist",
        itemIndex: 3, label: "ADAL MRRT", action: "update"),
    ]
    try queue.write { db in
      for _ in 1...2 {
        try db.execute(
          sql: """
            INSERT INTO runs (started_at, finished_at, planned_at, tool_version, inputs, options, summary)
            VALUES ('', '', '', '', '[]', '{}', '{}')
            """)
      }
      let orphan = RowProvenance(
        rowKey: "uid.utid-login.microsoftonline.com-idtoken-client-utid-", rowKind: "IdToken", runID: 1,
        sourceFile: "/in/a.plist", itemIndex: 5, label: "ADAL MRRT", action: "add")
      for row in rows.prefix(2) + [orphan] + rows.suffix(2) {
        try db.execute(
          sql: """
            INSERT INTO provenance (row_key, row_kind, run_id, source_file, item_index, label, action)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """,
          arguments: [row.rowKey, row.rowKind, row.runID, row.sourceFile, row.itemIndex, row.label, row.action])
      }
      try db.execute(
        sql: """
          INSERT INTO accounts (key, home_account_id, environment, realm, environment_group,
            home_account_id_normalized) VALUES (?, 'uid.utid', 'login.microsoftonline.com', 'utid', 'public', 'uid.utid');
          INSERT INTO credentials (key, credential_kind, home_account_id, home_account_id_normalized, environment,
            client_id, secret) VALUES (?, 'RefreshToken', 'uid.utid', 'uid.utid', 'login.microsoftonline.com',
            'client', 'secret');
          """, arguments: [rows[0].rowKey, rows[2].rowKey])
    }
    try queue.close()

    let store = try CacheStore.open(path: path)
    #expect(try store.provenance(ofKey: rows[0].rowKey) == [rows[0], rows[1], rows[3]])
    #expect(try store.provenance(ofKey: rows[2].rowKey) == [rows[2]])
    #expect(try store.provenance(ofKey: "uid.utid-login.microsoftonline.com-idtoken-client-utid-").isEmpty)
    let counts = try store.queue.read { db in
      try ["provenance", "provenance_labels", "provenance_files"].map {
        try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \($0)") ?? -1
      }
    }
    // v7: one row per entity and run, the sources packed.
    #expect(counts == [3, 3, 2])
    let fresh = try CacheStore.open(path: try StoreTestSupport.freshPath())
    #expect(try Self.schema(fresh) == Self.schema(store))
  }

  /// A new store gets the current schema in one step (`StoreSchema.newStoreMigrator`): every statement, the
  /// header's application id and the migrations recorded as applied are those of a store that ran them all.
  @Test func aNewStoreHasTheSchemaOfAMigratedOne() throws {
    let contents = try ApplyTests.seedContents()
    let migrated = try CacheStore.open(path: try Self.version2Store(holding: contents))
    let fresh = try CacheStore.open(path: try StoreTestSupport.freshPath())
    #expect(try Self.schema(fresh) == Self.schema(migrated))
    func header(_ store: CacheStore) throws -> (applicationID: Int32?, applied: [String]) {
      try store.queue.read { db in
        (
          try Int32.fetchOne(db, sql: "PRAGMA application_id"),
          try StoreSchema.migrator.completedMigrations(db)
        )
      }
    }
    let (freshID, freshApplied) = try header(fresh)
    let (migratedID, migratedApplied) = try header(migrated)
    #expect(freshID == StoreFileMarker.applicationID && migratedID == freshID)
    #expect(freshApplied == StoreSchema.migrator.migrations && migratedApplied == freshApplied)
  }

  /// Two processes creating the same file: one may find the current schema with only some migrations recorded
  /// (`newStoreMigrator` records each in a transaction of its own). It records the rest; it runs none of the
  /// older migrations, which were not written for that schema.
  @Test(arguments: ["v1", "v4", "v8"])
  func aStoreCreatedInOneStepIsCompletedByTheNextOpen(recordedUpTo last: String) throws {
    let path = try StoreTestSupport.freshPath()
    let queue = try DatabaseQueue(path: path)
    try StoreSchema.newStoreMigrator.migrate(queue, upTo: last)
    try queue.close()
    let store = try CacheStore.open(path: path)
    let applied = try store.queue.read { db in try StoreSchema.migrator.completedMigrations(db) }
    #expect(applied == StoreSchema.migrator.migrations)
    let fresh = try CacheStore.open(path: try StoreTestSupport.freshPath())
    #expect(try Self.schema(store) == Self.schema(fresh))
  }

  /// A store of an older schema is upgraded only when it is opened to write: read-only (a dry run, `accounts`,
  /// `export`), it is refused, and the refusal says so in the library's words (`StoreCLITests` has the command
  /// line's).
  @Test func anOlderStoreOpenedReadOnlyIsRefusedWithHowToUpgradeIt() throws {
    let contents = try ApplyTests.seedContents()
    let tables = [
      "accounts", "credentials", "app_metadata", "runs", "provenance_rows", "provenance_files", "provenance",
    ]
    let path = try Self.store(upTo: "v5", holding: contents, tables: tables)
    let refused = #expect(throws: CacheStoreError.self) { try CacheStore.open(path: path, options: .reading()) }
    #expect(refused?.reason == .outdatedSchema)
    #expect(
      refused?.description.hasSuffix(
        "the store's schema is older than this adal2msal; open it to write once to "
          + "upgrade it, as a run that is not a dry run does") == true, "\(refused.map(String.init(describing:)) ?? "")"
    )
    #expect(try CacheStore.open(path: path).contents() == contents)
    #expect(try CacheStore.open(path: path, options: .reading()).contents() == contents)
  }

  /// v6: a v5 store's credentials and provenance get their key hashes, and every lookup (by key, by account,
  /// of provenance) finds what it found before; the same plan again finds every entity current.
  @Test func aVersion5StoreIsFoundThroughItsKeyHashes() throws {
    let contents = try ApplyTests.seedContents()
    let tables = [
      "accounts", "credentials", "app_metadata", "runs", "provenance_rows", "provenance_files", "provenance",
    ]
    let store = try CacheStore.open(path: try Self.store(upTo: "v5", holding: contents, tables: tables))

    #expect(try store.contents() == contents)
    let unhashed = try store.queue.read { db in
      try Int.fetchOne(
        db,
        sql: """
          SELECT (SELECT COUNT(*) FROM credentials WHERE key_hash = 0 OR home_account_hash = 0)
            + (SELECT COUNT(*) FROM accounts WHERE key_hash = 0)
          """)
    }
    #expect(unhashed == 0)
    // The pages of the tables v7 rebuilt are given back (VACUUM), not left free in the file.
    #expect(try store.queue.read { db in try Int.fetchOne(db, sql: "PRAGMA freelist_count") } == 0)
    for entity in contents.allEntities {
      #expect(try store.entity(kind: entity.kind, key: entity.canonicalKey) == entity)
      #expect(try store.provenance(ofKey: entity.canonicalKey).map(\.action) == ["add"])
    }
    let home = try #require(contents.accounts.entities.first?.homeAccountID)
    let expected = contents.allEntities.filter { $0.kind.holdsSecret && $0.homeAccountID == home }
    #expect(Set(try store.credentials(ofHomeAccountID: home)) == Set(expected))
    #expect(!expected.isEmpty)
    let again = try store.apply(StoreTestSupport.plan(adding: contents))
    #expect(again.rowsWritten == 0)
    #expect(again.rowsAlreadyCurrent == contents.allEntities.count)
    let fresh = try CacheStore.open(path: try StoreTestSupport.freshPath())
    #expect(try Self.schema(fresh) == Self.schema(store))
  }

  /// v8: a v7 store's rows keep their key text only where it is not the key their fields give (here one row
  /// keyed otherwise, as by an older key format); every row keeps its id and content and is found by its key,
  /// and the AUTOINCREMENT counter is kept (the account with the largest id was deleted by hand).
  @Test func aVersion7StoreKeepsOnlyTheKeysItsFieldsDoNotGive() throws {
    let contents = try ApplyTests.seedContents()
    let path = try Self.store(upTo: "v7", holding: contents, tables: ["accounts", "credentials", "app_metadata"])
    let queue = try DatabaseQueue(path: path)
    let (oddKey, deleted, before) = try queue.write { db in
      let id = try #require(try Int64.fetchOne(db, sql: "SELECT MIN(id) FROM credentials"))
      let key =
        "odd-"
        + (try #require(try String.fetchOne(db, sql: "SELECT key FROM credentials WHERE id = ?", arguments: [id])))
      try db.execute(
        sql: "UPDATE credentials SET key = ?, key_hash = ? WHERE id = ?", arguments: [key, KeyHash.of(key), id])
      let deleted = try #require(try Row.fetchOne(db, sql: "SELECT * FROM accounts ORDER BY id DESC LIMIT 1"))
      try db.execute(sql: "DELETE FROM accounts WHERE id = ?", arguments: [deleted["id"] as Int64])
      let before = try Row.fetchAll(db, sql: "SELECT name, seq FROM sqlite_sequence ORDER BY name")
      return (key, try #require(deleted["key"] as String?), before)
    }
    try queue.close()

    let store = try CacheStore.open(path: path)
    var expected = contents
    _ = expected.accounts.remove(key: deleted)
    #expect(try store.contents() == expected)
    let kept = try store.queue.read { db in
      try String.fetchAll(
        db,
        sql: """
          SELECT key FROM (SELECT key FROM accounts UNION ALL SELECT key FROM credentials
            UNION ALL SELECT key FROM app_metadata) WHERE key IS NOT NULL
          """)
    }
    #expect(kept == [oddKey])
    #expect(
      try store.queue.read { db in try Row.fetchAll(db, sql: "SELECT name, seq FROM sqlite_sequence ORDER BY name") }
        == before)
    let odd = try #require(
      try store.entity(kind: .accessToken, key: oddKey) ?? store.entity(kind: .refreshToken, key: oddKey)
        ?? store.entity(kind: .idToken, key: oddKey))
    for entity in expected.allEntities where entity != odd {
      #expect(try store.entity(kind: entity.kind, key: entity.canonicalKey) == entity)
    }
    #expect(try store.queue.read { db in try Int.fetchOne(db, sql: "PRAGMA freelist_count") } == 0)
    let fresh = try CacheStore.open(path: try StoreTestSupport.freshPath())
    #expect(try Self.schema(fresh) == Self.schema(store))
  }

  /// v10: a v9 store's accounts are found by username and by home account id through the hashes computed from
  /// the text its rows held, written by Swift's normalization (a capital outside ASCII, which SQL's `lower`
  /// does not fold, and spaces around); every row keeps its id and content, and the AUTOINCREMENT counter.
  @Test func aVersion9StoreFindsItsAccountsThroughTheirHashes() throws {
    var contents = try ApplyTests.seedContents()
    let accented = UnifiedAccount(
      homeAccountID: "\u{C9}VA.Tenant", environment: "login.windows.net", realm: "tenant",
      username: " \u{C9}va@Contoso.COM ", authorityType: "MSSTS")
    let blank = UnifiedAccount(
      homeAccountID: "blank.tenant", environment: "login.windows.net", realm: "tenant", authorityType: "MSSTS")
    _ = contents.upsert(.account(accented))
    _ = contents.upsert(.account(blank))
    let path = try Self.store(upTo: "v9", holding: contents, tables: ["accounts", "credentials", "app_metadata"])
    let before = try DatabaseQueue(path: path).read { db in
      (
        try Row.fetchAll(db, sql: "SELECT id, home_account_id FROM accounts ORDER BY id"),
        try Row.fetchAll(db, sql: "SELECT name, seq FROM sqlite_sequence ORDER BY name")
      )
    }

    let store = try CacheStore.open(path: path)
    #expect(try store.contents() == contents)
    for account in contents.accounts.entities {
      #expect(try store.accountsForIdentifier(account.homeAccountID.uppercased()).contains(account))
      guard let username = account.username else { continue }
      #expect(try store.accountsForUsername(username.uppercased(), environment: account.environment).contains(account))
    }
    #expect(try store.accountsForUsername("\u{E9}va@contoso.com") == [accented])
    #expect(try store.accountsForIdentifier("\u{E9}va.tenant") == [accented])
    let after = try store.queue.read { db in
      (
        try Row.fetchAll(db, sql: "SELECT id, home_account_id FROM accounts ORDER BY id"),
        try Row.fetchAll(db, sql: "SELECT name, seq FROM sqlite_sequence ORDER BY name"),
        try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM accounts WHERE username_hash IS NULL"),
        try Int.fetchOne(db, sql: "PRAGMA freelist_count")
      )
    }
    #expect(after.0 == before.0 && after.1 == before.1)
    #expect(after.2 == 1 && after.3 == 0)
    let fresh = try CacheStore.open(path: try StoreTestSupport.freshPath())
    #expect(try Self.schema(fresh) == Self.schema(store))
  }

  /// Two rows of one canonical key (one keyed by its fields, one that keeps another key: a hand edit or an
  /// older key format) give `contents()` the entity of the larger key, as `ORDER BY key` did before v8.
  @Test(arguments: [("!", false), ("~", true)])
  func aKeptKeyAndADerivedOneResolveAsKeyOrderDid(mark: String, keptWins: Bool) throws {
    let contents = try ApplyTests.seedContents()
    let path = try Self.store(upTo: "v7", holding: contents, tables: ["accounts", "credentials", "app_metadata"])
    let queue = try DatabaseQueue(path: path)
    let canonical = try queue.write { db in
      let row = try #require(
        try Row.fetchOne(db, sql: "SELECT * FROM credentials WHERE credential_kind = 'RefreshToken' LIMIT 1"))
      let key: String = row["key"]
      let kept = mark == "!" ? mark + key : key + mark
      let columns = row.columnNames.filter { !["id", "key", "key_hash", "secret"].contains($0) }
      try db.execute(
        sql: """
          INSERT INTO credentials (key, key_hash, secret, \(columns.joined(separator: ", ")))
          SELECT ?, ?, 'kept-secret', \(columns.joined(separator: ", ")) FROM credentials WHERE id = ?
          """, arguments: [kept, KeyHash.of(kept), row["id"] as Int64])
      return key
    }
    try queue.close()

    let store = try CacheStore.open(path: path)
    var kept = try #require(contents.refreshTokens[canonical])
    kept.secret = UnifiedSecret("kept-secret")
    var expected = contents
    if keptWins { _ = expected.upsert(.refreshToken(kept)) }
    #expect(try store.contents() == expected)
  }

  /// A new store is created with 16 KiB pages (`CacheStore.pageSize`, not SQLite's 4 KiB, of which a token row
  /// of 1-3 KB would leave a third unused); a store created with another page size keeps it, and is written and
  /// read as before.
  @Test func aNewStoreHasLargePagesAndAnOlderStoreKeepsItsOwn() throws {
    func pageSize(_ store: CacheStore) throws -> Int? {
      try store.queue.read { db in try Int.fetchOne(db, sql: "PRAGMA page_size") }
    }
    let fresh = try CacheStore.open(path: try StoreTestSupport.freshPath())
    #expect(try pageSize(fresh) == 16_384)
    let contents = try ApplyTests.seedContents()
    let older = try CacheStore.open(path: try Self.version2Store(holding: contents))
    #expect(try pageSize(older) == 4_096)
    #expect(try older.contents() == contents)
  }

  /// A key written twice replaces its row (the row found by the key's hash and text is deleted and written
  /// again), never duplicates it.
  @Test func anUpdateReplacesTheRowOfItsKey() throws {
    let store = try CacheStore.open(path: try StoreTestSupport.freshPath())
    let contents = try ApplyTests.seedContents()
    try store.apply(StoreTestSupport.plan(adding: contents))
    let before = try StoreTestSupport.counts(store)
    var changed = contents
    for entity in contents.allEntities {
      guard case .refreshToken(var token) = entity else { continue }
      token.secret = UnifiedSecret("replaced-\(token.clientID)")
      _ = changed.upsert(.refreshToken(token))
    }
    let summary = try store.apply(StoreTestSupport.plan(adding: changed))
    #expect(summary.rowsUpdated > 0)
    #expect(try StoreTestSupport.counts(store).credentials == before.credentials)
    #expect(try store.contents() == changed)
  }
}
