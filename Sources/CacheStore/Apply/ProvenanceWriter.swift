import Adal2MSALSupport
import GRDB
import MigrationEngine

/// Writes the provenance of the rows a run writes: one `provenance` row per entity row written, referring to
/// it by table and id, with the input items it came from packed into `sources` (`ProvenanceSources`). Each
/// input file's path (`provenance_files`) and each label (`provenance_labels`) is stored once. The sources come
/// prepared (`RowPreparation`): their files and labels numbered in the order met, which this writer maps to
/// the tables' ids.
///
/// Rows are bound to one `INSERT` of up to `batchSize` rows as they come (as `RowWriter` writes new entity
/// rows) and written when it is full; `finish()` writes the last ones.
struct ProvenanceWriter {
  private let insert: BoundStatement
  /// The `seq` of the next row: rows written by one writer are numbered in the order they were written.
  private var sequence: Int64 = 1
  /// Rows bound to `insert` and not written yet.
  private var waiting = 0
  private var files: InternedTexts
  private var labels: InternedTexts
  /// The `provenance_files` and `provenance_labels` ids of the texts learned, in the order learned.
  private var fileIDs: [Int64] = []
  private var labelIDs: [Int64] = []
  /// The sources of the row being bound, its buffer kept from row to row (the statement copies the bytes).
  private var packed = ProvenanceSources()

  private static let batchSize = 32
  private static let width = 6

  init(db: Database) throws {
    let rows = Array(repeating: "(?, ?, ?, ?, ?, ?)", count: Self.batchSize).joined(separator: ", ")
    insert = try BoundStatement(
      db,
      sql: """
        INSERT OR IGNORE INTO provenance (row_table, row_id, run_id, seq, action, sources) VALUES \(rows)
        """)
    files = try InternedTexts(db: db, table: "provenance_files", column: "file")
    labels = try InternedTexts(db: db, table: "provenance_labels", column: "label")
  }

  /// Forgets the texts learned, for a new `RowPreparation`, which numbers the texts it meets from 0.
  mutating func forgetLearned() {
    fileIDs.removeAll(keepingCapacity: true)
    labelIDs.removeAll(keepingCapacity: true)
  }

  /// Learns the texts a chunk of prepared rows names for the first time (`RowPreparation.Chunk`): their ids,
  /// in order, follow those learned before.
  mutating func learn(files newFiles: [String], labels newLabels: [String]) throws {
    for file in newFiles { fileIDs.append(try files.id(of: file)) }
    for label in newLabels { labelIDs.append(try labels.id(of: label)) }
  }

  /// Records that `action` on row `rowID` of the table `tableCode` (`StoreTable.code`) came from `sources` in run
  /// `runID`; their files and labels are numbered as learned (`learn(files:labels:)`).
  mutating func record(
    tableCode: Int64, rowID: Int64, runID: Int64, action: String, sources: ArraySlice<PreparedSource>
  ) throws {
    packed.removeAll()
    for source in sources {
      packed.append(
        ProvenanceSources.Source(
          fileID: fileIDs[Int(source.file)], itemIndex: source.itemIndex, labelID: labelIDs[Int(source.label)]))
    }
    try recordPacked(tableCode: tableCode, rowID: rowID, runID: runID, action: action)
  }

  /// `record(tableCode:rowID:runID:action:sources:)` of sources as a plan names them, for provenance carried
  /// from an older layout.
  mutating func record(tableCode: Int64, rowID: Int64, runID: Int64, action: String, sources: [PlanSource]) throws {
    packed.removeAll()
    for source in sources {
      packed.append(
        ProvenanceSources.Source(
          fileID: try files.id(of: source.file), itemIndex: source.itemIndex, labelID: try labels.id(of: source.label)))
    }
    try recordPacked(tableCode: tableCode, rowID: rowID, runID: runID, action: action)
  }

  /// Binds the row of the sources in `packed`; writes the batch when it is full.
  private mutating func recordPacked(tableCode: Int64, rowID: Int64, runID: Int64, action: String) throws {
    let row = insert.row(waiting, width: Self.width)
    row.bind(1, tableCode)
    row.bind(2, rowID)
    row.bind(3, runID)
    row.bind(4, sequence)
    row.bind(5, action)
    row.bind(6, bytes: packed.bytes)
    sequence += 1
    waiting += 1
    if waiting == Self.batchSize { try finish() }
  }

  /// Writes the rows bound so far. In a batch that is not full, the rows left are NULL in every column: `OR
  /// IGNORE` skips them (`RowWriter`'s `flush()`).
  mutating func finish() throws {
    guard waiting > 0 else { return }
    try insert.run(rows: waiting)
    waiting = 0
  }
}

/// A table of distinct texts (`provenance_files`, `provenance_labels`: `id`, and the text UNIQUE), each text
/// inserted once and then known by id. A run names a few files and a few dozen labels, thousands of times.
///
/// Texts are told apart by their exact scalars (their UTF-8 bytes), as SQLite's UNIQUE tells them apart by
/// their bytes: under `String`'s equality, two files whose names spell "é" differently (two files on disk)
/// shared one id, and the second file's rows were recorded under the first one's name.
struct InternedTexts {
  private let db: Database
  private let insert: BoundStatement
  private let select: BoundStatement
  /// The texts met, each with its id.
  private var ids = TextMemo<Int64>()

  init(db: Database, table: String, column: String) throws {
    self.db = db
    insert = try BoundStatement(
      db, sql: "INSERT INTO \(table) (\(column)) VALUES (?) ON CONFLICT(\(column)) DO NOTHING")
    select = try BoundStatement(db, sql: "SELECT id FROM \(table) WHERE \(column) = ?")
  }

  /// The id of `text`, inserted when new.
  mutating func id(of text: String) throws -> Int64 {
    if let id = ids.value(of: text) { return id }
    let id = try lookUp(text)
    ids.remember(id, for: text)
    return id
  }

  /// The id of a text this writer has not met yet: inserted, or the one an earlier run inserted.
  private func lookUp(_ text: String) throws -> Int64 {
    insert.bind(1, text)
    try insert.run()
    if db.changesCount == 1 { return db.lastInsertedRowID }
    select.bind(1, text)
    guard let existing = try select.firstInteger() else {
      throw DatabaseError(resultCode: .SQLITE_INTERNAL, message: "an interned text was neither new nor found")
    }
    return existing
  }
}

/// An input item of a row's provenance, its file and label numbered as a `RowPreparation` met them.
struct PreparedSource {
  var file: Int32
  var itemIndex: Int?
  var label: Int32
}
