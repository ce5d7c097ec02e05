import Foundation
import GRDB
import UnifiedCache

/// Writes entities inside one transaction, each table with its own statements prepared once and bound straight
/// from the entity (`BoundStatement`).
///
/// Every entity table is a rowid table indexed on the key's hash (`KeyHash`): a key's row is the row of that
/// hash whose key (`StoreTable.key(of:codec:)`) is the key; a new row is appended, and a changed row is
/// replaced in place, keeping its `id` (the provenance refers to it). Rows are written without their key text
/// (`key` NULL): it is the key their fields give.
struct RowWriter {
  enum Outcome {
    /// The key was new.
    case inserted
    /// The key existed with other content; the row was replaced.
    case updated
    /// The store already held exactly this entity; nothing written.
    case current
  }

  /// What a write did, and the id of the entity's row.
  struct Written {
    var outcome: Outcome
    var rowID: Int64
  }

  let db: Database
  let codec: RowCodec
  private let accounts: TableStatements
  private let credentials: TableStatements
  private let appMetadata: TableStatements

  init(db: Database, codec: RowCodec) throws {
    self.db = db
    self.codec = codec
    accounts = try TableStatements(db, .accounts)
    credentials = try TableStatements(db, .credentials)
    appMetadata = try TableStatements(db, .appMetadata)
  }

  /// Writes `entity` unless the store already holds it; `key` is the entity's canonical key.
  func upsert(_ entity: AnyUnifiedEntity, key: HashedKey) throws -> Written {
    let statements =
      switch entity {
      case .account: accounts
      case .appMetadata: appMetadata
      case .accessToken, .refreshToken, .idToken: credentials
      }
    // A new key (most writes of a large apply) has no row of its hash: one index probe, nothing read.
    statements.find.bind(1, key.hash)
    var rowID: Int64?
    if try statements.find.firstInteger() != nil, let row = try statements.table.row(of: key, db: db, codec: codec) {
      let id: Int64 = row["id"]
      if try statements.table.entity(from: row, codec: codec) == entity {
        return Written(outcome: .current, rowID: id)
      }
      rowID = id
    }
    let write = rowID == nil ? statements.insert : statements.replace
    switch entity {
    case .account(let account): codec.bind(account, key: key, to: write)
    case .appMetadata(let metadata): codec.bind(metadata, key: key, to: write)
    case .accessToken(let token): try codec.bind(token, key: key, to: write)
    case .refreshToken(let token): try codec.bind(token, key: key, to: write)
    case .idToken(let token): try codec.bind(token, key: key, to: write)
    }
    write.bind(statements.table.idParameter, rowID)
    try write.run()
    guard let rowID else { return Written(outcome: .inserted, rowID: db.lastInsertedRowID) }
    return Written(outcome: .updated, rowID: rowID)
  }

  /// The entity stored under `key`, or nil.
  static func existing(
    kind: UnifiedEntityKind, key: String, db: Database, codec: RowCodec
  ) throws -> AnyUnifiedEntity? {
    let table = StoreTable.of(kind)
    guard let row = try table.row(of: HashedKey(key), db: db, codec: codec) else { return nil }
    return try table.entity(from: row, codec: codec)
  }

  /// One table's statements: whether a key's hash has a row, append a row, replace a row keeping its id.
  private struct TableStatements {
    let table: StoreTable
    let find: BoundStatement
    let insert: BoundStatement
    let replace: BoundStatement

    init(_ db: Database, _ table: StoreTable) throws {
      self.table = table
      find = try BoundStatement(db, sql: "SELECT 1 FROM \(table.name) WHERE key_hash = ?")
      insert = try BoundStatement(db, sql: table.insertSQL)
      replace = try BoundStatement(db, sql: table.replaceSQL)
    }
  }
}

/// An entity table with its statements' SQL.
struct StoreTable: Sendable {
  let name: String
  /// How `provenance.row_table` names the table.
  let code: Int64
  /// An insert of every column and, last, `id` (NULL: a new id).
  let insertSQL: String
  /// The parameter of `id` in `insertSQL` and `replaceSQL`.
  let idParameter: Int32
  /// The rows that may be a key's: its hash, and its text or no stored key (`row(of:db:codec:)`).
  let selectSQL: String

  private init(name: String, code: Int64, columns: [String]) {
    let list = (columns + ["id"]).joined(separator: ", ")
    let marks = Array(repeating: "?", count: columns.count + 1).joined(separator: ", ")
    self.name = name
    self.code = code
    insertSQL = "INSERT INTO \(name) (\(list)) VALUES (\(marks))"
    idParameter = Int32(columns.count + 1)
    selectSQL = "SELECT * FROM \(name) WHERE key_hash = ? AND (key = ? OR key IS NULL)"
  }

  /// An insert that replaces the row of the same `id` (a write of a key the table holds).
  var replaceSQL: String { "INSERT OR REPLACE" + insertSQL.dropFirst("INSERT".count) }

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
