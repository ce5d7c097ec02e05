import Adal2MSAL
import Foundation
import GRDBSQLite

/// The SQLite floor: the rows an apply of `plan` writes (every `add` entity, of every kind, and its provenance
/// row with the sources packed), inserted with the sqlite3 C API into the same schema with the same pragmas (WAL,
/// `synchronous = FULL`, the store's cache size, one `BEGIN IMMEDIATE` transaction) and a connection opened
/// without SQLite's own mutex, as GRDB opens the store's (`SQLITE_OPEN_NOMUTEX`), text bound straight from
/// the entities, the key left NULL and only its hash stored, as the store does (schema v8): no GRDB, no
/// existence checks, no row codec. What is left of an apply's time above it is ours.
enum RawInsertLoop {
  static func run(path: String, plan: MigrationPlan) throws {
    var db: OpaquePointer?
    guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nil) == SQLITE_OK, let db else {
      throw BenchFailure("cannot open \(path)")
    }
    defer { sqlite3_close_v2(db) }
    try SQLiteCalls.exec(
      db,
      "PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA cache_size = -\(CacheStore.cacheKilobytes); BEGIN IMMEDIATE"
    )
    try SQLiteCalls.exec(
      db,
      "INSERT INTO runs (started_at, finished_at, planned_at, tool_version, inputs, options, summary) VALUES ('', '', '', '', '[]', '{}', '{}')"
    )
    let runID = sqlite3_last_insert_rowid(db)
    let account = try SQLiteCalls.prepare(
      db,
      """
      INSERT INTO accounts (key, home_account_id, environment, realm, local_account_id, username, authority_type,
        name, given_name, family_name, username_hash, environment_group, home_account_hash, key_hash)
      VALUES (NULL, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
      """)
    let credential = try SQLiteCalls.prepare(
      db,
      """
      INSERT INTO credentials (key, credential_kind, credential_type, home_account_id, environment, client_id,
        realm, target, secret, family_id, cached_at, expires_on, extended_expires_on, key_hash, home_account_hash)
      VALUES (NULL, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
      """)
    let appMetadata = try SQLiteCalls.prepare(
      db, "INSERT INTO app_metadata (key, client_id, environment, family_id, key_hash) VALUES (NULL, ?, ?, ?, ?)")
    let provenance = try SQLiteCalls.prepare(
      db,
      "INSERT INTO provenance (row_table, row_id, run_id, seq, action, sources) VALUES (?, ?, ?, ?, 'add', ?)")
    defer {
      for statement in [account, credential, appMetadata, provenance] {
        sqlite3_finalize(statement)
      }
    }
    // Sources packed as the store packs them, file and label ids as if each were interned (no lookups).
    var texts: [String: Int64] = [:]
    func id(_ text: String) -> Int64 {
      if let known = texts[text] { return known }
      texts[text] = Int64(texts.count + 1)
      return Int64(texts.count)
    }

    for entry in plan.entries where entry.action == .add {
      guard let entity = entry.entity else { continue }
      let key = entity.canonicalKey
      switch entity {
      case .account(let a):
        bind(
          account,
          [
            a.homeAccountID, a.environment, a.realm, a.localAccountID, a.username, a.authorityType, a.name,
            a.givenName, a.familyName,
          ])
        // The store's index columns (`KeyHash`): the lowercased username's, the lowercased home account id's.
        if let username = a.username {
          sqlite3_bind_int64(account, 10, KeyHash.of(username.lowercased()))
        } else {
          sqlite3_bind_null(account, 10)
        }
        bind(account, [EnvironmentAliases.group(forHost: a.environment).name], from: 11)
        sqlite3_bind_int64(account, 12, KeyHash.of(a.homeAccountID.lowercased()))
        sqlite3_bind_int64(account, 13, KeyHash.of(key))
        try SQLiteCalls.step(db, account)
      case .accessToken(let t):
        try insertCredential(
          db, credential, key: key,
          [
            "AccessToken", t.credentialType, t.homeAccountID, t.environment,
            t.clientID, t.realm, t.target, t.secret.value, nil,
          ], dates: [t.cachedAt, t.expiresOn, t.extendedExpiresOn])
      case .refreshToken(let t):
        try insertCredential(
          db, credential, key: key,
          [
            "RefreshToken", "RefreshToken", t.homeAccountID, t.environment,
            t.clientID, t.realm, t.target, t.secret.value, t.familyID,
          ], dates: [])
      case .idToken(let t):
        try insertCredential(
          db, credential, key: key,
          [
            "IdToken", "IdToken", t.homeAccountID, t.environment,
            t.clientID, t.realm, nil, t.secret.value, nil,
          ], dates: [])
      case .appMetadata(let m):
        bind(appMetadata, [m.clientID, m.environment, m.familyID])
        sqlite3_bind_int64(appMetadata, 4, KeyHash.of(key))
        try SQLiteCalls.step(db, appMetadata)
      }
      var packed: [UInt8] = []
      for source in entry.sources {
        for value in [id(source.file), Int64(source.itemIndex ?? -1) + 1, id(source.label)] {
          var rest = UInt64(bitPattern: value)
          while rest >= 0x80 {
            packed.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
          }
          packed.append(UInt8(rest))
        }
      }
      let table: Int64 =
        switch entity {
        case .account: 1
        case .appMetadata: 3
        default: 2
        }
      sqlite3_bind_int64(provenance, 1, table)
      sqlite3_bind_int64(provenance, 2, sqlite3_last_insert_rowid(db))
      sqlite3_bind_int64(provenance, 3, runID)
      sqlite3_bind_int64(provenance, 4, 1)
      sqlite3_bind_blob(provenance, 5, packed, Int32(packed.count), transient)
      try SQLiteCalls.step(db, provenance)
    }
    try SQLiteCalls.exec(db, "COMMIT")
  }

  private static func insertCredential(
    _ db: OpaquePointer, _ statement: OpaquePointer, key: String, _ texts: [String?], dates: [Date?]
  ) throws {
    bind(statement, texts)
    for index in 0..<3 {
      let date = index < dates.count ? dates[index] : nil
      if let date {
        sqlite3_bind_int64(statement, Int32(10 + index), Int64(date.timeIntervalSince1970))
      } else {
        sqlite3_bind_null(statement, Int32(10 + index))
      }
    }
    // The store's index columns (`KeyHash`): the key's, and the lowercased home account id's (texts[2]).
    sqlite3_bind_int64(statement, 13, KeyHash.of(key))
    sqlite3_bind_int64(statement, 14, KeyHash.of((texts[2] ?? "").lowercased()))
    try SQLiteCalls.step(db, statement)
  }

  private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

  private static func bind(_ statement: OpaquePointer, _ texts: [String?], from first: Int32 = 1) {
    for (offset, text) in texts.enumerated() {
      let index = first + Int32(offset)
      if let text {
        sqlite3_bind_text(statement, index, text, -1, transient)
      } else {
        sqlite3_bind_null(statement, index)
      }
    }
  }
}
