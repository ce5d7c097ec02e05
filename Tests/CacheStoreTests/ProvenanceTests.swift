import Foundation
import GRDB
import MigrationEngine
import Testing
import UnifiedCache
import _Adal2MSALTestSupport

@testable import CacheStore

/// Provenance refers to entity rows by table and id, one row per entity written by a run, its input items
/// packed (`ProvenanceSources`), each label and file stored once (schema v7).
@Suite struct ProvenanceTests {
  @Test func packedSourcesComeBackInOrder() throws {
    let sources = [
      ProvenanceSources.Source(fileID: 1, itemIndex: 0, labelID: 1),
      ProvenanceSources.Source(fileID: 300, itemIndex: nil, labelID: 2),
      ProvenanceSources.Source(fileID: 2, itemIndex: 1_000_000_000_000, labelID: 70_000),
      ProvenanceSources.Source(fileID: 2, itemIndex: -5, labelID: 127),
      ProvenanceSources.Source(fileID: 1, itemIndex: 63, labelID: 128),
    ]
    var packed = ProvenanceSources()
    for source in sources { packed.append(source) }
    #expect(packed.sources == sources)
    #expect(ProvenanceSources(bytes: packed.bytes)?.sources == sources)
    // Small ids and indexes take a byte each.
    var small = ProvenanceSources()
    small.append(ProvenanceSources.Source(fileID: 1, itemIndex: 63, labelID: 127))
    #expect(small.bytes.count == 3)
    // A truncated BLOB, or one that stops between the fields of an item, is refused.
    #expect(ProvenanceSources(bytes: Array(packed.bytes.dropLast())) == nil)
    #expect(ProvenanceSources(bytes: [1, 1]) == nil)
    #expect(ProvenanceSources(bytes: [0x80]) == nil)
  }

  /// An entity from three input items is one `provenance` row; its items come back in order, and each label
  /// and file is stored once.
  @Test func oneRowPerEntityWithItsItemsPacked() throws {
    let store = try CacheStore.open(path: try StoreTestSupport.freshPath())
    let account = UnifiedAccount(homeAccountID: "uid.utid", environment: "login.windows.net", realm: "utid")
    let items = [
      PlanSource(file: "a.plist", itemIndex: 7, label: "ADAL MRRT"),
      PlanSource(file: "b.json", itemIndex: nil, label: "MSAL Account"),
      PlanSource(file: "a.plist", itemIndex: 9, label: "ADAL MRRT"),
    ]
    let plan = MigrationPlan(
      entries: [
        PlanEntry(action: .add, entity: .account(account), reasonCode: "test.add", reason: "test", sources: items)
      ], plannedAt: Date())
    let run = try store.apply(plan)
    let trail = try store.provenance(ofKey: account.canonicalKey)
    #expect(
      trail
        == items.map {
          RowProvenance(
            rowKey: account.canonicalKey, rowKind: "Account", runID: run.runID, sourceFile: $0.file,
            itemIndex: $0.itemIndex, label: $0.label, action: "add")
        })
    let counts = try store.queue.read { db in
      try ["provenance", "provenance_files", "provenance_labels"].map {
        try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \($0)") ?? -1
      }
    }
    #expect(counts == [1, 2, 2])
  }

  /// A row deleted by hand leaves its provenance behind; a row written later never takes its id, so the new
  /// row's history is its own (entity ids are AUTOINCREMENT).
  @Test func aDeletedRowsIdIsNeverGivenToAnotherRow() throws {
    let store = try CacheStore.open(path: try StoreTestSupport.freshPath())
    let contents = try ApplyTests.seedContents()
    try store.apply(StoreTestSupport.plan(adding: contents))
    try store.queue.write { db in
      try db.execute(sql: "DELETE FROM credentials WHERE id = (SELECT MAX(id) FROM credentials)")
      try db.execute(sql: "DELETE FROM accounts WHERE id = (SELECT MAX(id) FROM accounts)")
    }
    let token = UnifiedRefreshToken(
      homeAccountID: "new.tenant", environment: "login.windows.net", clientID: "client",
      secret: UnifiedSecret("new-secret"))
    let account = UnifiedAccount(homeAccountID: "new.tenant", environment: "login.windows.net", realm: "tenant")
    var added = UnifiedCacheContents()
    _ = added.upsert(.refreshToken(token))
    _ = added.upsert(.account(account))
    try store.apply(StoreTestSupport.plan(adding: added, file: "later.json"))
    for key in [token.canonicalKey, account.canonicalKey] {
      #expect(try store.provenance(ofKey: key).map(\.sourceFile) == ["later.json"])
    }
  }

  /// The credentials of an account are found by the hash of its lowercased id and told apart from another
  /// account's with the same hash by the id itself.
  @Test func credentialsOfAnAccountAreToldApartFromAnotherWithTheSameHash() throws {
    let store = try CacheStore.open(path: try StoreTestSupport.freshPath())
    var contents = UnifiedCacheContents()
    for home in ["one.tenant", "Two.Tenant"] {
      _ = contents.upsert(
        .refreshToken(
          UnifiedRefreshToken(
            homeAccountID: home, environment: "login.windows.net", clientID: "client", secret: UnifiedSecret(home))))
    }
    try store.apply(StoreTestSupport.plan(adding: contents))
    try store.queue.write { db in
      try db.execute(sql: "UPDATE credentials SET home_account_hash = ?", arguments: [KeyHash.of("two.tenant")])
    }
    let found = try store.credentials(ofHomeAccountID: "TWO.tenant")
    #expect(found.map(\.homeAccountID) == ["Two.Tenant"])
  }
}

/// Files and labels are stored by their exact scalars, as the file system and SQLite's UNIQUE tell them apart.
@Suite struct InternedTextSpellingTests {
  /// Two files whose names are canonically equivalent ("é" as one scalar, and as `e` and a combining accent) are
  /// two files: each row's provenance names its own, in the spelling it was given, as do two such labels.
  @Test func canonicallyEquivalentNamesStayApart() throws {
    let store = try CacheStore.open(path: try StoreTestSupport.freshPath())
    let names = ["caf\u{E9}.plist", "cafe\u{301}.plist"]
    let tokens = BatchWriteTests.tokens(2)
    let plan = MigrationPlan(
      entries: tokens.enumerated().map { index, token in
        PlanEntry(
          action: .add, entity: .refreshToken(token), reasonCode: "t", reason: "t",
          sources: [PlanSource(file: names[index], itemIndex: index, label: names[index])])
      }, plannedAt: Date())
    _ = try store.apply(plan)
    for (token, name) in zip(tokens, names) {
      let provenance = try store.provenance(ofKey: token.canonicalKey)
      #expect(provenance.map { Array($0.sourceFile.unicodeScalars) } == [Array(name.unicodeScalars)])
      #expect(provenance.map { Array($0.label.unicodeScalars) } == [Array(name.unicodeScalars)])
    }
    let files = try store.queue.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM provenance_files") }
    #expect(files == 2)
  }
}

/// `TextMemo`, which remembers the ids of files and labels and the groups of environments, by exact text.
@Suite struct TextMemoTests {
  /// Many texts, some canonically equivalent and some sharing a prefix, asked for in turn and again: each gets
  /// the value remembered for it, however many the memo holds.
  @Test func everyTextGetsItsOwnValue() {
    let texts = (0..<300).flatMap { ["label \($0) caf\u{E9}", "label \($0) cafe\u{301}"] }
    var memo = TextMemo<Int>()
    for (index, text) in texts.enumerated() {
      #expect(memo.value(of: text) == nil)
      memo.remember(index, for: text)
      #expect(memo.value(of: text) == index)
    }
    for (index, text) in texts.enumerated().reversed() { #expect(memo.value(of: text) == index) }
    #expect(memo.value(of: "label 300 caf\u{E9}") == nil)
  }

  /// Texts asked for again, in a row and in turns: the text found last is compared first, and whichever was found
  /// last, each still gets its own value.
  @Test func aTextAskedForAgainGetsItsOwnValue() {
    let texts = (0..<50).map { "file \($0)" }
    var memo = TextMemo<Int>()
    for (index, text) in texts.enumerated() { memo.remember(index, for: text) }
    for index in texts.indices {
      let other = (index * 7 + 3) % texts.count
      for asked in [index, index, other, index, other, other] { #expect(memo.value(of: texts[asked]) == asked) }
    }
  }
}
