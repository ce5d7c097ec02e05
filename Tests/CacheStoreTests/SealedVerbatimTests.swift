import Foundation
import GRDB
import Testing
import UnifiedCache
import _Adal2MSALTestSupport

@testable import CacheStore

/// An encrypted store seals every column that keeps input as it was read, not only `secret`: the unknown
/// top-level sections (MSAL Go's partitions), the unmodelled entries of known sections kept verbatim with them,
/// and the unknown fields (`additional_fields`) and written form (`written_form`) of every entity. No byte of a
/// token of the input is in the file or its WAL in clear; such a value tampered with, moved or left in clear is
/// refused as a tampered secret is; and a store sealed by the version that sealed `secret` only still opens,
/// and its next run seals the rest.
@Suite struct SealedVerbatimTests {
  static let key = EncryptionTests.key

  /// An input file and the tokens it holds.
  struct Input: CustomStringConvertible, Sendable {
    var name: String
    var json: String
    var tokens: [String]
    var description: String { name }

    func write() throws -> URL {
      let url = try Fixtures.temporaryDirectory("sealed-input").appendingPathComponent(name)
      try Data(json.utf8).write(to: url)
      return url
    }
  }

  /// MSAL Go's partitioned cache (unknown top-level sections only), from its test suite.
  static let goPartitions = Input(
    name: "msal-go_test_partitioned_cache.json",
    json: (try? String(
      contentsOf: RealWorldCaches.url("msal-go_test_partitioned_cache.json"), encoding: .utf8)) ?? "{}",
    tokens: [
      "a refresh token", "an access token",
      "header.eyJvaWQiOiAib2JqZWN0MTIzNCIsICJwcmVmZXJyZWRfdXNlcm5hbWUiOiAiSm9obiBEb2UiLCAic3ViIjogInN1YiJ9.signature",
    ])

  /// A refresh token without `client_id`: unmodelled, kept verbatim in its section.
  static let unmodelled = Input(
    name: "unmodelled.json",
    json: #"""
      {"RefreshToken":{"k1":{"home_account_id":"uid.utid","environment":"login.microsoftonline.com",\#
      "credential_type":"RefreshToken","secret":"PLAINTEXT-RT-0123456789abcdef"}}}
      """#, tokens: ["PLAINTEXT-RT-0123456789abcdef"])

  /// Modelled entities, each with an unknown field that holds a token; an ATExt token, whose key names a digest
  /// of its `ext`; an entry whose timestamp is a number (kept in `written_form`).
  static let unknownFields = Input(
    name: "unknown-fields.json",
    json: #"""
      {"Account":{"uid.utid-login.microsoftonline.com-utid":{"home_account_id":"uid.utid",\#
      "environment":"login.microsoftonline.com","realm":"utid","local_account_id":"uid",\#
      "username":"user@contoso.com","authority_type":"MSSTS","extra_token":"ACCOUNT-EXTRA-TOKEN-71c0e3a9d2"}},
      "RefreshToken":{"uid.utid-login.microsoftonline.com-refreshtoken-client--":{"home_account_id":"uid.utid",\#
      "environment":"login.microsoftonline.com","credential_type":"RefreshToken","client_id":"client",\#
      "secret":"RT-SECRET-4b8e2f6a1c","extra_token":"RT-EXTRA-TOKEN-9d3a7c5e1b"}},
      "AccessToken":{"uid.utid-login.microsoftonline.com-accesstoken-client-utid-scope":{"home_account_id":"uid.utid",\#
      "environment":"login.microsoftonline.com","credential_type":"AccessToken","client_id":"client",\#
      "realm":"utid","target":"scope","cached_at":1700000000,"expires_on":"1700003600",\#
      "secret":"AT-SECRET-2c6f8a0e4d","extra_token":"AT-EXTRA-TOKEN-5e1b9d3a7c"},
      "uid.utid-login.microsoftonline.com-atext-client-utid-scope2":{"home_account_id":"uid.utid",\#
      "environment":"login.microsoftonline.com","credential_type":"ATExt","client_id":"client",\#
      "realm":"utid","target":"scope2","expires_on":"1700003600","secret":"ATEXT-SECRET-8f0a2c4e6b",\#
      "ext":{"assertion":"ATEXT-EXT-TOKEN-3a7c5e9d1f"}}},
      "IdToken":{"uid.utid-login.microsoftonline.com-idtoken-client-utid-":{"home_account_id":"uid.utid",\#
      "environment":"login.microsoftonline.com","credential_type":"IdToken","client_id":"client",\#
      "realm":"utid","secret":"ID-SECRET-6b4d2f0a8c","extra_token":"ID-EXTRA-TOKEN-1f3b5d7a9c"}},
      "AppMetadata":{"appmetadata-login.microsoftonline.com-client":{"environment":"login.microsoftonline.com",\#
      "client_id":"client","family_id":"1","extra_token":"APPMETA-EXTRA-TOKEN-0a2c4e6b8d"}}}
      """#,
    tokens: [
      "ACCOUNT-EXTRA-TOKEN-71c0e3a9d2", "RT-SECRET-4b8e2f6a1c", "RT-EXTRA-TOKEN-9d3a7c5e1b", "AT-SECRET-2c6f8a0e4d",
      "AT-EXTRA-TOKEN-5e1b9d3a7c", "ATEXT-SECRET-8f0a2c4e6b", "ATEXT-EXT-TOKEN-3a7c5e9d1f", "ID-SECRET-6b4d2f0a8c",
      "ID-EXTRA-TOKEN-1f3b5d7a9c", "APPMETA-EXTRA-TOKEN-0a2c4e6b8d",
    ])

  static let inputs = [goPartitions, unmodelled, unknownFields]

  /// The tokens of `tokens` found in `bytes`.
  static func found(_ tokens: [String], in bytes: Data) -> [String] {
    tokens.filter { bytes.range(of: Data($0.utf8)) != nil }
  }

  static func sealing() throws -> SecretSealing { try SecretSealing(keyBytes: key) }

  /// A store at a fresh path with one run already (so that the import is written to the WAL), then `input`
  /// imported into it; the store stays open.
  static func importing(_ input: Input, sealed: Bool) throws -> CacheStore {
    let options = sealed ? CacheStoreOptions(sealing: try sealing()) : CacheStoreOptions()
    let store = try CacheStore.open(path: try StoreTestSupport.freshPath(), options: options)
    try store.apply(StoreTestSupport.plan(adding: []))
    try StoreTestSupport.importFiles([try input.write()], into: store)
    return store
  }

  @Test("the file and its WAL hold no token of the input in clear", arguments: inputs)
  func noTokenInClear(_ input: Input) throws {
    #expect(!input.json.isEmpty && input.json != "{}", "the input could not be read")
    // The same input in a store without a key holds every token in clear: the scan finds what it looks for.
    let plain = try Self.importing(input, sealed: false)
    #expect(Self.found(input.tokens, in: try EncryptionTests.rawBytes(plain.path)) == input.tokens)

    let path: String
    do {
      let store = try Self.importing(input, sealed: true)
      path = store.path
      #expect(FileManager.default.fileExists(atPath: path + "-wal"), "the WAL should still hold the import")
      #expect(Self.found(input.tokens, in: try EncryptionTests.rawBytes(path)) == [])
      #expect(try store.contents() == plain.contents())
    }
    // Closed: the WAL is checkpointed into the main file.
    #expect(Self.found(input.tokens, in: try EncryptionTests.rawBytes(path)) == [])
    let reopened = try CacheStore.open(path: path, options: CacheStoreOptions(sealing: try Self.sealing()))
    #expect(try reopened.contents() == plain.contents())
    let reading = try CacheStore.open(path: path, options: .reading(sealing: try Self.sealing()))
    #expect(try reading.contents() == plain.contents())
    #expect(try reading.allAccounts() == plain.allAccounts())
  }

  @Test func aSecondImportMergesSealedSections() throws {
    let store = try Self.importing(Self.unmodelled, sealed: true)
    let other = Input(
      name: "unmodelled-2.json",
      json: Self.unmodelled.json.replacingOccurrences(of: "\"k1\"", with: "\"k2\"").replacingOccurrences(
        of: "PLAINTEXT-RT-0123456789abcdef", with: "PLAINTEXT-RT-fedcba9876543210"),
      tokens: ["PLAINTEXT-RT-fedcba9876543210"])
    try StoreTestSupport.importFiles([try other.write()], into: store)
    let plain = try Self.importing(Self.unmodelled, sealed: false)
    try StoreTestSupport.importFiles([try other.write()], into: plain)
    #expect(try store.contents() == plain.contents())
    #expect(try store.contents().unknownSections["RefreshToken"]?.objectValue?.count == 2)
    #expect(Self.found(Self.unmodelled.tokens + other.tokens, in: try EncryptionTests.rawBytes(store.path)) == [])
  }

  /// A sealed store with every kind of sealed field: unknown fields, a written form, unknown sections.
  static func sealedStore() throws -> CacheStore {
    let store = try Self.importing(Self.unknownFields, sealed: true)
    try StoreTestSupport.importFiles([try Self.unmodelled.write(), try Self.goPartitions.write()], into: store)
    return store
  }

  static func expectRefused(
    _ store: CacheStore, _ reason: CacheStoreError.Reason, sourceLocation: Testing.SourceLocation = #_sourceLocation
  ) {
    let error = #expect(throws: CacheStoreError.self, sourceLocation: sourceLocation) { try store.contents() }
    #expect(error?.reason == reason, sourceLocation: sourceLocation)
    #expect(error?.location.keyPath?.isEmpty == false, sourceLocation: sourceLocation)
    // Never the value, sealed or not.
    let text = error.map { "\($0.localizedDescription) \($0.remedy)" } ?? ""
    #expect(Self.found(Self.unknownFields.tokens + Self.unmodelled.tokens, in: Data(text.utf8)) == [])
  }

  @Test func aTamperedSealedSectionIsRefused() throws {
    let store = try Self.sealedStore()
    try store.queue.write { db in
      var blob = try #require(
        try Data.fetchOne(db, sql: "SELECT value FROM unknown_sections WHERE name = 'RefreshToken'"))
      blob[blob.count / 2] ^= 0x01
      try db.execute(sql: "UPDATE unknown_sections SET value = ? WHERE name = 'RefreshToken'", arguments: [blob])
    }
    Self.expectRefused(store, .secretUnreadable)
  }

  @Test func aSealedSectionMovedToAnotherIsRefused() throws {
    let store = try Self.sealedStore()
    try store.queue.write { db in
      try db.execute(
        sql: """
          UPDATE unknown_sections SET value = (SELECT value FROM unknown_sections WHERE name = 'RefreshToken')
          WHERE name = 'AccountsPartition'
          """)
    }
    Self.expectRefused(store, .secretUnreadable)
  }

  @Test func aSectionInClearInASealedStoreIsRefused() throws {
    let store = try Self.sealedStore()
    try store.queue.write { db in
      try db.execute(sql: "UPDATE unknown_sections SET value = '{}' WHERE name = 'RefreshToken'")
    }
    Self.expectRefused(store, .corruptRow)
  }

  @Test(arguments: ["accounts", "credentials", "app_metadata"])
  func tamperedSealedFieldsAreRefused(_ table: String) throws {
    for column in ["additional_fields", "written_form"] {
      let store = try Self.sealedStore()
      let edited = try store.queue.write { db in
        guard
          let row = try Row.fetchOne(
            db, sql: "SELECT id, \(column) AS value FROM \(table) WHERE \(column) IS NOT NULL ORDER BY id LIMIT 1")
        else { return false }
        var blob: Data = try #require(Data.fromDatabaseValue(row["value"]), "\(table).\(column) is not sealed")
        blob[blob.count - 1] ^= 0x80
        try db.execute(sql: "UPDATE \(table) SET \(column) = ? WHERE id = ?", arguments: [blob, row["id"] as Int64])
        return true
      }
      guard edited else { continue }
      Self.expectRefused(store, .secretUnreadable)
    }
    // In clear: refused as a secret in clear is (but `{}`, no unknown field, which is never sealed).
    let store = try Self.sealedStore()
    try store.queue.write { db in
      try db.execute(
        sql:
          "UPDATE \(table) SET additional_fields = '{\"extra_token\":\"x\"}' WHERE id = (SELECT MIN(id) FROM \(table))")
    }
    Self.expectRefused(store, .corruptRow)
  }

  @Test func sealedFieldsSwappedBetweenRowsOrWithTheSecretAreRefused() throws {
    let swapped = try Self.sealedStore()
    try swapped.queue.write { db in
      let rows = try Row.fetchAll(db, sql: "SELECT id, additional_fields FROM credentials ORDER BY id LIMIT 2")
      try #require(rows.count == 2)
      try db.execute(
        sql: "UPDATE credentials SET additional_fields = ? WHERE id = ?",
        arguments: [rows[1]["additional_fields"] as DatabaseValue, rows[0]["id"] as Int64])
    }
    Self.expectRefused(swapped, .secretUnreadable)

    let secretMoved = try Self.sealedStore()
    try secretMoved.queue.write { db in
      try db.execute(
        sql: "UPDATE credentials SET additional_fields = secret WHERE id = (SELECT MIN(id) FROM credentials)")
    }
    Self.expectRefused(secretMoved, .secretUnreadable)
  }

  /// A store as the version before this one sealed it (`aes-256-gcm-v1`): `secret` sealed, every other column
  /// as a store without a key holds it. Built from a sealed store and a store without a key of the same
  /// inputs, their rows copied over by id.
  static func storeSealedSecretsOnly() throws -> (path: String, plain: CacheStore) {
    let inputs = [try Self.unknownFields.write(), try Self.unmodelled.write(), try Self.goPartitions.write()]
    let plain = try CacheStore.open(path: try StoreTestSupport.freshPath())
    try StoreTestSupport.importFiles(inputs, into: plain)
    let path = try StoreTestSupport.freshPath()
    do {
      let sealed = try CacheStore.open(path: path, options: CacheStoreOptions(sealing: try Self.sealing()))
      try StoreTestSupport.importFiles(inputs, into: sealed)
    }
    let queue = try DatabaseQueue(path: path)
    try queue.writeWithoutTransaction { db in
      try db.execute(sql: "ATTACH DATABASE ? AS plain", arguments: [plain.path])
      for table in ["accounts", "credentials", "app_metadata"] {
        try db.execute(
          sql: """
            UPDATE \(table) SET
              additional_fields = (SELECT p.additional_fields FROM plain.\(table) p WHERE p.id = \(table).id),
              written_form = (SELECT p.written_form FROM plain.\(table) p WHERE p.id = \(table).id)
            """)
      }
      try db.execute(sql: "DELETE FROM unknown_sections")
      try db.execute(sql: "INSERT INTO unknown_sections SELECT * FROM plain.unknown_sections")
      try db.execute(sql: "UPDATE settings SET value = 'aes-256-gcm-v1' WHERE name = 'encryption'")
      try db.execute(sql: "DETACH DATABASE plain")
      try db.execute(sql: "VACUUM")
    }
    try queue.close()
    return (path, plain)
  }

  @Test func aStoreThatSealedOnlySecretsOpensAndItsNextRunSealsTheRest() throws {
    let (path, plain) = try Self.storeSealedSecretsOnly()
    let tokens = Self.unknownFields.tokens + Self.unmodelled.tokens
    let extraTokens = tokens.filter { !$0.contains("SECRET") }
    #expect(Self.found(extraTokens, in: try EncryptionTests.rawBytes(path)) == extraTokens, "not the old store")
    let sealing = try Self.sealing()

    // It opens, to read and to write, and reads as it was written.
    let reading = try CacheStore.open(path: path, options: .reading(sealing: sealing))
    #expect(try reading.contents() == plain.contents())
    let missing = #expect(throws: CacheStoreError.self) { try CacheStore.open(path: path) }
    #expect(missing?.reason == .keyRequired)
    let wrong = #expect(throws: CacheStoreError.self) {
      try CacheStore.open(path: path, options: CacheStoreOptions(sealing: try SecretSealing(keyBytes: Data(count: 32))))
    }
    #expect(wrong?.reason == .wrongKey)

    do {
      let store = try CacheStore.open(path: path, options: CacheStoreOptions(sealing: sealing))
      #expect(try store.contents() == plain.contents())
      // Its next run, here one that changes nothing, seals the rest.
      try store.apply(StoreTestSupport.plan(adding: []))
      let scheme = try store.queue.read {
        try String.fetchOne($0, sql: "SELECT value FROM settings WHERE name = 'encryption'")
      }
      #expect(scheme == CacheStore.encryptionScheme)
      let clear = try store.queue.read { db in
        try Int.fetchOne(
          db,
          sql: """
            SELECT (SELECT count(*) FROM accounts WHERE (typeof(additional_fields) = 'text' AND additional_fields <> '{}') OR typeof(written_form) = 'text')
              + (SELECT count(*) FROM credentials WHERE (typeof(additional_fields) = 'text' AND additional_fields <> '{}') OR typeof(written_form) = 'text')
              + (SELECT count(*) FROM app_metadata WHERE (typeof(additional_fields) = 'text' AND additional_fields <> '{}') OR typeof(written_form) = 'text')
              + (SELECT count(*) FROM unknown_sections WHERE typeof(value) = 'text')
            """)
      }
      #expect(clear == 0)
      #expect(try store.contents() == plain.contents())
    }
    #expect(Self.found(tokens, in: try EncryptionTests.rawBytes(path)) == [])
    // Now refused in clear, as a store of this version is.
    let store = try CacheStore.open(path: path, options: CacheStoreOptions(sealing: sealing))
    #expect(try store.contents() == plain.contents())
    try store.queue.write { db in
      try db.execute(sql: "UPDATE unknown_sections SET value = '{}' WHERE name = 'RefreshToken'")
    }
    Self.expectRefused(store, .corruptRow)
  }
}
