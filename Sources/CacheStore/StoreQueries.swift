import Adal2MSALSupport
import Foundation
import GRDB
import UnifiedCache

/// Reading the store back as the unified model.
extension CacheStore {
  /// The whole cache: every entity and the unknown top-level sections (in the order they were first stored).
  /// The migration engine plans against this as the "existing" side.
  public func contents() throws(CacheStoreError) -> UnifiedCacheContents {
    try read { db, codec in
      var contents = UnifiedCacheContents()
      try Self.reserveCapacity(in: &contents, db: db)
      try Self.upsertRows(of: .accounts, into: &contents, db: db) { row throws(CacheStoreError) in
        .account(try codec.account(from: row))
      }
      try Self.upsertRows(of: .credentials, into: &contents, db: db, codec.credential(from:))
      try Self.upsertRows(of: .appMetadata, into: &contents, db: db) { row throws(CacheStoreError) in
        .appMetadata(try codec.appMetadata(from: row))
      }
      for row in try Row.fetchAll(db, sql: "SELECT name, value FROM unknown_sections ORDER BY position") {
        guard let name = String.fromDatabaseValue(row["name"]) else {
          throw codec.corrupt("an unknown section whose name is not text", rowKey: "")
        }
        guard let text = try codec.fieldText(row["value"], column: "unknown_sections.value", rowKey: name) else {
          throw codec.corrupt("an unknown section without a value", rowKey: name)
        }
        do {
          contents.unknownSections[name] = try JSONParser().parse(Data(text.utf8))
        } catch {
          throw codec.corrupt("an unknown section that is not valid JSON", rowKey: name)
        }
      }
      return contents
    }
  }

  /// Sizes each section for the rows the store holds of its kind, so that reading a large store does not
  /// rehash every section as it grows (a sixth of reading the 40k-item dump's store).
  private static func reserveCapacity(in contents: inout UnifiedCacheContents, db: Database) throws {
    contents.accounts.reserveCapacity(try Int.fetchOne(db, sql: "SELECT count(*) FROM accounts") ?? 0)
    contents.appMetadata.reserveCapacity(try Int.fetchOne(db, sql: "SELECT count(*) FROM app_metadata") ?? 0)
    let kinds = try Row.fetchAll(db, sql: "SELECT credential_kind, count(*) FROM credentials GROUP BY credential_kind")
    for row in kinds {
      let count: Int = row[1]
      switch String.fromDatabaseValue(row[0]).flatMap(UnifiedEntityKind.init(rawValue:)) {
      case .accessToken?: contents.accessTokens.reserveCapacity(count)
      case .refreshToken?: contents.refreshTokens.reserveCapacity(count)
      case .idToken?: contents.idTokens.reserveCapacity(count)
      default: continue
      }
    }
  }

  /// Upserts the entities of `table`'s rows into `contents` as `ORDER BY key` did when every row stored its key
  /// (the last row of a canonical key wins). Rows that store no key (their key is their canonical key: every
  /// row written since schema v8) come first, in id order; then the few that keep a key of their own (an older
  /// store's key that differs from the one their fields give), in key order, each replacing the entity of its
  /// canonical key unless a derived row holds it under a larger key.
  private static func upsertRows(
    of table: StoreTable, into contents: inout UnifiedCacheContents, db: Database,
    _ entity: (Row) throws(CacheStoreError) -> AnyUnifiedEntity
  ) throws {
    let derived = try Row.fetchCursor(db, sql: "SELECT * FROM \(table.name) WHERE key IS NULL ORDER BY id")
    while let row = try derived.next() { contents.upsert(try entity(row)) }
    var keptWinners: Set<String> = []
    for row in try Row.fetchAll(db, sql: "SELECT * FROM \(table.name) WHERE key IS NOT NULL ORDER BY key") {
      let kept = try entity(row)
      let stored = String.fromDatabaseValue(row["key"]) ?? ""
      let canonical = kept.canonicalKey
      if let replaced = contents.upsert(kept), !keptWinners.contains(canonical),
        stored.utf8.lexicographicallyPrecedes(canonical.utf8)
      {
        contents.upsert(replaced)
      } else {
        keptWinners.insert(canonical)
      }
    }
  }

  /// The entities of `rows` in key order (`StoreTable.key(of:codec:)`, bytewise as SQLite's `ORDER BY key`).
  private static func inKeyOrder<Entity>(
    _ rows: [Row], _ entity: (Row) throws(CacheStoreError) -> Entity, canonicalKey: (Entity) -> String
  ) throws(CacheStoreError) -> [Entity] {
    var keyed: [(key: String, entity: Entity)] = []
    keyed.reserveCapacity(rows.count)
    for row in rows {
      let value = try entity(row)
      keyed.append((String.fromDatabaseValue(row["key"]) ?? canonicalKey(value), value))
    }
    return keyed.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }.map(\.entity)
  }

  /// The rows that `sql` finds by `KeyHash.of(wanted)` (its first argument, then `more`) whose `column`,
  /// normalized, is `wanted`: the lookups by hash (`accounts_by_username`, `accounts_by_home_account_hash`,
  /// `credentials_by_home_account_hash`) leave out a row of another text with the same hash.
  private static func rows(
    _ db: Database, _ sql: String, hashOf wanted: String, _ more: [(any DatabaseValueConvertible)?] = [],
    whose column: String, normalized: (String) -> String?
  ) throws -> [Row] {
    try Row.fetchAll(db, sql: sql, arguments: StatementArguments([KeyHash.of(wanted)] + more)).filter { row in
      String.fromDatabaseValue(row[column]).flatMap(normalized) == wanted
    }
  }

  /// Every account, in key order.
  public func allAccounts() throws(CacheStoreError) -> [UnifiedAccount] {
    try read { db, codec in
      try Self.inKeyOrder(
        try Row.fetchAll(db, sql: "SELECT * FROM accounts"), codec.account(from:), canonicalKey: \.canonicalKey)
    }
  }

  /// The accounts whose username matches (trimmed, case-insensitive), optionally only in the alias group of
  /// `environment` (login.microsoftonline.com finds login.windows.net). One lookup in `accounts_by_username`
  /// (`username_hash`); an account of another username with the same hash is left out by comparing its own.
  public func accountsForUsername(_ username: String, environment: String? = nil) throws(CacheStoreError)
    -> [UnifiedAccount]
  {
    guard let wanted = AccountLookup.normalizedUsername(username) else { return [] }
    return try read { db, codec in
      let rows =
        if let environment {
          try Self.rows(
            db, "SELECT * FROM accounts WHERE username_hash = ? AND environment_group = ?", hashOf: wanted,
            [EnvironmentAliases.group(forHost: environment).name], whose: "username",
            normalized: AccountLookup.normalizedUsername)
        } else {
          try Self.rows(
            db, "SELECT * FROM accounts WHERE username_hash = ?", hashOf: wanted, whose: "username",
            normalized: AccountLookup.normalizedUsername)
        }
      return try Self.inKeyOrder(rows, codec.account(from:), canonicalKey: \.canonicalKey)
    }
  }

  /// Every account with this `home_account_id` (case-insensitive): one per tenant and environment. One lookup
  /// in `accounts_by_home_account_hash`; an account of another id with the same hash is left out by comparing
  /// its own.
  public func accountsForIdentifier(_ homeAccountID: String) throws(CacheStoreError) -> [UnifiedAccount] {
    let wanted = RowCodec.normalizedHomeAccountID(homeAccountID.trimmedWhitespace())
    guard !wanted.isEmpty else { return [] }
    return try read { db, codec in
      let rows = try Self.rows(
        db, "SELECT * FROM accounts WHERE home_account_hash = ?", hashOf: wanted, whose: "home_account_id",
        normalized: RowCodec.normalizedHomeAccountID)
      return try Self.inKeyOrder(rows, codec.account(from:), canonicalKey: \.canonicalKey)
    }
  }

  /// The account for this `home_account_id`, its home-tenant entry first (realm = the `utid` part), as MSAL.
  public func accountForIdentifier(_ homeAccountID: String) throws(CacheStoreError) -> UnifiedAccount? {
    let accounts = try accountsForIdentifier(homeAccountID)
    return accounts.first(where: \.isInHomeTenant) ?? accounts.first
  }

  /// The account for this username, its home-tenant entry first.
  public func accountForUsername(_ username: String, environment: String? = nil) throws(CacheStoreError)
    -> UnifiedAccount?
  {
    let accounts = try accountsForUsername(username, environment: environment)
    return accounts.first(where: \.isInHomeTenant) ?? accounts.first
  }

  /// Every credential (access, refresh and id tokens) of one account, in key order. One lookup in
  /// `credentials_by_home_account_hash`; rows of another account with the same hash are left out by comparing
  /// their `home_account_id`, lowercased.
  public func credentials(ofHomeAccountID homeAccountID: String) throws(CacheStoreError) -> [AnyUnifiedEntity] {
    let wanted = RowCodec.normalizedHomeAccountID(homeAccountID)
    return try read { db, codec in
      let rows = try Self.rows(
        db, "SELECT * FROM credentials WHERE home_account_hash = ?", hashOf: wanted, whose: "home_account_id",
        normalized: RowCodec.normalizedHomeAccountID)
      return try Self.inKeyOrder(rows, codec.credential(from:), canonicalKey: \.canonicalKey)
    }
  }

  /// The entity stored under a canonical key, or nil.
  public func entity(kind: UnifiedEntityKind, key: String) throws(CacheStoreError) -> AnyUnifiedEntity? {
    try read { db, codec in try RowWriter.existing(kind: kind, key: key, db: db, codec: codec) }
  }

  /// Every recorded run, oldest first.
  public func runs() throws(CacheStoreError) -> [StoredRun] {
    try read { db, _ in
      try Row.fetchAll(db, sql: "SELECT * FROM runs ORDER BY id").map { row in
        StoredRun(
          id: row["id"], startedAt: row["started_at"], finishedAt: row["finished_at"], plannedAt: row["planned_at"],
          toolVersion: row["tool_version"], inputsJSON: row["inputs"], optionsJSON: row["options"],
          summaryJSON: row["summary"])
      }
    }
  }

  /// The provenance of a row: which run and input item added or changed it, oldest first.
  public func provenance(ofKey key: String) throws(CacheStoreError) -> [RowProvenance] {
    try read { db, codec in
      // The row of `key` in each entity table (a key is in one of them), then its provenance rows.
      let hashed = HashedKey(key)
      var entries: [(kind: String, provenance: Row)] = []
      for table in [StoreTable.accounts, .credentials, .appMetadata] {
        guard let entity = try table.row(of: hashed, db: db, codec: codec) else { continue }
        let kind =
          switch table.code {
          case StoreTable.accounts.code: "Account"
          case StoreTable.appMetadata.code: "AppMetadata"
          default: String.fromDatabaseValue(entity["credential_kind"]) ?? ""
          }
        let rows = try Row.fetchAll(
          db, sql: "SELECT run_id, seq, action, sources FROM provenance WHERE row_table = ? AND row_id = ?",
          arguments: [table.code, entity["id"] as Int64])
        entries += rows.map { (kind, $0) }
      }
      var trail: [RowProvenance] = []
      entries.sort { lhs, rhs in
        let left: (Int64, Int64) = (lhs.provenance["run_id"], lhs.provenance["seq"])
        let right: (Int64, Int64) = (rhs.provenance["run_id"], rhs.provenance["seq"])
        return left < right
      }
      for (kind, row) in entries {
        guard let blob = Data.fromDatabaseValue(row["sources"]), let packed = ProvenanceSources(bytes: [UInt8](blob))
        else {
          throw codec.corrupt("a provenance row whose sources are malformed", rowKey: key)
        }
        for source in packed.sources {
          trail.append(
            RowProvenance(
              rowKey: key, rowKind: kind, runID: row["run_id"],
              sourceFile: try Self.text(source.fileID, of: "provenance_files", "file", db: db, codec: codec, key: key),
              itemIndex: source.itemIndex,
              label: try Self.text(source.labelID, of: "provenance_labels", "label", db: db, codec: codec, key: key),
              action: row["action"]))
        }
      }
      return trail
    }
  }

  /// The text of an interned id (`provenance_files`, `provenance_labels`).
  private static func text(
    _ id: Int64, of table: String, _ column: String, db: Database, codec: RowCodec, key: String
  ) throws -> String {
    let select = try db.cachedStatement(sql: "SELECT \(column) FROM \(table) WHERE id = ?")
    guard let text = try String.fetchOne(select, arguments: [id]) else {
      throw codec.corrupt("a provenance row naming no \(column)", rowKey: key)
    }
    return text
  }

  /// Runs `body` in a read transaction, mapping SQLite errors to `CacheStoreError`.
  func read<T>(_ body: (Database, RowCodec) throws -> T) throws(CacheStoreError) -> T {
    let codec = self.codec
    do {
      return try queue.read { db in try body(db, codec) }
    } catch let error as CacheStoreError {
      throw error
    } catch {
      throw CacheStoreError(
        .database, "cannot read the store (\(Self.describe(error)))", at: SourceLocation(file: path))
    }
  }
}

/// One `provenance` row: a run and an input item that added or changed a store row.
public struct RowProvenance: Sendable, Hashable {
  public var rowKey: String
  public var rowKind: String
  public var runID: Int64
  public var sourceFile: String
  public var itemIndex: Int?
  public var label: String
  /// `add` or `update`.
  public var action: String
}
