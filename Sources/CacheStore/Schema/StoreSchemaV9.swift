import GRDB

/// Schema v9: the `CHECK` constraints of `credentials.credential_kind` and `provenance.row_table` compare with
/// `=` joined by `OR` instead of an `IN` list of three values. SQLite (3.40) evaluates an `IN` list of more than
/// two values by filling a temporary B-tree with the list every time the `INSERT` statement runs, a new page
/// zeroed and freed for each row written: that made half of the CPU time of writing a credential and its
/// provenance row (docs/benchmarks.md, "The write stage"). The constraints accept exactly the same values.
///
/// Both tables are rebuilt (SQLite cannot change a `CHECK` in place), every row copied with its id in its
/// order, with the same indexes and the AUTOINCREMENT counter.
enum StoreSchemaV9 {
  /// The constraints before and after, as they appear in the tables' `CREATE TABLE` statements.
  static let constraints = [
    (
      table: "credentials", indexes: ["credentials_by_key_hash", "credentials_by_home_account_hash"], order: "id",
      old: "CHECK (credential_kind IN ('AccessToken', 'RefreshToken', 'IdToken'))",
      new:
        "CHECK (credential_kind = 'AccessToken' OR credential_kind = 'RefreshToken' OR credential_kind = 'IdToken')"
    ),
    (
      table: "provenance", indexes: [], order: "row_table, row_id, run_id, seq",
      old: "CHECK (row_table IN (1, 2, 3))",
      new: "CHECK (row_table = 1 OR row_table = 2 OR row_table = 3)"
    ),
  ]

  static func migrate(_ db: Database) throws {
    for change in constraints {
      try TableRebuild.rebuild(
        db, table: change.table, indexes: change.indexes, order: change.order, migration: "v9"
      ) { create in
        // The constraint ends its column's line (`<column> <type> NOT NULL CHECK (...),`).
        var lines = create.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let found = lines.indices.filter { lines[$0].hasSuffix(change.old + ",") }
        guard found.count == 1, let line = found.first else { return nil }
        lines[line] = lines[line].dropLast(change.old.count + 1) + change.new + ","
        return lines.joined(separator: "\n")
      }
    }
  }
}
