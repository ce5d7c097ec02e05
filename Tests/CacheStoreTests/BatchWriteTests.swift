import Foundation
import GRDB
import MigrationEngine
import Testing
import UnifiedCache
import _Adal2MSALTestSupport

@testable import CacheStore

/// New rows are written in batches of `INSERT ... VALUES (...), (...)` with the ids SQLite would give them
/// (`RowWriter`, `ProvenanceWriter`), their text bound from `BindArena`: what a run writes is what one statement
/// per row wrote.
@Suite struct BatchWriteTests {
  /// `count` refresh tokens of distinct keys; `client` and `secret` name their fields.
  static func tokens(_ count: Int, client: String = "c", secret: String = "rt") -> [UnifiedRefreshToken] {
    (0..<count).map { index in
      UnifiedRefreshToken(
        homeAccountID: "uid\(index).utid", environment: "login.windows.net", clientID: client,
        secret: UnifiedSecret("\(secret)\(index)"))
    }
  }

  static func plan(_ tokens: [UnifiedRefreshToken]) -> MigrationPlan {
    MigrationPlan(
      entries: tokens.enumerated().map { index, token in
        PlanEntry(
          action: .add, entity: .refreshToken(token), reasonCode: "t", reason: "t",
          sources: [PlanSource(file: "f", itemIndex: index, label: "l")])
      }, plannedAt: Date())
  }

  /// The ids of the `credentials` rows, in id order.
  static func credentialIDs(_ store: CacheStore) throws -> [Int64] {
    try store.queue.read { try Int64.fetchAll($0, sql: "SELECT id FROM credentials ORDER BY id") }
  }

  /// Plans of fewer rows than a batch, of exactly one, and of a batch and a few: every row and its provenance is
  /// written, with ids in the plan's order.
  @Test(arguments: [1, 31, 32, 33, 70])
  func everyRowOfAPlanIsWritten(count: Int) throws {
    let store = try CacheStore.open(path: try StoreTestSupport.freshPath())
    let tokens = Self.tokens(count)
    let summary = try store.apply(Self.plan(tokens))
    #expect(summary.rowsInserted == count)
    #expect(try store.contents().refreshTokens.entities == tokens.sorted { $0.canonicalKey < $1.canonicalKey })
    #expect(try Self.credentialIDs(store) == (1...Int64(count)).map { $0 })
    #expect(try StoreTestSupport.counts(store).provenance == count)
    let last = try #require(tokens.last)
    #expect(try store.provenance(ofKey: last.canonicalKey).map(\.itemIndex) == [count - 1])
  }

  /// A plan of several prepared chunks (`RowPreparation`): writes between skipped entries, accounts between the
  /// tokens, and sources naming files and labels first met in later chunks, or none. Every row is written, in
  /// the plan's order, with its own sources.
  @Test func aPlanOfSeveralChunksKeepsEachRowsSources() throws {
    let store = try CacheStore.open(path: try StoreTestSupport.freshPath())
    let tokens = Self.tokens(RowPreparation.chunkSize * 2 + 17)
    var entries: [PlanEntry] = []
    var expected: [(key: String, sources: [PlanSource])] = []
    for (index, token) in tokens.enumerated() {
      if index % 5 == 0 {
        entries.append(PlanEntry(action: .skip, kind: .accessToken, reasonCode: "s", reason: "s", sources: []))
      }
      var sources = [PlanSource(file: "f\(index / 100)", itemIndex: index, label: "l\(index % 7)")]
      if index % 3 == 0 { sources.append(PlanSource(file: "g", itemIndex: nil, label: "second\(index / 200)")) }
      if index % 11 == 0 { sources = [] }
      entries.append(
        PlanEntry(
          action: .add, entity: .refreshToken(token), reasonCode: "r\(index % 2)", reason: "r", sources: sources))
      expected.append((token.canonicalKey, sources.isEmpty ? [PlanSource(file: "-", label: "r\(index % 2)")] : sources))
      if index % 50 == 0 {
        let account = UnifiedAccount(homeAccountID: token.homeAccountID, environment: token.environment, realm: "utid")
        entries.append(PlanEntry(action: .add, entity: .account(account), reasonCode: "a", reason: "a", sources: []))
        expected.append((account.canonicalKey, [PlanSource(file: "-", label: "a")]))
      }
    }
    let summary = try store.apply(MigrationPlan(entries: entries, plannedAt: Date()))
    #expect(summary.rowsInserted == expected.count)
    #expect(try Self.credentialIDs(store) == (1...Int64(tokens.count)).map { $0 })
    #expect(try store.contents().refreshTokens.entities == tokens.sorted { $0.canonicalKey < $1.canonicalKey })
    for (key, sources) in expected {
      let recorded = try store.provenance(ofKey: key)
      #expect(recorded.map { PlanSource(file: $0.sourceFile, itemIndex: $0.itemIndex, label: $0.label) } == sources)
    }
  }

  /// A run written in parts, each part's files and labels numbered anew (`RowPreparation`), names each row's
  /// own sources: the second part meets its files in the other order.
  @Test func partsOfARunKeepEachRowsSources() throws {
    let store = try CacheStore.open(path: try StoreTestSupport.freshPath())
    let tokens = Self.tokens(40)
    func part(_ range: Range<Int>, files: [String]) -> MigrationPlan {
      MigrationPlan(
        entries: range.map { index in
          PlanEntry(
            action: .add, entity: .refreshToken(tokens[index]), reasonCode: "t", reason: "t",
            sources: [PlanSource(file: files[index % 2], itemIndex: index, label: "l\(index % 2)")])
        }, plannedAt: Date())
    }
    try store.applyInParts(plannedAt: Date(), inputs: []) { writer in
      try writer.write(part(0..<20, files: ["a", "b"]))
      try writer.write(part(20..<40, files: ["c", "a"]))
    }
    for index in tokens.indices {
      let file = index < 20 ? ["a", "b"][index % 2] : ["c", "a"][index % 2]
      let recorded = try store.provenance(ofKey: tokens[index].canonicalKey)
      #expect(recorded.map(\.sourceFile) == [file])
      #expect(recorded.map(\.label) == ["l\(index % 2)"])
    }
  }

  /// A key written twice in one run, the second time while its first row still waits in the batch and after
  /// it was written: the row is replaced in place, keeping its id, as a key the store held before the run.
  @Test func aKeyWrittenTwiceInOneRunIsReplacedInPlace() throws {
    let store = try CacheStore.open(path: try StoreTestSupport.freshPath())
    var tokens = Self.tokens(40)
    var again = [tokens[33], tokens[2]]
    for index in again.indices { again[index].secret = UnifiedSecret("changed\(index)") }
    tokens.insert(again[0], at: 35)
    tokens.append(again[1])
    let summary = try store.apply(Self.plan(tokens))
    #expect(summary.rowsInserted == 40)
    #expect(summary.rowsUpdated == 2)
    #expect(try Self.credentialIDs(store) == (1...40).map { Int64($0) })
    let stored = try store.contents().refreshTokens.entities
    #expect(stored.count == 40)
    #expect(stored.contains(again[0]) && stored.contains(again[1]))
    let history = try store.provenance(ofKey: again[0].canonicalKey)
    #expect(history.map(\.action) == ["add", "update"])
  }

  /// The ids of new rows continue after the largest id the table ever gave (AUTOINCREMENT), also when its rows
  /// were deleted by hand: provenance never names another row by an old row's id.
  @Test func newRowsContinueAfterTheLargestIDEverGiven() throws {
    let store = try CacheStore.open(path: try StoreTestSupport.freshPath())
    try store.apply(Self.plan(Self.tokens(5)))
    try store.queue.write { try $0.execute(sql: "DELETE FROM credentials") }
    try store.apply(Self.plan(Self.tokens(3, secret: "new")))
    #expect(try Self.credentialIDs(store) == [6, 7, 8])
  }

  /// A row that breaks a constraint fails the run and rolls it back, in a batch as on its own (here a unique
  /// index added by hand refuses the second of two tokens with one secret).
  @Test func aRowABatchCannotWriteFailsTheRun() throws {
    let store = try CacheStore.open(path: try StoreTestSupport.freshPath())
    try store.queue.write { try $0.execute(sql: "CREATE UNIQUE INDEX one_per_secret ON credentials(secret)") }
    var tokens = Self.tokens(10)
    tokens[7].secret = tokens[3].secret
    #expect(throws: CacheStoreError.self) { try store.apply(Self.plan(tokens)) }
    #expect(try StoreTestSupport.counts(store) == StoreTestSupport.Counts())
  }

  /// An absent field is not bound at all (`BoundStatement`): it is NULL in its row also where the same
  /// parameter of the previous batch held a value.
  @Test func anAbsentFieldIsNullAfterABatchThatHadIt() throws {
    let store = try CacheStore.open(path: try StoreTestSupport.freshPath())
    var tokens = Self.tokens(70)
    for index in tokens.indices where (index / TableWriter.batchSize).isMultiple(of: 2) {
      tokens[index].familyID = "1"
    }
    try store.apply(Self.plan(tokens))
    let families = try store.queue.read { db in
      try DatabaseValue.fetchAll(db, sql: "SELECT family_id FROM credentials ORDER BY id")
    }
    #expect(families == tokens.map { $0.familyID.map { $0.databaseValue } ?? .null })
  }

  /// Texts longer than an arena chunk, between short ones, are bound whole.
  @Test func textsLongerThanAChunkRoundTrip() throws {
    let store = try CacheStore.open(path: try StoreTestSupport.freshPath())
    var tokens = Self.tokens(40)
    for index in [0, 5, 6, 39] {
      tokens[index].secret = UnifiedSecret(String(repeating: "s\(index)-", count: 40_000))
    }
    try store.apply(Self.plan(tokens))
    #expect(try store.contents().refreshTokens.entities == tokens.sorted { $0.canonicalKey < $1.canonicalKey })
  }

  /// Bytes copied into the arena stay in place and whole until it is reset, whatever their sizes.
  @Test func theArenaKeepsEveryCopyInPlace() {
    let arena = BindArena()
    for _ in 0..<2 {
      let values = (0..<300).map { index in [UInt8](repeating: UInt8(index % 251), count: (index * 997) % 90_000) }
      let copies = values.map { value in value.withUnsafeBytes { arena.copy($0) } }
      for (value, copy) in zip(values, copies) {
        #expect(Array(UnsafeRawBufferPointer(start: copy, count: value.count)) == value)
      }
      arena.reset()
    }
  }
}
