import GRDB
import MigrationEngine

/// Writes the provenance of the rows a run writes (schema v5): a row's key and kind, and each input file's path,
/// are stored once and referred to by id; each source item adds a row of numbers and its label.
struct ProvenanceWriter {
  private let db: Database
  private let insertRow: Statement
  private let selectRow: Statement
  private let insertFile: Statement
  private let selectFile: Statement
  private let insertSource: Statement
  /// The ids of the files this run named (a run reads a few files, each naming thousands of items).
  private var fileIDs: [String: Int64] = [:]

  init(db: Database) throws {
    self.db = db
    insertRow = try db.cachedStatement(
      sql: "INSERT INTO provenance_rows (row_key, row_kind) VALUES (?, ?) ON CONFLICT(row_key, row_kind) DO NOTHING")
    selectRow = try db.cachedStatement(sql: "SELECT id FROM provenance_rows WHERE row_key = ? AND row_kind = ?")
    insertFile = try db.cachedStatement(
      sql: "INSERT INTO provenance_files (file) VALUES (?) ON CONFLICT(file) DO NOTHING")
    selectFile = try db.cachedStatement(sql: "SELECT id FROM provenance_files WHERE file = ?")
    insertSource = try db.cachedStatement(
      sql: """
        INSERT INTO provenance (row_id, run_id, file_id, item_index, label, action) VALUES (?, ?, ?, ?, ?, ?)
        """)
  }

  /// Records that `action` on the row `key` of `kind` came from `sources` in run `runID`.
  mutating func record(
    key: String, kind: String, runID: Int64, action: String, sources: [PlanSource]
  ) throws {
    let rowID = try id(inserting: insertRow, selecting: selectRow, [key, kind])
    for source in sources {
      let fileID: Int64
      if let known = fileIDs[source.file] {
        fileID = known
      } else {
        fileID = try id(inserting: insertFile, selecting: selectFile, [source.file])
        fileIDs[source.file] = fileID
      }
      try insertSource.execute(arguments: [rowID, runID, fileID, source.itemIndex, source.label, action])
    }
  }

  /// The id of the row `arguments` name: the new row's, or, when it exists, the existing one's (a new key is
  /// the common case of a large migration, and is not read back).
  private func id(
    inserting insert: Statement, selecting select: Statement, _ arguments: StatementArguments
  ) throws -> Int64 {
    try insert.execute(arguments: arguments)
    if db.changesCount == 1 { return db.lastInsertedRowID }
    guard let existing = try Int64.fetchOne(select, arguments: arguments) else {
      throw DatabaseError(resultCode: .SQLITE_INTERNAL, message: "a provenance key was neither new nor found")
    }
    return existing
  }
}
