import Foundation
import GRDB
import UnifiedCache

/// Writes entities inside one transaction with cached prepared statements (one per table and purpose).
struct RowWriter {
  enum Outcome {
    /// The key was new.
    case inserted
    /// The key existed with other content; the row was replaced.
    case updated
    /// The store already held exactly this entity; nothing written.
    case current
  }

  let db: Database
  let codec: RowCodec

  /// Writes `entity` unless the store already holds it. `expectNew` (a plan `add`) tries a plain insert first,
  /// which is the fast path of a large migration into a fresh store.
  func upsert(_ entity: AnyUnifiedEntity, expectNew: Bool) throws -> Outcome {
    let (table, arguments) = try Self.row(for: entity, codec: codec)
    if expectNew {
      let insert = try db.cachedStatement(sql: table.insertSQL)
      try insert.execute(arguments: arguments)
      if db.changesCount == 1 { return .inserted }
    }
    let existing = try self.existing(kind: entity.kind, key: entity.canonicalKey)
    if existing == entity { return .current }
    let replace = try db.cachedStatement(sql: table.replaceSQL)
    try replace.execute(arguments: arguments)
    return existing == nil ? .inserted : .updated
  }

  /// The entity stored under `key`, or nil.
  func existing(kind: UnifiedEntityKind, key: String) throws -> AnyUnifiedEntity? {
    let select = try db.cachedStatement(sql: StoreTable.of(kind).selectSQL)
    guard let row = try Row.fetchOne(select, arguments: [key]) else { return nil }
    switch kind {
    case .account: return .account(try codec.account(from: row))
    case .appMetadata: return .appMetadata(try codec.appMetadata(from: row))
    case .accessToken, .refreshToken, .idToken: return try codec.credential(from: row)
    }
  }

  static func row(for entity: AnyUnifiedEntity, codec: RowCodec) throws -> (StoreTable, StatementArguments) {
    switch entity {
    case .account(let account): (.accounts, codec.arguments(for: account))
    case .appMetadata(let metadata): (.appMetadata, codec.arguments(for: metadata))
    case .accessToken(let token): (.credentials, try codec.arguments(for: token))
    case .refreshToken(let token): (.credentials, try codec.arguments(for: token))
    case .idToken(let token): (.credentials, try codec.arguments(for: token))
    }
  }
}

/// An entity table with its statements, built once.
struct StoreTable: Sendable {
  let name: String
  let insertSQL: String
  let replaceSQL: String
  let selectSQL: String

  init(name: String, columns: [String]) {
    let list = columns.joined(separator: ", ")
    let marks = Array(repeating: "?", count: columns.count).joined(separator: ", ")
    self.name = name
    insertSQL = "INSERT INTO \(name) (\(list)) VALUES (\(marks)) ON CONFLICT(key) DO NOTHING"
    replaceSQL = "INSERT OR REPLACE INTO \(name) (\(list)) VALUES (\(marks))"
    selectSQL = "SELECT * FROM \(name) WHERE key = ?"
  }

  static let accounts = StoreTable(name: "accounts", columns: RowCodec.accountColumns)
  static let credentials = StoreTable(name: "credentials", columns: RowCodec.credentialColumns)
  static let appMetadata = StoreTable(name: "app_metadata", columns: RowCodec.appMetadataColumns)

  static func of(_ kind: UnifiedEntityKind) -> StoreTable {
    switch kind {
    case .account: accounts
    case .appMetadata: appMetadata
    case .accessToken, .refreshToken, .idToken: credentials
    }
  }
}
