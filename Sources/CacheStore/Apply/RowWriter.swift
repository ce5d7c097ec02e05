import Foundation
import GRDB
import UnifiedCache

/// Writes entities inside one transaction, each table with its own statements prepared once and bound straight
/// from the entity (`BoundStatement`).
///
/// Every entity table is a rowid table indexed on the key's hash (`KeyHash`): a key's row is found with
/// `key_hash = ? AND key = ?`; a new row is appended, and a changed row is replaced in place, keeping its `id`
/// (the provenance refers to it).
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

  /// Writes `entity` (canonical key `key`) unless the store already holds it.
  func upsert(_ entity: AnyUnifiedEntity, key: HashedKey) throws -> Written {
    let statements =
      switch entity {
      case .account: accounts
      case .appMetadata: appMetadata
      case .accessToken, .refreshToken, .idToken: credentials
      }
    statements.find.bind(1, key.hash)
    statements.find.bind(2, key.text)
    let rowID = try statements.find.firstInteger()
    if let rowID, try Self.existing(statements.table, rowID: rowID, db: db, codec: codec) == entity {
      return Written(outcome: .current, rowID: rowID)
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
    let select = try db.cachedStatement(sql: table.selectSQL)
    guard let row = try Row.fetchOne(select, arguments: [KeyHash.of(key), key]) else { return nil }
    return try table.entity(from: row, codec: codec)
  }

  /// The entity of row `rowID` of `table`, or nil.
  private static func existing(
    _ table: StoreTable, rowID: Int64, db: Database, codec: RowCodec
  ) throws -> AnyUnifiedEntity? {
    let select = try db.cachedStatement(sql: "SELECT * FROM \(table.name) WHERE id = ?")
    guard let row = try Row.fetchOne(select, arguments: [rowID]) else { return nil }
    return try table.entity(from: row, codec: codec)
  }

  /// One table's statements: find a key's row, append a row, replace a row keeping its id.
  private struct TableStatements {
    let table: StoreTable
    let find: BoundStatement
    let insert: BoundStatement
    let replace: BoundStatement

    init(_ db: Database, _ table: StoreTable) throws {
      self.table = table
      find = try BoundStatement(db, sql: "SELECT id FROM \(table.name) WHERE key_hash = ? AND key = ?")
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
  /// Where a row is found: by the key's hash and the key.
  let selectSQL: String

  private init(name: String, code: Int64, columns: [String]) {
    let list = (columns + ["id"]).joined(separator: ", ")
    let marks = Array(repeating: "?", count: columns.count + 1).joined(separator: ", ")
    self.name = name
    self.code = code
    insertSQL = "INSERT INTO \(name) (\(list)) VALUES (\(marks))"
    idParameter = Int32(columns.count + 1)
    selectSQL = "SELECT * FROM \(name) WHERE key_hash = ? AND key = ?"
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

  /// The entity of a row of this table.
  func entity(from row: Row, codec: RowCodec) throws -> AnyUnifiedEntity {
    switch code {
    case Self.accounts.code: .account(try codec.account(from: row))
    case Self.appMetadata.code: .appMetadata(try codec.appMetadata(from: row))
    default: try codec.credential(from: row)
    }
  }
}
