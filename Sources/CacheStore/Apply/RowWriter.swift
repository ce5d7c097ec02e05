import Foundation
import GRDB
import UnifiedCache

/// Writes entities inside one transaction, each table with its own statements prepared once and bound straight
/// from the entity (`BoundStatement`).
///
/// `accounts` and `app_metadata` are keyed by their key (`INSERT … ON CONFLICT(key) DO NOTHING` for a plan add,
/// `INSERT OR REPLACE` for an update). `credentials` is indexed on the key's hash (`KeyHash`): its row for a key
/// is found with `key_hash = ? AND key = ?`, and a changed row is deleted and inserted again.
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
  private let accountInsert: BoundStatement
  private let accountReplace: BoundStatement
  private let appMetadataInsert: BoundStatement
  private let appMetadataReplace: BoundStatement
  private let credentialInsert: BoundStatement
  private let credentialFind: BoundStatement
  private let credentialDelete: BoundStatement

  init(db: Database, codec: RowCodec) throws {
    self.db = db
    self.codec = codec
    accountInsert = try BoundStatement(db, sql: StoreTable.accounts.insertNewSQL)
    accountReplace = try BoundStatement(db, sql: StoreTable.accounts.replaceSQL)
    appMetadataInsert = try BoundStatement(db, sql: StoreTable.appMetadata.insertNewSQL)
    appMetadataReplace = try BoundStatement(db, sql: StoreTable.appMetadata.replaceSQL)
    credentialInsert = try BoundStatement(db, sql: StoreTable.credentials.insertSQL)
    credentialFind = try BoundStatement(db, sql: "SELECT rowid FROM credentials WHERE key_hash = ? AND key = ?")
    credentialDelete = try BoundStatement(db, sql: "DELETE FROM credentials WHERE rowid = ?")
  }

  /// Writes `entity` (canonical key `key`) unless the store already holds it. `expectNew` (a plan `add`) tries
  /// a plain insert first, which is the fast path of a large migration into a fresh store.
  func upsert(_ entity: AnyUnifiedEntity, key: HashedKey, expectNew: Bool) throws -> Outcome {
    switch entity {
    case .account(let account):
      return try upsertKeyed(entity, key: key.text, expectNew: expectNew) { statement in
        codec.bind(account, key: key.text, to: statement)
      }
    case .appMetadata(let metadata):
      return try upsertKeyed(entity, key: key.text, expectNew: expectNew) { statement in
        codec.bind(metadata, key: key.text, to: statement)
      }
    case .accessToken, .refreshToken, .idToken:
      return try upsertCredential(entity, key: key, expectNew: expectNew)
    }
  }

  /// `accounts` and `app_metadata`: the key is the primary key.
  private func upsertKeyed(
    _ entity: AnyUnifiedEntity, key: String, expectNew: Bool, bind: (BoundStatement) -> Void
  ) throws -> Outcome {
    let isAccount = entity.kind == .account
    if expectNew {
      let insert = isAccount ? accountInsert : appMetadataInsert
      bind(insert)
      try insert.run()
      if db.changesCount == 1 { return .inserted }
    }
    let existing = try Self.existing(kind: entity.kind, key: key, db: db, codec: codec)
    if existing == entity { return .current }
    let replace = isAccount ? accountReplace : appMetadataReplace
    bind(replace)
    try replace.run()
    return existing == nil ? .inserted : .updated
  }

  private func upsertCredential(_ entity: AnyUnifiedEntity, key: HashedKey, expectNew: Bool) throws -> Outcome {
    credentialFind.bind(1, key.hash)
    credentialFind.bind(2, key.text)
    let rowID = try credentialFind.firstInteger()
    if let rowID {
      if try Self.existing(kind: entity.kind, key: key.text, db: db, codec: codec) == entity { return .current }
      credentialDelete.bind(1, rowID)
      try credentialDelete.run()
    }
    switch entity {
    case .accessToken(let token): try codec.bind(token, key: key, to: credentialInsert)
    case .refreshToken(let token): try codec.bind(token, key: key, to: credentialInsert)
    case .idToken(let token): try codec.bind(token, key: key, to: credentialInsert)
    case .account, .appMetadata: preconditionFailure("not a credential")
    }
    try credentialInsert.run()
    return rowID == nil ? .inserted : .updated
  }

  /// The entity stored under `key`, or nil.
  static func existing(
    kind: UnifiedEntityKind, key: String, db: Database, codec: RowCodec
  ) throws -> AnyUnifiedEntity? {
    let select = try db.cachedStatement(sql: StoreTable.of(kind).selectSQL)
    let arguments: StatementArguments =
      switch kind {
      case .account, .appMetadata: [key]
      case .accessToken, .refreshToken, .idToken: [KeyHash.of(key), key]
      }
    guard let row = try Row.fetchOne(select, arguments: arguments) else { return nil }
    switch kind {
    case .account: return .account(try codec.account(from: row))
    case .appMetadata: return .appMetadata(try codec.appMetadata(from: row))
    case .accessToken, .refreshToken, .idToken: return try codec.credential(from: row)
    }
  }
}

/// An entity table with its statements' SQL.
struct StoreTable: Sendable {
  let name: String
  /// A plain insert of every column.
  let insertSQL: String
  /// Where a row is found: by key (the primary key of `accounts` and `app_metadata`), or by the key's hash
  /// and the key (`credentials`).
  let selectSQL: String

  private init(name: String, columns: [String], hashedKey: Bool) {
    let list = columns.joined(separator: ", ")
    let marks = Array(repeating: "?", count: columns.count).joined(separator: ", ")
    self.name = name
    insertSQL = "INSERT INTO \(name) (\(list)) VALUES (\(marks))"
    selectSQL = "SELECT * FROM \(name) WHERE " + (hashedKey ? "key_hash = ? AND key = ?" : "key = ?")
  }

  /// An insert that does nothing when the key exists (tables keyed by `key`).
  var insertNewSQL: String { insertSQL + " ON CONFLICT(key) DO NOTHING" }
  /// An insert that replaces the row of the same key (tables keyed by `key`).
  var replaceSQL: String { "INSERT OR REPLACE" + insertSQL.dropFirst("INSERT".count) }

  static let accounts = StoreTable(name: "accounts", columns: RowCodec.accountColumns, hashedKey: false)
  static let credentials = StoreTable(name: "credentials", columns: RowCodec.credentialColumns, hashedKey: true)
  static let appMetadata = StoreTable(name: "app_metadata", columns: RowCodec.appMetadataColumns, hashedKey: false)

  static func of(_ kind: UnifiedEntityKind) -> StoreTable {
    switch kind {
    case .account: accounts
    case .appMetadata: appMetadata
    case .accessToken, .refreshToken, .idToken: credentials
    }
  }
}
