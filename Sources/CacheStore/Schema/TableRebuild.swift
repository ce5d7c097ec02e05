import GRDB

/// Replaces a table by one whose `CREATE TABLE` statement differs in what `ALTER TABLE` cannot change (a
/// column's `NOT NULL`, a `CHECK`): SQLite's "other kinds of table schema changes". Every row is copied with
/// its id, in `order`; the indexes are made again and the AUTOINCREMENT counter is carried over, so no id is
/// given again. A migration that changes what a column holds gives the values of the new table's columns as
/// `select` (an expression per column, in order, over the old table's); the default copies each column.
enum TableRebuild {
  /// `edit` gets the table's statement as SQLite keeps it and gives the new one, or nil when the table is not
  /// the one the migration expects. That is a schema error, which `OpeningRace` tries again: another process
  /// opening the same file may have just migrated it between this one's reading its migrations and running
  /// this one. The new statement's first line is replaced by one naming the temporary table.
  static func rebuild(
    _ db: Database, table: String, indexes: [String], order: String, migration: String, select: String = "*",
    edit: (String) -> String?
  ) throws {
    let create = try String.fetchOne(
      db, sql: "SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = ?", arguments: [table])
    let indexSQL = try indexes.compactMap { index in
      try String.fetchOne(
        db, sql: "SELECT sql FROM sqlite_schema WHERE type = 'index' AND name = ?", arguments: [index])
    }
    guard let edited = create.flatMap(edit), indexSQL.count == indexes.count else {
      throw DatabaseError(resultCode: .SQLITE_ERROR, message: "the table \(table) is not the one \(migration) expects")
    }
    var lines = edited.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let temporary = "\(table)_\(migration)"
    lines[0] = "CREATE TABLE \(temporary) ("
    let sequence = try Int64.fetchOne(db, sql: "SELECT seq FROM sqlite_sequence WHERE name = ?", arguments: [table])
    try db.execute(sql: lines.joined(separator: "\n"))
    try db.execute(
      sql: """
        INSERT INTO \(temporary) SELECT \(select) FROM \(table) ORDER BY \(order);
        DROP TABLE \(table);
        ALTER TABLE \(temporary) RENAME TO \(table);
        """)
    for sql in indexSQL { try db.execute(sql: sql) }
    if let sequence {
      try db.execute(
        sql: "UPDATE sqlite_sequence SET seq = MAX(seq, ?) WHERE name = ?", arguments: [sequence, table])
    }
  }
}
