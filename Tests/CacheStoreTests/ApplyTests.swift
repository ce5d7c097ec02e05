import Adal2MSALSupport
import Foundation
import GRDB
import MigrationEngine
import Testing
import UnifiedCache
import _Adal2MSALTestSupport

@testable import CacheStore

@Suite struct ApplyTests {
  static func seedContents() throws -> UnifiedCacheContents {
    try StoreTestSupport.read(Fixtures.url("msal-json/msal-dotnet_token_cache_one_acc_seed.json"))
  }

  @Test func applyingAPlanTwiceWritesNothingTheSecondTime() throws {
    let store = try CacheStore.open(path: try StoreTestSupport.freshPath())
    let contents = try Self.seedContents()
    let plan = StoreTestSupport.plan(adding: contents)
    let first = try store.apply(plan)
    #expect(first.rowsInserted == contents.allEntities.count)
    let afterFirst = try StoreTestSupport.counts(store)

    let second = try store.apply(plan)
    #expect(second.rowsWritten == 0)
    #expect(second.rowsAlreadyCurrent == contents.allEntities.count)
    #expect(second.runID == first.runID + 1)
    var expected = afterFirst
    expected.runs += 1
    #expect(try StoreTestSupport.counts(store) == expected)
    #expect(try store.contents() == contents)
    #expect(try store.runs().count == 2)
  }

  @Test func updateReplacesTheRowAndRecordsProvenance() throws {
    let store = try CacheStore.open(path: try StoreTestSupport.freshPath())
    let contents = try Self.seedContents()
    try store.apply(StoreTestSupport.plan(adding: contents, file: "first.json"))
    var account = try #require(contents.accounts.entities.first)
    account.name = "Renamed"
    let plan = MigrationPlan(
      entries: [
        PlanEntry(
          action: .update, entity: .account(account), reasonCode: "test.update", reason: "test",
          sources: [PlanSource(file: "second.json", itemIndex: 3, label: "test Account")])
      ], plannedAt: Date())
    let summary = try store.apply(plan)
    #expect(summary.rowsUpdated == 1)
    #expect(try store.entity(kind: .account, key: account.canonicalKey) == .account(account))
    let trail = try store.provenance(ofKey: account.canonicalKey)
    #expect(trail.map(\.action) == ["add", "update"])
    #expect(trail.last?.sourceFile == "second.json")
    #expect(trail.last?.itemIndex == 3)
    #expect(trail.last?.runID == summary.runID)
    // The replaced row keeps its id, to which both provenance rows refer.
    let rowIDs = try store.queue.read { db in
      try Int64.fetchAll(db, sql: "SELECT row_id FROM provenance WHERE row_table = 1 ORDER BY run_id, seq")
    }
    #expect(rowIDs.count == contents.accounts.entities.count + 1)
    #expect(rowIDs.last.map { last in rowIDs.dropLast().contains(last) } == true)
  }

  @Test func onlyAddAndUpdateEntriesAreWritten() throws {
    let store = try CacheStore.open(path: try StoreTestSupport.freshPath())
    let contents = try Self.seedContents()
    let entities = contents.allEntities
    let actions: [PlanAction] = [.skip, .conflict, .unchanged]
    let entries = entities.enumerated().map { index, entity in
      PlanEntry(action: actions[index % actions.count], entity: entity, reasonCode: "test", reason: "test")
    }
    let summary = try store.apply(MigrationPlan(entries: entries, plannedAt: Date()))
    #expect(summary.rowsWritten == 0)
    #expect(try store.contents().allEntities.isEmpty)
    #expect(summary.planned["skip"]?.values.reduce(0, +) == entries.count { $0.action == .skip })
  }

  /// A failure in the middle of an apply rolls everything back: entities, run row and provenance.
  @Test func aFailingApplyLeavesTheStoreAsItWas() throws {
    let store = try CacheStore.open(path: try StoreTestSupport.freshPath())
    let contents = try Self.seedContents()
    try store.apply(StoreTestSupport.plan(adding: contents))
    let before = try StoreTestSupport.counts(store)
    let beforeContents = try store.contents()
    try store.queue.write { db in
      try db.execute(
        sql: """
          CREATE TRIGGER refuse_poison BEFORE INSERT ON credentials WHEN NEW.client_id = 'poison'
          BEGIN SELECT RAISE(ABORT, 'refused'); END
          """)
    }
    var entries: [PlanEntry] = (0..<50).map { index in
      let token = UnifiedRefreshToken(
        homeAccountID: "uid\(index).utid", environment: "login.windows.net", clientID: "ok",
        secret: UnifiedSecret("rt\(index)"))
      return PlanEntry(
        action: .add, entity: .refreshToken(token), reasonCode: "t", reason: "t",
        sources: [PlanSource(file: "f", label: "l")])
    }
    let poison = UnifiedRefreshToken(
      homeAccountID: "zz.utid", environment: "login.windows.net", clientID: "poison", secret: UnifiedSecret("rt-poison")
    )
    entries.append(PlanEntry(action: .add, entity: .refreshToken(poison), reasonCode: "t", reason: "t"))
    #expect(throws: CacheStoreError.self) {
      try store.apply(
        MigrationPlan(entries: entries, plannedAt: Date()), options: ApplyOptions(unknownSections: ["X": .null]))
    }
    #expect(try StoreTestSupport.counts(store) == before)
    #expect(try store.contents() == beforeContents)
  }

  @Test func runRecordsInputsOptionsAndSummary() throws {
    let store = try CacheStore.open(path: try StoreTestSupport.freshPath())
    let contents = try Self.seedContents()
    var plan = StoreTestSupport.plan(adding: contents)
    plan.inputs = [
      PlanInput(
        path: "in.json", role: .msal, sha256: String(repeating: "ab", count: 32), byteCount: 10,
        detectedFormat: "msal-json")
    ]
    try store.apply(plan, options: ApplyOptions(recordedOptions: ["dryRun": .bool(false)]))
    let run = try #require(try store.runs().first)
    #expect(run.toolVersion == ToolVersion.current)
    #expect(run.inputsJSON.contains(String(repeating: "ab", count: 32)))
    #expect(run.optionsJSON == #"{"dryRun":false}"#)
    let summary = try JSONSerialization.jsonObject(with: Data(run.summaryJSON.utf8)) as? [String: Any]
    let planned = summary?["planned"] as? [String: [String: Int]]
    #expect(planned?["add"]?["AccessToken"] == contents.accessTokens.count)
    #expect(summary?["rowsInserted"] as? Int == contents.allEntities.count)
    #expect(!run.finishedAt.isEmpty)
  }

  /// The run row's `inputs` and `summary` are the text Foundation's `JSONEncoder` (sorted keys, ISO 8601 dates)
  /// wrote for them before the project's writer took over, except that `/` is no longer escaped.
  @Test func runRecordsAreTheTextJSONEncoderWrote() throws {
    let store = try CacheStore.open(path: try StoreTestSupport.freshPath())
    var plan = StoreTestSupport.plan(adding: try Self.seedContents())
    plan.inputs = [
      PlanInput(path: "b/in.json", role: .msal, sha256: "cd", byteCount: 10, detectedFormat: "msal-json"),
      PlanInput(path: "a/dump.plist", role: .adal, sha256: "ab", byteCount: 2, detectedFormat: "xml-plist-dump"),
    ]
    let started = Date(timeIntervalSince1970: 1_795_000_000)
    let summary = try store.apply(
      plan,
      options: ApplyOptions(startedAt: started, now: { Date(timeIntervalSince1970: 1_795_000_001.5) }))
    let run = try #require(try store.runs().first)
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    encoder.dateEncodingStrategy = .iso8601
    let inputs = plan.inputs.sorted { $0.path < $1.path }
    #expect(run.inputsJSON == String(decoding: try encoder.encode(inputs), as: UTF8.self))
    #expect(run.summaryJSON == String(decoding: try encoder.encode(summary), as: UTF8.self))
    #expect(run.summaryJSON.contains(#""startedAt":"2026-11-18T"#))
  }
}
