import GRDB
import MigrationEngine

/// Writes the provenance of the rows a run writes: a row's key and kind (`provenance_rows`, found by the key's
/// hash, `KeyHash`), and each input file's path, are stored once and referred to by id; each source item adds a
/// row of numbers and its label.
struct ProvenanceWriter {
  private let db: Database
  private let insertRow: BoundStatement
  private let selectRow: BoundStatement
  private let insertFile: BoundStatement
  private let selectFile: BoundStatement
  private let insertSource: BoundStatement
  /// The ids of the files this run named (a run reads a few files, each naming thousands of items).
  private var fileIDs: [String: Int64] = [:]

  init(db: Database) throws {
    self.db = db
    insertRow = try BoundStatement(
      db, sql: "INSERT INTO provenance_rows (row_key, row_kind, key_hash) VALUES (?, ?, ?)")
    selectRow = try BoundStatement(
      db, sql: "SELECT id FROM provenance_rows WHERE key_hash = ? AND row_key = ? AND row_kind = ?")
    insertFile = try BoundStatement(
      db, sql: "INSERT INTO provenance_files (file) VALUES (?) ON CONFLICT(file) DO NOTHING")
    selectFile = try BoundStatement(db, sql: "SELECT id FROM provenance_files WHERE file = ?")
    insertSource = try BoundStatement(
      db,
      sql: """
        INSERT INTO provenance (row_id, run_id, file_id, item_index, label, action) VALUES (?, ?, ?, ?, ?, ?)
        """)
  }

  /// Records that `action` on the row `key` of `kind` came from `sources` in run `runID`. `isNewRow`: the
  /// row's key was not in its table before this write, so it has no provenance yet and its key is inserted
  /// without a lookup (rows are never deleted; a key removed by hand and written again gets a second
  /// `provenance_rows` entry, and `provenance(ofKey:)` still finds all of its history).
  mutating func record(
    key: HashedKey, kind: String, isNewRow: Bool, runID: Int64, action: String, sources: [PlanSource]
  ) throws {
    let rowID = try (isNewRow ? nil : existingRowID(key, kind)) ?? newRowID(key, kind)
    for source in sources {
      insertSource.bind(1, rowID)
      insertSource.bind(2, runID)
      insertSource.bind(3, try fileID(source.file))
      insertSource.bind(4, source.itemIndex.map(Int64.init))
      insertSource.bind(5, source.label)
      insertSource.bind(6, action)
      try insertSource.run()
    }
  }

  private func existingRowID(_ key: HashedKey, _ kind: String) throws -> Int64? {
    selectRow.bind(1, key.hash)
    selectRow.bind(2, key.text)
    selectRow.bind(3, kind)
    return try selectRow.firstInteger()
  }

  private func newRowID(_ key: HashedKey, _ kind: String) throws -> Int64 {
    insertRow.bind(1, key.text)
    insertRow.bind(2, kind)
    insertRow.bind(3, key.hash)
    try insertRow.run()
    return db.lastInsertedRowID
  }

  /// The id of an input file, inserted when new.
  private mutating func fileID(_ file: String) throws -> Int64 {
    if let known = fileIDs[file] { return known }
    insertFile.bind(1, file)
    try insertFile.run()
    let id: Int64
    if db.changesCount == 1 {
      id = db.lastInsertedRowID
    } else {
      selectFile.bind(1, file)
      guard let existing = try selectFile.firstInteger() else {
        throw DatabaseError(resultCode: .SQLITE_INTERNAL, message: "a provenance file was neither new nor found")
      }
      id = existing
    }
    fileIDs[file] = id
    return id
  }
}
