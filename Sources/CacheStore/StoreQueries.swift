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
      // In key order, as the key-ordered tables of schema v1 to v6 gave them (export writes this order).
      for row in try Row.fetchAll(db, sql: "SELECT * FROM accounts ORDER BY key") {
        contents.accounts.upsert(try codec.account(from: row))
      }
      let credentials = try Row.fetchCursor(db, sql: "SELECT * FROM credentials ORDER BY key")
      while let row = try credentials.next() { contents.upsert(try codec.credential(from: row)) }
      for row in try Row.fetchAll(db, sql: "SELECT * FROM app_metadata ORDER BY key") {
        contents.appMetadata.upsert(try codec.appMetadata(from: row))
      }
      for row in try Row.fetchAll(db, sql: "SELECT name, value FROM unknown_sections ORDER BY position") {
        let name: String = row["name"]
        let text: String = row["value"]
        do {
          contents.unknownSections[name] = try JSONParser().parse(Data(text.utf8))
        } catch {
          throw codec.corrupt("an unknown section that is not valid JSON", rowKey: name)
        }
      }
      return contents
    }
  }

  /// Every account, in key order.
  public func allAccounts() throws(CacheStoreError) -> [UnifiedAccount] {
    try read { db, codec in
      try Row.fetchAll(db, sql: "SELECT * FROM accounts ORDER BY key").map { row throws(CacheStoreError) in
        try codec.account(from: row)
      }
    }
  }

  /// The accounts whose username matches (trimmed, case-insensitive), optionally only in the alias group of
  /// `environment` (login.microsoftonline.com finds login.windows.net). One lookup in `accounts_by_username`.
  public func accountsForUsername(_ username: String, environment: String? = nil) throws(CacheStoreError)
    -> [UnifiedAccount]
  {
    guard let wanted = RowCodec.normalizedUsername(username) else { return [] }
    return try read { db, codec in
      let rows: [Row]
      if let environment {
        let group = EnvironmentAliases.group(forHost: environment).name
        rows = try Row.fetchAll(
          db, sql: "SELECT * FROM accounts WHERE username_normalized = ? AND environment_group = ? ORDER BY key",
          arguments: [wanted, group])
      } else {
        rows = try Row.fetchAll(
          db, sql: "SELECT * FROM accounts WHERE username_normalized = ? ORDER BY key", arguments: [wanted])
      }
      return try rows.map { row throws(CacheStoreError) in try codec.account(from: row) }
    }
  }

  /// Every account with this `home_account_id` (case-insensitive): one per tenant and environment. One lookup
  /// in `accounts_by_home_account_id`.
  public func accountsForIdentifier(_ homeAccountID: String) throws(CacheStoreError) -> [UnifiedAccount] {
    let wanted = RowCodec.normalizedHomeAccountID(homeAccountID.trimmedWhitespace())
    guard !wanted.isEmpty else { return [] }
    return try read { db, codec in
      try Row.fetchAll(
        db, sql: "SELECT * FROM accounts WHERE home_account_id_normalized = ? ORDER BY key", arguments: [wanted]
      ).map { row throws(CacheStoreError) in try codec.account(from: row) }
    }
  }

  /// The account for this `home_account_id`, its home-tenant entry first (realm = the `utid` part), as MSAL.
  public func accountForIdentifier(_ homeAccountID: String) throws(CacheStoreError) -> UnifiedAccount? {
    let accounts = try accountsForIdentifier(homeAccountID)
    return accounts.first(where: Self.isHomeTenant) ?? accounts.first
  }

  /// The account for this username, its home-tenant entry first.
  public func accountForUsername(_ username: String, environment: String? = nil) throws(CacheStoreError)
    -> UnifiedAccount?
  {
    let accounts = try accountsForUsername(username, environment: environment)
    return accounts.first(where: Self.isHomeTenant) ?? accounts.first
  }

  /// Every credential (access, refresh and id tokens) of one account, in key order. One lookup in
  /// `credentials_by_home_account_hash`; rows of another account with the same hash are left out by comparing
  /// their `home_account_id`, lowercased.
  public func credentials(ofHomeAccountID homeAccountID: String) throws(CacheStoreError) -> [AnyUnifiedEntity] {
    let wanted = RowCodec.normalizedHomeAccountID(homeAccountID)
    return try read { db, codec in
      try Row.fetchAll(
        db, sql: "SELECT * FROM credentials WHERE home_account_hash = ? ORDER BY key", arguments: [KeyHash.of(wanted)]
      ).filter { row in
        String.fromDatabaseValue(row["home_account_id"]).map(RowCodec.normalizedHomeAccountID) == wanted
      }.map { row throws(CacheStoreError) in try codec.credential(from: row) }
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
      let rows = try Row.fetchAll(
        db,
        sql: """
          SELECT e.key AS row_key, 'Account' AS row_kind, p.run_id AS run_id, p.seq AS seq, p.action, p.sources
          FROM accounts e JOIN provenance p ON p.row_table = 1 AND p.row_id = e.id
          WHERE e.key_hash = ?1 AND e.key = ?2
          UNION ALL
          SELECT e.key, e.credential_kind, p.run_id, p.seq, p.action, p.sources
          FROM credentials e JOIN provenance p ON p.row_table = 2 AND p.row_id = e.id
          WHERE e.key_hash = ?1 AND e.key = ?2
          UNION ALL
          SELECT e.key, 'AppMetadata', p.run_id, p.seq, p.action, p.sources
          FROM app_metadata e JOIN provenance p ON p.row_table = 3 AND p.row_id = e.id
          WHERE e.key_hash = ?1 AND e.key = ?2
          ORDER BY run_id, seq
          """, arguments: [KeyHash.of(key), key])
      var trail: [RowProvenance] = []
      for row in rows {
        guard let blob = Data.fromDatabaseValue(row["sources"]), let packed = ProvenanceSources(bytes: [UInt8](blob))
        else {
          throw codec.corrupt("a provenance row whose sources are malformed", rowKey: key)
        }
        for source in packed.sources {
          trail.append(
            RowProvenance(
              rowKey: row["row_key"], rowKind: row["row_kind"], runID: row["run_id"],
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

  static func isHomeTenant(_ account: UnifiedAccount) -> Bool {
    let parts = account.homeAccountID.split(separator: ".", omittingEmptySubsequences: false)
    return parts.count == 2 && parts[1].lowercased() == account.realm.lowercased()
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
