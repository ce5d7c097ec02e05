import Foundation
import GRDB
import Testing
import UnifiedCache
import _Adal2MSALTestSupport

@testable import CacheStore

@Suite struct EncryptionTests {
  static let key = Data((0..<32).map { UInt8($0 &* 7 &+ 3) })

  static func encryptedStore() throws -> (CacheStore, UnifiedCacheContents) {
    let contents = try StoreTestSupport.read(Fixtures.url("msal-json/msal-dotnet_token_cache_one_acc_seed.json"))
    let store = try CacheStore.open(
      path: try StoreTestSupport.freshPath(), options: CacheStoreOptions(sealing: try SecretSealing(keyBytes: key)))
    try store.apply(StoreTestSupport.plan(adding: contents))
    return (store, contents)
  }

  static func secrets(_ contents: UnifiedCacheContents) -> [String] {
    contents.accessTokens.map(\.secret.value) + contents.refreshTokens.map(\.secret.value)
      + contents.idTokens.map(\.secret.value)
  }

  /// `dump`, the debugger and Swift Testing walk a value's stored properties down to the key; the sealing shows
  /// only its description.
  @Test func theKeyIsNeverShown() throws {
    let sealing = try SecretSealing(keyBytes: Self.key)
    #expect(Mirror(reflecting: sealing).children.isEmpty)
    var dumped = ""
    dump(sealing, to: &dumped)
    #expect(dumped == "- SecretSealing(AES-256-GCM)\n")
    let hex = Self.key.map { String(format: "%02x", $0) }.joined()
    for text in [dumped, String(describing: sealing), String(reflecting: sealing), "\(sealing)"] {
      #expect(!text.contains(hex) && !text.contains(Self.key.base64EncodedString()) && !text.contains("key"))
    }
  }

  @Test func noTokenInClearInTheFileOrTheWAL() throws {
    // Distinctive secrets, so that a match cannot come from other text.
    var contents = UnifiedCacheContents()
    for index in 0..<20 {
      contents.upsert(
        .refreshToken(
          UnifiedRefreshToken(
            homeAccountID: "u\(index).t", environment: "login.windows.net", clientID: "c",
            secret: UnifiedSecret("RT-SECRET-\(index)-\(UUID().uuidString)"))))
    }
    let path = try StoreTestSupport.freshPath()
    let sealing = try SecretSealing(keyBytes: Self.key)
    do {
      let store = try CacheStore.open(path: path, options: CacheStoreOptions(sealing: sealing))
      // Half in the new store's first run (rollback journal, written to the file), half in a second run, which
      // the WAL still holds.
      var first = UnifiedCacheContents()
      for entity in contents.allEntities.prefix(10) { first.upsert(entity) }
      try store.apply(StoreTestSupport.plan(adding: first))
      try store.apply(StoreTestSupport.plan(adding: contents))
      #expect(FileManager.default.fileExists(atPath: path + "-wal"), "the WAL should still hold the transaction")
      let bytes = try Self.rawBytes(path)
      #expect(Self.secrets(contents).allSatisfy { bytes.range(of: Data($0.utf8)) == nil })
    }
    // Closed: the WAL is checkpointed into the main file.
    let closed = try Self.rawBytes(path)
    #expect(Self.secrets(contents).allSatisfy { closed.range(of: Data($0.utf8)) == nil })
    #expect(try CacheStore.open(path: path, options: CacheStoreOptions(sealing: sealing)).contents() == contents)

    // The same store without encryption does hold them in clear: the scan finds what it looks for.
    let plainPath = try StoreTestSupport.freshPath()
    let plainStore = try CacheStore.open(path: plainPath)
    try plainStore.apply(StoreTestSupport.plan(adding: contents))
    let plain = try Self.rawBytes(plainPath)
    #expect(Self.secrets(contents).allSatisfy { plain.range(of: Data($0.utf8)) != nil })
  }

  /// The main database file followed by its WAL, when there is one.
  static func rawBytes(_ path: String) throws -> Data {
    var data = try Data(contentsOf: URL(fileURLWithPath: path))
    if FileManager.default.fileExists(atPath: path + "-wal") {
      data.append(try Data(contentsOf: URL(fileURLWithPath: path + "-wal")))
    }
    return data
  }

  @Test func wrongMissingOrUnneededKeysFailClearly() throws {
    let (store, _) = try Self.encryptedStore()
    let other = try SecretSealing(keyBytes: Data(repeating: 1, count: 32))
    let wrong = #expect(throws: CacheStoreError.self) {
      try CacheStore.open(path: store.path, options: CacheStoreOptions(sealing: other))
    }
    #expect(wrong?.reason == .wrongKey)
    let missing = #expect(throws: CacheStoreError.self) { try CacheStore.open(path: store.path) }
    #expect(missing?.reason == .keyRequired)
    #expect(missing?.localizedDescription.contains("ADAL2MSAL_ENCRYPTION_KEY") == true)
    // The library's words: `adal2msal` names its option instead (`StoreCLITests`).
    #expect(missing?.remedy.contains("`SecretSealing.fromEnvironment()`") == true)
    #expect(missing?.localizedDescription.contains("--") == false)

    let plainPath = try StoreTestSupport.freshPath()
    _ = try CacheStore.open(path: plainPath)
    let unneeded = #expect(throws: CacheStoreError.self) {
      try CacheStore.open(path: plainPath, options: CacheStoreOptions(sealing: other))
    }
    #expect(unneeded?.reason == .notEncrypted)
  }

  @Test func theKeyIsNotStoredOnlyItsCheckValue() throws {
    let (store, _) = try Self.encryptedStore()
    let settings = try store.queue.read { db in
      try [String: String](
        uniqueKeysWithValues: Row.fetchAll(db, sql: "SELECT name, value FROM settings").map {
          ($0["name"], $0["value"])
        })
    }
    #expect(settings["encryption"] == CacheStore.encryptionScheme)
    #expect(settings["key_check"] == (try SecretSealing(keyBytes: Self.key)).keyCheckValue)
    let hexKey = Self.key.map { String(format: "%02x", $0) }.joined()
    let raw = try Self.rawBytes(store.path)
    #expect(raw.range(of: Self.key) == nil)
    #expect(raw.range(of: Data(hexKey.utf8)) == nil)
  }

  /// Sealed secrets carry their row key as associated data: swapping two blobs with raw SQL is detected.
  @Test func swappedSealedSecretsAreDetected() throws {
    let (store, contents) = try Self.encryptedStore()
    #expect(contents.accessTokens.count + contents.refreshTokens.count >= 2)
    try store.queue.write { db in
      let rows = try Row.fetchAll(db, sql: "SELECT id, secret FROM credentials ORDER BY id LIMIT 2")
      let first: Int64 = rows[0]["id"]
      let second: Int64 = rows[1]["id"]
      let firstBlob: Data = rows[0]["secret"]
      let secondBlob: Data = rows[1]["secret"]
      try db.execute(sql: "UPDATE credentials SET secret = ? WHERE id = ?", arguments: [secondBlob, first])
      try db.execute(sql: "UPDATE credentials SET secret = ? WHERE id = ?", arguments: [firstBlob, second])
    }
    let error = #expect(throws: CacheStoreError.self) { try store.contents() }
    #expect(error?.reason == .secretUnreadable)
    #expect(error?.location.keyPath != nil)
  }

  /// A row stores no key (v8): its secret is sealed under the key its fields give, so a key field changed with
  /// raw SQL (another client id) makes the secret unreadable instead of moving it to another key.
  @Test func anEditedKeyFieldIsDetected() throws {
    let (store, _) = try Self.encryptedStore()
    try store.queue.write { db in
      try db.execute(
        sql: "UPDATE credentials SET client_id = 'another-client' WHERE id = (SELECT MIN(id) FROM credentials)")
    }
    let error = #expect(throws: CacheStoreError.self) { try store.contents() }
    #expect(error?.reason == .secretUnreadable)
  }

  @Test func aFlippedBitIsDetected() throws {
    let (store, _) = try Self.encryptedStore()
    try store.queue.write { db in
      let row = try #require(try Row.fetchOne(db, sql: "SELECT id, secret FROM credentials ORDER BY id LIMIT 1"))
      var blob: Data = row["secret"]
      blob[blob.count - 1] ^= 0x01
      try db.execute(sql: "UPDATE credentials SET secret = ? WHERE id = ?", arguments: [blob, row["id"] as Int64])
    }
    #expect(throws: CacheStoreError.self) { try store.contents() }
  }

  @Test func keyFileFormats() throws {
    let directory = try Fixtures.temporaryDirectory("keys")
    let expected = try SecretSealing(keyBytes: Self.key).keyCheckValue
    let hex = Self.key.map { String(format: "%02x", $0) }.joined()
    let forms: [(String, Data)] = [
      ("raw", Self.key), ("hex", Data((hex + "\n").utf8)), ("HEX", Data(hex.uppercased().utf8)),
      ("base64", Data(("  " + Self.key.base64EncodedString() + "\n").utf8)),
    ]
    for (name, data) in forms {
      let file = directory.appendingPathComponent(name)
      try data.write(to: file)
      #expect(try SecretSealing.keyFile(at: file.path).keyCheckValue == expected, "\(name)")
    }
    for bad in [Data(repeating: 1, count: 31), Data("abc".utf8), Data(String(repeating: "g", count: 64).utf8)] {
      let file = directory.appendingPathComponent("bad")
      try bad.write(to: file)
      let error = #expect(throws: CacheStoreError.self) { try SecretSealing.keyFile(at: file.path) }
      #expect(error?.reason == .badKey)
    }
    #expect(try SecretSealing.fromEnvironment([:]) == nil)
    #expect(try SecretSealing.fromEnvironment([SecretSealing.environmentVariable: hex])?.keyCheckValue == expected)
    // Set but empty asked for encryption and gave no key: an error, never a store in clear.
    for empty in ["", " \n"] {
      let error = #expect(throws: CacheStoreError.self) {
        try SecretSealing.fromEnvironment([SecretSealing.environmentVariable: empty])
      }
      #expect(error?.reason == .badKey && error?.message.contains("set but empty") == true)
    }
    #expect("\(try SecretSealing(keyBytes: Self.key))".contains(hex) == false)
  }
}
