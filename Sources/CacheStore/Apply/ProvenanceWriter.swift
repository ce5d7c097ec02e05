import GRDB
import MigrationEngine

/// Writes the provenance of the rows a run writes: one `provenance` row per entity row written, referring to
/// it by table and id, with the input items it came from packed into `sources` (`ProvenanceSources`). Each
/// input file's path (`provenance_files`) and each label (`provenance_labels`) is stored once.
struct ProvenanceWriter {
  private let insert: BoundStatement
  /// The `seq` of the next row: rows written by one writer are numbered in the order they were written.
  private var sequence: Int64 = 1
  private var files: InternedTexts
  private var labels: InternedTexts

  init(db: Database) throws {
    insert = try BoundStatement(
      db,
      sql: "INSERT INTO provenance (row_table, row_id, run_id, seq, action, sources) VALUES (?, ?, ?, ?, ?, ?)")
    files = try InternedTexts(db: db, table: "provenance_files", column: "file")
    labels = try InternedTexts(db: db, table: "provenance_labels", column: "label")
  }

  /// Records that `action` on row `rowID` of `table` came from `sources` in run `runID`.
  mutating func record(
    table: StoreTable, rowID: Int64, runID: Int64, action: String, sources: [PlanSource]
  ) throws {
    var packed = ProvenanceSources()
    for source in sources {
      packed.append(
        ProvenanceSources.Source(
          fileID: try files.id(of: source.file), itemIndex: source.itemIndex, labelID: try labels.id(of: source.label))
      )
    }
    insert.bind(1, table.code)
    insert.bind(2, rowID)
    insert.bind(3, runID)
    insert.bind(4, sequence)
    insert.bind(5, action)
    insert.bind(6, bytes: packed.bytes)
    try insert.run()
    sequence += 1
  }
}

/// A table of distinct texts (`provenance_files`, `provenance_labels`: `id`, and the text UNIQUE), each text
/// inserted once and then known by id. A run names a few files and a few dozen labels, thousands of times.
struct InternedTexts {
  private let db: Database
  private let insert: BoundStatement
  private let select: BoundStatement
  private var ids: [String: Int64] = [:]

  init(db: Database, table: String, column: String) throws {
    self.db = db
    insert = try BoundStatement(
      db, sql: "INSERT INTO \(table) (\(column)) VALUES (?) ON CONFLICT(\(column)) DO NOTHING")
    select = try BoundStatement(db, sql: "SELECT id FROM \(table) WHERE \(column) = ?")
  }

  /// The id of `text`, inserted when new.
  mutating func id(of text: String) throws -> Int64 {
    if let known = ids[text] { return known }
    insert.bind(1, text)
    try insert.run()
    let id: Int64
    if db.changesCount == 1 {
      id = db.lastInsertedRowID
    } else {
      select.bind(1, text)
      guard let existing = try select.firstInteger() else {
        throw DatabaseError(resultCode: .SQLITE_INTERNAL, message: "an interned text was neither new nor found")
      }
      id = existing
    }
    ids[text] = id
    return id
  }
}
