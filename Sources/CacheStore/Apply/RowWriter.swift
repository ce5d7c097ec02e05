import Foundation
import GRDB
import MigrationEngine
import UnifiedCache

/// Writes entities inside one transaction, each table with its own statements prepared once (`BoundStatement`)
/// and bound from the rows `RowPreparation` recorded for the entities.
///
/// Every entity table is a rowid table indexed on the key's hash (`KeyHash`): a key's row is the row of that
/// hash whose key (`StoreTable.key(of:codec:)`) is the key; a new row is appended, and a changed row is
/// replaced in place, keeping its `id` (the provenance refers to it). Rows are written without their key text
/// (`key` NULL): it is the key their fields give.
///
/// New rows are written `TableWriter.batchSize` at a time, by one `INSERT` of that many rows, with the ids
/// SQLite would give them; `finish()` writes the last ones. Nothing else is read or written in between but
/// through this writer, which writes a table's waiting rows before it looks a key of theirs up.
struct RowWriter {
  enum Outcome {
    /// The key was new.
    case inserted
    /// The key existed with other content; the row was replaced.
    case updated
    /// The store already held exactly this entity; nothing written.
    case current
  }

  /// What a write did, and where the entity's row is: its table (`StoreTable.code`; the entity's kind, read
  /// from the entity, copied the whole entity) and its id.
  struct Written {
    var outcome: Outcome
    var tableCode: Int64
    var rowID: Int64
  }

  let db: Database
  let codec: RowCodec
  private let accounts: TableWriter
  private let credentials: TableWriter
  private let appMetadata: TableWriter

  init(db: Database, codec: RowCodec) throws {
    self.db = db
    self.codec = codec
    accounts = try TableWriter(db, .accounts)
    credentials = try TableWriter(db, .credentials)
    appMetadata = try TableWriter(db, .appMetadata)
  }

  /// Writes the row `row` of `rows`, prepared for `entry` (`RowPreparation`), unless the store already holds
  /// its entity, of kind `kind` and with the key hash `keyHash`.
  func upsert(
    _ row: Int, of rows: RecordedRows, kind: UnifiedEntityKind, keyHash: Int64, entry: UnsafePointer<PlanEntry>
  ) throws -> Written {
    switch kind {
    case .account: try accounts.upsert(row, of: rows, keyHash: keyHash, entry: entry, db: db, codec: codec)
    case .appMetadata: try appMetadata.upsert(row, of: rows, keyHash: keyHash, entry: entry, db: db, codec: codec)
    case .accessToken, .refreshToken, .idToken:
      try credentials.upsert(row, of: rows, keyHash: keyHash, entry: entry, db: db, codec: codec)
    }
  }

  /// Writes the rows still waiting for a full batch.
  func finish() throws {
    try accounts.flush()
    try credentials.flush()
    try appMetadata.flush()
  }

  /// The entity stored under `key`, or nil.
  static func existing(
    kind: UnifiedEntityKind, key: String, db: Database, codec: RowCodec
  ) throws -> AnyUnifiedEntity? {
    let table = StoreTable.of(kind)
    guard let row = try table.row(of: HashedKey(key), db: db, codec: codec) else { return nil }
    return try table.entity(from: row, codec: codec)
  }
}

/// The writes of one entity table: whether a key's hash has a row, new rows in batches, and the replacement of
/// a row keeping its id.
///
/// A table that held no row when the run began has only the rows of keys this run wrote (`written`): a new
/// key there is inserted without asking SQLite, where every other write looks the key's hash up first.
///
/// A class: a struct's writes through `RowWriter`'s switch copied the whole writer (its statements, its sets) in
/// and out for every row. Its state is not checked for exclusive access at run time (`@exclusivity(unchecked)`):
/// it is used by the one thread that writes the transaction, and the checks came with every row.
final class TableWriter {
  let table: StoreTable
  let find: BoundStatement
  /// An insert of `batchSize` rows (`StoreTable.insertSQL(rows:)`), each new row bound to it as it comes.
  let insert: BoundStatement
  let replace: BoundStatement
  /// The key hashes of the rows bound to `insert` and not written yet.
  @exclusivity(unchecked) var waiting: [Int64] = []
  /// The id of the next new row: SQLite's for an AUTOINCREMENT table, one more than the largest id the table
  /// ever held.
  @exclusivity(unchecked) var nextID: Int64
  /// The key hashes written by this run, when the table held no row before it (else nil).
  @exclusivity(unchecked) var written: KeyHashSet?

  /// New rows per `INSERT`: SQLite's work per statement (opening the table and its indexes, the AUTOINCREMENT
  /// counter, freeing the registers) is done once for them all.
  static let batchSize = 32

  init(_ db: Database, _ table: StoreTable) throws {
    self.table = table
    find = try BoundStatement(db, sql: "SELECT 1 FROM \(table.name) WHERE key_hash = ?")
    insert = try BoundStatement(db, sql: table.insertSQL(rows: Self.batchSize))
    replace = try BoundStatement(db, sql: table.replaceSQL)
    waiting.reserveCapacity(Self.batchSize)
    nextID =
      try Int64.fetchOne(
        db,
        sql: """
          SELECT max(COALESCE((SELECT seq FROM sqlite_sequence WHERE name = ?), 0),
            COALESCE((SELECT max(id) FROM \(table.name)), 0)) + 1
          """, arguments: [table.name]) ?? 1
    let isEmpty = try Bool.fetchOne(db, sql: "SELECT NOT EXISTS (SELECT 1 FROM \(table.name))") ?? false
    written = isEmpty ? KeyHashSet() : nil
  }

  /// See `RowWriter.upsert`. The entry's key and entity are read only when the table holds a row of the key's
  /// hash: reading them was a cache miss or two for every row written.
  func upsert(
    _ row: Int, of rows: RecordedRows, keyHash: Int64, entry: UnsafePointer<PlanEntry>, db: Database,
    codec: RowCodec
  ) throws -> RowWriter.Written {
    if waiting.contains(keyHash) { try flush() }
    if written?.contains(keyHash) ?? true {
      // A new key (most writes of a large apply) has no row of its hash: one index probe, nothing read.
      find.bind(1, keyHash)
      if try find.firstInteger() != nil, let canonicalKey = entry.pointee.canonicalKey,
        let entity = entry.pointee.entityBox,
        let stored = try table.row(of: HashedKey(canonicalKey, hash: keyHash), db: db, codec: codec)
      {
        let id: Int64 = stored["id"]
        if try table.entity(from: stored, codec: codec) == entity.value {
          return RowWriter.Written(outcome: .current, tableCode: table.code, rowID: id)
        }
        rows.bind(row: row, to: replace)
        replace.bind(table.idParameter, id)
        try replace.run()
        return RowWriter.Written(outcome: .updated, tableCode: table.code, rowID: id)
      }
    }
    guard nextID < Int64.max else {
      throw DatabaseError(resultCode: .SQLITE_FULL, message: "no row id is left in \(table.name)")
    }
    let id = nextID
    let parameters = insert.row(waiting.count, width: table.width)
    rows.bind(row: row, to: parameters)
    parameters.bind(table.idParameter, id)
    nextID += 1
    waiting.append(keyHash)
    written?.insert(keyHash)
    if waiting.count == Self.batchSize { try flush() }
    return RowWriter.Written(outcome: .inserted, tableCode: table.code, rowID: id)
  }

  /// Writes the new rows bound so far. In a batch that is not full, every row left has the id of the batch's
  /// first row and NULL in every column: `OR IGNORE` skips it (a NULL in a NOT NULL column, a taken id), and
  /// AUTOINCREMENT does not count it, as it would a NULL id.
  func flush() throws {
    guard !waiting.isEmpty else { return }
    let firstID = nextID - Int64(waiting.count)
    for row in waiting.count..<Self.batchSize { insert.row(row, width: table.width).bind(table.idParameter, firstID) }
    try insert.run(rows: waiting.count)
    waiting.removeAll(keepingCapacity: true)
  }
}

/// An entity table with its statements' SQL. A class: each row written names its table, and a copy of a struct
/// retained and released each of its strings.
final class StoreTable: Sendable {
  let name: String
  /// How `provenance.row_table` names the table.
  let code: Int64
  /// The columns of a row, `id` last.
  private let columnList: String
  /// The parameters of one row: every column and, last, `id`.
  let width: Int
  /// The parameter of `id` in a row of `insertSQL(rows:)` and in `replaceSQL`.
  let idParameter: Int32
  /// The rows that may be a key's: its hash, and its text or no stored key (`row(of:db:codec:)`).
  let selectSQL: String

  private init(name: String, code: Int64, columns: [String]) {
    self.name = name
    self.code = code
    columnList = (columns + ["id"]).joined(separator: ", ")
    width = columns.count + 1
    idParameter = Int32(width)
    selectSQL = "SELECT * FROM \(name) WHERE key_hash = ? AND (key = ? OR key IS NULL)"
  }

  /// An insert of `rows` rows of every column and, last, `id`. `OR IGNORE` (checked by
  /// `BoundStatement.run(rows:)`), see there; a batch of fewer rows is written by the same statement
  /// (`TableWriter.flush()`). Not `INSERT ... SELECT * FROM (VALUES ...) LIMIT ?`, which writes any number of rows
  /// through a second co-routine, copying every value of every row once more.
  func insertSQL(rows: Int) -> String {
    "INSERT OR IGNORE INTO \(name) (\(columnList)) VALUES "
      + Array(repeating: rowMarks, count: rows).joined(separator: ", ")
  }

  /// An insert that replaces the row of the same `id` (a write of a key the table holds).
  var replaceSQL: String { "INSERT OR REPLACE INTO \(name) (\(columnList)) VALUES \(rowMarks)" }

  /// The parameters of one row.
  private var rowMarks: String { "(" + Array(repeating: "?", count: width).joined(separator: ", ") + ")" }

  static let accounts = StoreTable(name: "accounts", code: 1, columns: RowCodec.accountColumns)
  static let credentials = StoreTable(name: "credentials", code: 2, columns: RowCodec.credentialColumns)
  static let appMetadata = StoreTable(name: "app_metadata", code: 3, columns: RowCodec.appMetadataColumns)

  static func of(_ kind: UnifiedEntityKind) -> StoreTable {
    switch kind {
    case .account: accounts
    case .appMetadata: appMetadata
    case .accessToken, .refreshToken, .idToken: credentials
    }
  }

  /// The row of `key`: among the rows of its hash, the one whose key (`key(of:codec:)`) is `key`.
  func row(of key: HashedKey, db: Database, codec: RowCodec) throws -> Row? {
    let rows = try Row.fetchCursor(db.cachedStatement(sql: selectSQL), arguments: [key.hash, key.text])
    while let row = try rows.next() {
      if self.key(of: row, codec: codec) == key.text { return row.copy() }
    }
    return nil
  }

  /// The key of a row: its `key` column, or, where that is NULL, the canonical key the row's fields give (the
  /// secret left unread); nil when the row cannot be read.
  func key(of row: Row, codec: RowCodec) -> String? {
    String.fromDatabaseValue(row["key"]) ?? derivedKey(of: row, codec: codec)
  }

  /// The canonical key the fields of a row give, whatever its `key` column holds; nil when the row cannot be
  /// read.
  func derivedKey(of row: Row, codec: RowCodec) -> String? {
    switch code {
    case Self.accounts.code: (try? codec.account(from: row))?.canonicalKey
    case Self.appMetadata.code: (try? codec.appMetadata(from: row))?.canonicalKey
    default: codec.derivedCredentialKey(from: row)
    }
  }

  /// The entity of a row of this table.
  func entity(from row: Row, codec: RowCodec) throws -> AnyUnifiedEntity {
    switch code {
    case Self.accounts.code: .account(try codec.account(from: row))
    case Self.appMetadata.code: .appMetadata(try codec.appMetadata(from: row))
    default: try codec.credential(from: row)
    }
  }
}
