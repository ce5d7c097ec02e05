import Foundation
import GRDB
import MigrationEngine
import Testing
import UnifiedCache
import _Adal2MSALTestSupport

@testable import CacheStore

/// The key indexes are on 64-bit hashes of the keys (`KeyHash`); every lookup also compares the text.
@Suite struct KeyHashTests {
  /// FNV-1a 64 as published (the empty string and "a"), so the stored values are the same in every process.
  @Test func theHashIsFNV1a64() {
    #expect(KeyHash.of("") == Int64(bitPattern: 0xcbf2_9ce4_8422_2325))
    #expect(KeyHash.of("a") == Int64(bitPattern: 0xaf63_dc4c_8601_ec8c))
    #expect(KeyHash.of("foobar") == Int64(bitPattern: 0x8594_4171_f739_67e8))
  }

  /// A key of many bytes, and its capitals lowercased through a buffer (`ofLowercased`): FNV-1a 64 of its bytes
  /// in order, as computed outside Swift.
  @Test func aLongKeyHasTheHashOfItsBytesInOrder() {
    let key = "uid.utid-login.microsoftonline.com-refreshtoken-client-id--"
    #expect(key.utf8.count == 59)
    #expect(KeyHash.of(key) == Int64(bitPattern: 0x2fe2_dc43_a1f6_3b92))
    #expect(KeyHash.ofLowercased(key.uppercased()) == KeyHash.of(key))
  }

  /// Every row given the hash of one key (as keys that collide would have): that key still finds its own row
  /// and its own provenance, and its entity applied again writes nothing and duplicates nothing.
  /// `home_account_hash` is the hash of the lowercased home account id, with or without letters outside ASCII.
  @Test(arguments: ["", "UID.UTID", "0aF9-zZ.Tenant", "@[`{", "ÀÉ.İstanbul", "Straße.Σ", "uid.utid"])
  func theLowercasedHashIsTheHashOfTheLowercasedText(text: String) {
    #expect(KeyHash.ofLowercased(text) == KeyHash.of(text.lowercased()))
  }

  @Test func keysWithTheSameHashAreToldApartByTheirText() throws {
    let contents = try ApplyTests.seedContents()
    let store = try CacheStore.open(path: try StoreTestSupport.freshPath())
    try store.apply(StoreTestSupport.plan(adding: contents))
    let credentials = contents.allEntities.filter(\.kind.holdsSecret)
    #expect(credentials.count > 1)
    for entity in credentials {
      let key = entity.canonicalKey
      try store.queue.write { db in
        try db.execute(sql: "UPDATE credentials SET key_hash = ?", arguments: [KeyHash.of(key)])
      }
      let before = try StoreTestSupport.counts(store)
      #expect(try store.entity(kind: entity.kind, key: key) == entity)
      #expect(try store.provenance(ofKey: key).count == 1)
      var alone = UnifiedCacheContents()
      _ = alone.upsert(entity)
      let again = try store.apply(StoreTestSupport.plan(adding: alone))
      #expect(again.rowsWritten == 0)
      var expected = before
      expected.runs += 1
      #expect(try StoreTestSupport.counts(store) == expected)
    }
    // An update replaces the row of its own key, whichever rows share its hash.
    guard case .refreshToken(var token) = credentials.first(where: { $0.kind == .refreshToken }) else {
      Issue.record("the seed has no refresh token")
      return
    }
    try store.queue.write { db in
      try db.execute(sql: "UPDATE credentials SET key_hash = ?", arguments: [KeyHash.of(token.canonicalKey)])
    }
    token.secret = UnifiedSecret("replaced")
    var changed = contents
    _ = changed.upsert(.refreshToken(token))
    var alone = UnifiedCacheContents()
    _ = alone.upsert(.refreshToken(token))
    #expect(try store.apply(StoreTestSupport.plan(adding: alone)).rowsUpdated == 1)
    #expect(try store.contents() == changed)
  }

  /// Rows written through the bound statements keep empty strings empty (not NULL), numbers as numbers and
  /// absent fields NULL, in every column of every table.
  @Test func emptyTextAndAbsentFieldsRoundTrip() throws {
    var account = UnifiedAccount(homeAccountID: "uid.utid", environment: "login.windows.net", realm: "")
    account.name = ""
    account.localAccountID = nil
    let token = UnifiedAccessToken(
      homeAccountID: "uid.utid", environment: "login.windows.net", clientID: "client", realm: "", target: "",
      secret: UnifiedSecret(""), cachedAt: Date(timeIntervalSince1970: 1_700_000_000.5),
      expiresOn: Date(timeIntervalSince1970: 1_700_003_600))
    let metadata = UnifiedAppMetadata(clientID: "client", environment: "login.windows.net", familyID: "")
    let contents = UnifiedCacheContents(
      accounts: UnifiedSection([account]), accessTokens: UnifiedSection([token]),
      appMetadata: UnifiedSection([metadata]))
    let store = try CacheStore.open(path: try StoreTestSupport.freshPath())
    try store.apply(StoreTestSupport.plan(adding: contents))
    #expect(try store.contents() == contents)
    let row = try #require(try store.queue.read { db in try Row.fetchOne(db, sql: "SELECT * FROM credentials") })
    #expect(row["realm"] as DatabaseValue == "".databaseValue)
    #expect(row["secret"] as DatabaseValue == "".databaseValue)
    #expect(row["refresh_on"] as DatabaseValue == .null)
    #expect(row["expires_on"] as DatabaseValue == Int64(1_700_003_600).databaseValue)
    #expect(row["cached_at"] as DatabaseValue == 1_700_000_000.5.databaseValue)
  }
}

/// `KeyHashSet`, the key hashes a run wrote to a table that was empty before it.
@Suite struct KeyHashSetTests {
  /// Hashes that share their low bits (one slot), 0, negative ones and thousands more than the first slots
  /// hold: each is found once inserted, and none that was not.
  @Test func everyInsertedHashIsFoundAndNoOther() {
    let inserted =
      (0..<3000).map { Int64($0) << 20 } + (1...3000).map { -Int64($0) &* Int64(bitPattern: 0x9E37_79B9_7F4A_7C15) }
    var set = KeyHashSet()
    for (index, hash) in inserted.enumerated() {
      #expect(!set.contains(hash))
      set.insert(hash)
      set.insert(hash)
      #expect(set.contains(hash))
      if index.isMultiple(of: 500) { #expect(inserted[..<index].allSatisfy(set.contains)) }
    }
    #expect(inserted.allSatisfy(set.contains))
    #expect(!set.contains(1) && !set.contains(Int64.min) && !set.contains((3000 as Int64) << 20))
  }
}
