import Adal2MSAL
import Foundation
import Testing
import _Adal2MSALTestSupport

/// A writing run reads its target beside its inputs, before it takes the store's write lock. What another
/// writer commits in between is what the run plans against.
@Suite struct TargetReadRaceTests {
  @Test func aCommitBetweenTheReadAndTheLockIsPlannedAgainst() async throws {
    let store = try Fixtures.temporaryDirectory("commit-before-lock").appendingPathComponent("cache.sqlite").path
    let dump = Fixtures.url("adal/dump-multiuser.xml.plist").path
    var options = MigrationRun.Options()
    options.migration = MigrationOptions(clock: .fixed(Date(timeIntervalSince1970: 1_790_000_000)))
    let first = try await MigrationRun(adal: [dump], store: store, options: options).run()
    let added = try #require(first.totals[.add])
    let conflicts = first.totals[.conflict] ?? 0

    // Another writer holds the lock while the run reads; before it lets go, it rotates one refresh token.
    let lock = try StoreWriteLock(storePath: store) {}
    let second = try await MigrationRun(adal: [dump], store: store, options: options).run { progress in
      guard progress.stage == .waiting else { return }
      // The run read its small target long before this: it read its inputs after starting that read.
      Thread.sleep(forTimeInterval: 0.2)
      do {
        let writer = try CacheStore.open(path: store)
        var token = try #require(try writer.contents().refreshTokens.entities.first)
        token.secret = UnifiedSecret("rotated by another writer")
        let entry = PlanEntry(
          action: .update, entity: .refreshToken(token), reasonCode: "test.rotated", reason: "another writer",
          sources: [PlanSource(file: "other-writer", itemIndex: 0, label: "test")])
        try writer.apply(MigrationPlan(entries: [entry], plannedAt: Date(timeIntervalSince1970: 1_790_000_000)))
      } catch {
        Issue.record(error)
      }
      lock.release()
    }
    // The rotated token differs from the dump's: a conflict, where the store the run read first holds the dump's.
    #expect(second.totals[.conflict] == conflicts + 1)
    #expect(second.totals[.unchanged] == added - 1)
    #expect(second.totals[.add] == nil)
  }
}
