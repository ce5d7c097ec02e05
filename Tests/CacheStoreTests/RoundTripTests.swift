import Foundation
import GRDB
import Testing
import UnifiedCache
import _Adal2MSALTestSupport

@testable import CacheStore

@Suite struct RoundTripTests {
  @Test func fixturesAreThere() throws {
    #expect(try StoreTestSupport.fixtureFiles().count >= 5)
  }

  /// import → store → contents gives back exactly what the reader read, unknown fields and sections included;
  /// the exported JSON read again gives the same too.
  @Test(arguments: try StoreTestSupport.fixtureFiles())
  func importThenExportKeepsEverything(fixture: URL) throws {
    let original = try StoreTestSupport.read(fixture)
    #expect(!original.isEmpty)
    for sealing in [nil, try SecretSealing(keyBytes: Data(repeating: 7, count: 32))] {
      let store = try CacheStore.open(
        path: try StoreTestSupport.freshPath(), options: CacheStoreOptions(sealing: sealing))
      let summary = try StoreTestSupport.importFiles([fixture], into: store)
      #expect(summary.rowsInserted == original.allEntities.count)
      let stored = try store.contents()
      #expect(stored == original, "store differs from the fixture \(fixture.lastPathComponent)")
      let exported = try UnifiedCacheJSONReader().read(try store.export().data, file: "export.json").contents
      #expect(exported == original, "export differs from the fixture \(fixture.lastPathComponent)")
    }
  }

  /// Unknown fields (numbers with exact text, nested values, unicode) and unknown sections survive the store
  /// and the export, encrypted or not.
  @Test func unknownFieldsAndSectionsSurvive() throws {
    let odd: JSONObject = [
      "ext": .object(["a": .number("1.50"), "b": .array([.null, .bool(true), .string("\u{e9}\u{1F600}\n")])]),
      "x_ms_custom": .number("1e+300"), "empty": .object(JSONObject()),
    ]
    let contents = UnifiedCacheContents(
      accounts: UnifiedSection([
        UnifiedAccount(
          homeAccountID: "u.t", environment: "login.windows.net", realm: "t", username: "a@b.c", additionalFields: odd)
      ]),
      accessTokens: UnifiedSection([
        UnifiedAccessToken(
          homeAccountID: "u.t", environment: "login.windows.net", clientID: "c", realm: "t", target: "User.Read openid",
          secret: UnifiedSecret("at"), cachedAt: Date(timeIntervalSince1970: 1_600_000_000),
          expiresOn: Date(timeIntervalSince1970: 1_600_003_600), tokenType: "pop", keyID: "kid-1", additionalFields: odd
        )
      ]),
      refreshTokens: UnifiedSection([
        UnifiedRefreshToken(
          homeAccountID: "u.t", environment: "login.windows.net", clientID: "c", secret: UnifiedSecret("rt"),
          familyID: "1",
          additionalFields: odd)
      ]),
      idTokens: UnifiedSection([
        UnifiedIdToken(
          homeAccountID: "u.t", environment: "login.windows.net", clientID: "c", realm: "", secret: UnifiedSecret("id"))
      ]),
      appMetadata: UnifiedSection([
        UnifiedAppMetadata(clientID: "c", environment: "login.windows.net", familyID: "1", additionalFields: odd)
      ]),
      unknownSections: ["AccountMetadata": .object(["k": .array([.number("0.10")])]), "ZZ": .string("last")])
    for sealing in [nil, try SecretSealing(keyBytes: Data(repeating: 9, count: 32))] {
      let store = try CacheStore.open(
        path: try StoreTestSupport.freshPath(), options: CacheStoreOptions(sealing: sealing))
      try store.apply(
        StoreTestSupport.plan(adding: contents), options: ApplyOptions(unknownSections: contents.unknownSections))
      #expect(try store.contents() == contents)
      #expect(try UnifiedCacheJSONReader().read(try store.export().data).contents == contents)
    }
  }

  /// A later run's unknown sections (docs/sqlite-schema.md, `unknown_sections`): a section of a name the store
  /// keeps is joined with it where it stood (an object member by member, any other value replaced), a new one goes
  /// after the others, and the unmodelled entries of a known section join those an earlier run kept (under a key it
  /// kept, its entry stays). The export writes them all back.
  @Test func aLaterRunsUnknownSectionsReplaceOrJoinTheKeptOnes() throws {
    let store = try CacheStore.open(path: try StoreTestSupport.freshPath())
    let noEntities = StoreTestSupport.plan(adding: [AnyUnifiedEntity]())
    let first: JSONObject = [
      "Foo": .string("first"), "AccessToken": .object(["an-entry": .object(["foo": .string("bar")])]),
      "Bar": .array([]), "AppData": .object(["theme": .string("blue"), "size": .number("2")]),
    ]
    try store.apply(noEntities, options: ApplyOptions(unknownSections: first))
    let second: JSONObject = [
      "AccessToken": .object([
        "another-entry": .object(["n": .number("1")]), "an-entry": .object(["foo": .string("changed")]),
      ]),
      "Foo": .string("second"), "Baz": .null, "AppData": .object(["size": .number("3"), "lang": .string("en")]),
    ]
    let applied = try store.apply(noEntities, options: ApplyOptions(unknownSections: second))
    #expect(applied.sectionsWritten == 4)
    let kept: JSONObject = [
      "Foo": .string("second"),
      "AccessToken": .object([
        "an-entry": .object(["foo": .string("bar")]), "another-entry": .object(["n": .number("1")]),
      ]),
      "Bar": .array([]),
      // An app's own section keeps every member a run kept, a member of the same name taking the later value.
      "AppData": .object(["theme": .string("blue"), "size": .number("3"), "lang": .string("en")]), "Baz": .null,
    ]
    #expect(try store.contents().unknownSections == kept)
    let exported = try UnifiedCacheJSONReader().read(try store.export().data).contents.unknownSections
    #expect(Set(exported.keys) == Set(kept.keys))
    for name in kept.keys { #expect(exported[name] == kept[name], "\(name)") }
  }

  /// Every field a token declares (`UnifiedAccessToken.fields`, ..., `trailingFields`) is kept in its own column
  /// of its row and comes back from it.
  @Test func everyDeclaredTokenFieldHasItsColumn() throws {
    func date(_ seconds: Double) -> Date { Date(timeIntervalSince1970: seconds) }
    let contents = UnifiedCacheContents(
      accessTokens: UnifiedSection([
        UnifiedAccessToken(
          homeAccountID: "u.t", environment: "login.windows.net", clientID: "c", realm: "t", target: "User.Read",
          secret: UnifiedSecret("at"), cachedAt: date(1_000), expiresOn: date(2_000), extendedExpiresOn: date(3_000),
          refreshOn: date(1_500), tokenType: "pop", keyID: "key-1", requestedClaims: "{}", userAssertionHash: "h1",
          clientInfo: "i1", lastModificationTime: "1700000000", lastModificationApp: "a1")
      ]),
      refreshTokens: UnifiedSection([
        UnifiedRefreshToken(
          homeAccountID: "u.t", environment: "login.windows.net", clientID: "c", secret: UnifiedSecret("rt"),
          familyID: "1", realm: "t", target: "openid", userAssertionHash: "h2", clientInfo: "i2",
          lastModificationTime: "1700000001", lastModificationApp: "a2")
      ]),
      idTokens: UnifiedSection([
        UnifiedIdToken(
          homeAccountID: "u.t", environment: "login.windows.net", clientID: "c", realm: "t",
          secret: UnifiedSecret("id"),
          clientInfo: "i3", lastModificationTime: "1700000002", lastModificationApp: "a3")
      ]))
    let store = try CacheStore.open(path: try StoreTestSupport.freshPath())
    try store.apply(StoreTestSupport.plan(adding: contents))
    #expect(try store.contents() == contents)
    let declared: [(kind: UnifiedEntityKind, columns: [String])] = [
      (.accessToken, UnifiedAccessToken.allFields.map(\.column)),
      (.refreshToken, UnifiedRefreshToken.allFields.map(\.column)),
      (.idToken, UnifiedIdToken.trailingFields.map(\.column)),
    ]
    try store.queue.read { db in
      for (kind, columns) in declared {
        let sql = "SELECT * FROM credentials WHERE credential_kind = ?"
        let row = try #require(try Row.fetchOne(db, sql: sql, arguments: [kind.rawValue]))
        for column in columns { #expect(!(row[column] as DatabaseValue).isNull, "\(kind.rawValue).\(column)") }
      }
    }
  }

  /// All fixtures into one store: the result is every file merged in order (a later file wins for a key).
  @Test func importingEveryFixtureIntoOneStore() throws {
    let files = try StoreTestSupport.fixtureFiles()
    let store = try CacheStore.open(path: try StoreTestSupport.freshPath())
    try StoreTestSupport.importFiles(files, into: store)
    var expected = UnifiedCacheContents()
    for file in files {
      let contents = try StoreTestSupport.read(file)
      for entity in contents.allEntities { expected.upsert(entity) }
      for member in contents.unknownSections { expected.unknownSections[member.key] = member.value }
    }
    #expect(try store.contents() == expected)
  }
}
