import Foundation
import GRDB
import MigrationEngine
import Testing

@testable import CacheStore

/// A new store's first run gets a page cache sized for its rows (`FirstRunJournal.cacheKilobytes(forRows:)`):
/// room for the lookup indexes, not for every page the run writes.
@Suite struct FirstRunCacheTests {
  /// A part of `count` skipped entries: the cache is sized by the entries given, written or not.
  static func skipped(_ count: Int) -> MigrationPlan {
    let entry = PlanEntry(action: .skip, kind: .accessToken, reasonCode: "s", reason: "s", sources: [])
    return MigrationPlan(entries: Array(repeating: entry, count: count), plannedAt: Date())
  }

  @Test func theCacheGrowsWithTheRowsFromItsFloorToItsCeiling() {
    let floor = FirstRunJournal.minimumCacheKilobytes
    let ceiling = FirstRunJournal.maximumCacheKilobytes
    #expect(FirstRunJournal.cacheKilobytes(forRows: 0) == floor)
    #expect(FirstRunJournal.cacheKilobytes(forRows: floor * 1_024 / FirstRunJournal.cacheBytesPerRow) == floor)
    #expect(FirstRunJournal.cacheKilobytes(forRows: 100_000) == 100_000 * FirstRunJournal.cacheBytesPerRow / 1_024)
    #expect(FirstRunJournal.cacheKilobytes(forRows: 10_000_000) == ceiling)
    #expect(FirstRunJournal.cacheKilobytes(forRows: .max) == ceiling)
    // The 10k-item dump's 11,417 rows: 1 MiB, which their indexes fit in; 2 MiB peaked about 0.5 MiB higher
    // (docs/benchmarks.md, "Records made as they are decoded").
    #expect(FirstRunJournal.cacheKilobytes(forRows: 11_417) == 1_024)
  }

  /// Each part of a first run sizes the cache for the entries given so far; the store keeps its whole cache
  /// once the run is over, and a later run into it never shrinks it.
  @Test func aFirstRunSizesItsCacheForEachPartAndLaterRunsKeepTheWholeCache() throws {
    let store = try CacheStore.open(path: try StoreTestSupport.freshPath())
    var seen: [Int] = []
    try store.applyInParts(plannedAt: Date(), inputs: []) { writer in
      seen.append(try writer.pageCacheKilobytes)
      try writer.write(Self.skipped(40_000))
      seen.append(try writer.pageCacheKilobytes)
      try writer.write(Self.skipped(60_000))
      seen.append(try writer.pageCacheKilobytes)
    }
    #expect(seen == [FirstRunJournal.minimumCacheKilobytes, 2_500, 6_250])
    let afterwards = try store.queue.read { try Int.fetchOne($0, sql: "PRAGMA cache_size") }
    #expect(afterwards == -CacheStore.cacheKilobytes)

    var again: [Int] = []
    try store.applyInParts(plannedAt: Date(), inputs: []) { writer in
      try writer.write(Self.skipped(40_000))
      again.append(try writer.pageCacheKilobytes)
    }
    #expect(again == [CacheStore.cacheKilobytes])
  }
}
