import Foundation
import GRDB
import Testing
import UnifiedCache
import _Adal2MSALTestSupport

@testable import CacheStore

/// Schema v9: the `CHECK` constraints are written so that inserting a row builds no temporary B-tree (an `IN`
/// list of three values did, once per row), and a v8 store is rebuilt to them keeping every row.
@Suite struct ConstraintCostTests {
  /// The tables an apply writes, each with one row per run at least.
  static let writtenTables = ["accounts", "credentials", "app_metadata", "provenance", "runs"]

  /// The program SQLite compiles for an `INSERT` of a row into each written table opens no ephemeral table
  /// (`OpenEphemeral`): the constraints are evaluated on the row alone.
  @Test func insertingARowBuildsNoTemporaryTable() throws {
    let store = try CacheStore.open(path: try StoreTestSupport.freshPath())
    try store.queue.read { db in
      for table in Self.writtenTables {
        let count = try db.columns(in: table).count
        let values = Array(repeating: "?", count: count).joined(separator: ", ")
        let nulls = StatementArguments(Array(repeating: DatabaseValue.null, count: count))
        let opcodes = try Row.fetchAll(db, sql: "EXPLAIN INSERT INTO \(table) VALUES (\(values))", arguments: nulls)
          .map { $0["opcode"] as String }
        #expect(opcodes.contains { $0 == "Insert" || $0 == "IdxInsert" }, "\(table)")
        #expect(!opcodes.contains("OpenEphemeral"), "\(table)")
      }
    }
  }

  /// Nor do the batch inserts an apply writes new rows with (`StoreTable.insertSQL(rows:)`): their rows come
  /// from a co-routine over the bound values.
  @Test func insertingABatchBuildsNoTemporaryTable() throws {
    let store = try CacheStore.open(path: try StoreTestSupport.freshPath())
    try store.queue.read { db in
      for table in [StoreTable.accounts, .credentials, .appMetadata] {
        let nulls = StatementArguments(Array(repeating: DatabaseValue.null, count: 32 * table.width))
        let opcodes = try Row.fetchAll(db, sql: "EXPLAIN " + table.insertSQL(rows: 32), arguments: nulls)
          .map { $0["opcode"] as String }
        #expect(opcodes.contains("Insert"), "\(table.name)")
        #expect(!opcodes.contains("OpenEphemeral"), "\(table.name)")
      }
    }
  }

  /// The constraints still refuse what they refused: a credential kind outside the three, a provenance row of
  /// another table.
  @Test func theConstraintsRefuseWhatTheyRefusedBefore() throws {
    let store = try CacheStore.open(path: try StoreTestSupport.freshPath())
    try store.apply(StoreTestSupport.plan(adding: try ApplyTests.seedContents()))
    try store.queue.inDatabase { db in
      try db.inSavepoint {
        for kind in ["AccessToken", "RefreshToken", "IdToken"] {
          try db.execute(
            sql: """
              INSERT INTO credentials (credential_kind, home_account_id, environment, client_id, secret, key_hash,
                home_account_hash) VALUES (?, 'h', 'e', 'c', 's', 1, 1)
              """, arguments: [kind])
        }
        for table in [1, 2, 3] {
          try db.execute(
            sql: "INSERT INTO provenance VALUES (?, 1000000, 1, 1, 'add', x'00')", arguments: [table])
        }
        return .rollback
      }
      for kind in ["Bogus", "accesstoken", ""] {
        #expect(throws: DatabaseError.self) {
          try db.execute(
            sql: """
              INSERT INTO credentials (credential_kind, home_account_id, environment, client_id, secret, key_hash,
                home_account_hash) VALUES (?, 'h', 'e', 'c', 's', 1, 1)
              """, arguments: [kind])
        }
      }
      for table in [0, 4, -1] {
        #expect(throws: DatabaseError.self) {
          try db.execute(sql: "INSERT INTO provenance VALUES (?, 1000000, 1, 1, 'add', x'00')", arguments: [table])
        }
      }
    }
  }

  /// A v8 store is rebuilt to the v9 constraints when opened for writing: every row of `credentials` and
  /// `provenance` as it was (ids, order, content), the indexes and the AUTOINCREMENT counter kept (the
  /// credential with the largest id was deleted by hand), no free pages left, the schema a new store's.
  @Test func aVersion8StoreKeepsEveryRowUnderTheNewConstraints() throws {
    let contents = try ApplyTests.seedContents()
    let path = try SchemaMigrationTests.store(
      upTo: "v8", holding: contents, tables: ["accounts", "credentials", "app_metadata", "runs"])
    let queue = try DatabaseQueue(path: path)
    let snapshot = { (db: Database) in
      try Self.snapshotTables.map { sql in try Row.fetchAll(db, sql: sql) }
    }
    let (deleted, before) = try queue.write { db in
      try db.execute(
        sql: """
          INSERT INTO provenance_files (file) VALUES ('test.json');
          INSERT INTO provenance_labels (label) VALUES ('test');
          INSERT INTO provenance (row_table, row_id, run_id, seq, action, sources)
            SELECT 2, id, 1, id, 'add', x'010001' FROM credentials
            UNION ALL SELECT 1, id, 1, 1000 + id, 'add', x'010201' FROM accounts
            UNION ALL SELECT 3, id, 1, 2000 + id, 'update', x'010301' FROM app_metadata;
          """)
      let deleted = try #require(try Row.fetchOne(db, sql: "SELECT * FROM credentials ORDER BY id DESC LIMIT 1"))
      try db.execute(sql: "DELETE FROM credentials WHERE id = ?", arguments: [deleted["id"] as Int64])
      return (deleted, try snapshot(db))
    }
    try queue.close()

    let store = try CacheStore.open(path: path)
    let schema = try SchemaMigrationTests.schema(store)
    for change in StoreSchemaV9.constraints {
      let create = try #require(schema[change.table])
      #expect(create.contains(change.new) && !create.contains(change.old))
    }
    #expect(try store.queue.read(snapshot) == before)
    #expect(try store.queue.read { db in try Int.fetchOne(db, sql: "PRAGMA freelist_count") } == 0)
    var expected = contents
    let key: String = try #require(deleted["key"])
    switch deleted["credential_kind"] as String {
    case "AccessToken": _ = expected.accessTokens.remove(key: key)
    case "RefreshToken": _ = expected.refreshTokens.remove(key: key)
    default: _ = expected.idTokens.remove(key: key)
    }
    #expect(try store.contents() == expected)
    let fresh = try CacheStore.open(path: try StoreTestSupport.freshPath())
    #expect(try SchemaMigrationTests.schema(fresh) == schema)
  }

  /// Every row of the tables v9 rebuilds and of the counters, in order.
  static let snapshotTables = [
    "SELECT * FROM credentials ORDER BY id",
    "SELECT * FROM provenance ORDER BY row_table, row_id, run_id, seq",
    "SELECT name, seq FROM sqlite_sequence ORDER BY name",
    "SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name IN ('credentials', 'provenance') ORDER BY name",
  ]
}
