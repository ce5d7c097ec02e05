import Foundation
import Testing
import UnifiedCache
import _Adal2MSALTestSupport

@testable import MigrationEngine

/// Each ADAL item is counted once per file, in the best bucket of what its entries did, and each bucket's count is
/// exact: the end-to-end accounting tests check that a file's buckets add up, and no fixture there has an item
/// whose every entry was merged into another.
@Suite struct InputAccountingTests {
  private static func entry(_ action: PlanAction, _ code: String, _ file: String, item: Int) -> PlanEntry {
    PlanEntry(
      action: action, reasonCode: code, reason: code,
      sources: [PlanSource(file: file, itemIndex: item, label: "ADAL RT")])
  }

  @Test func eachItemLandsInItsBestBucketAndEveryBucketCountsExactly() {
    let plan = MigrationPlan(
      entries: [
        Self.entry(.add, "adal.refresh-token", "a.plist", item: 0),
        Self.entry(.conflict, "adal.duplicate-refresh-token", "a.plist", item: 0),  // migrated wins
        Self.entry(.conflict, "adal.duplicate-refresh-token", "a.plist", item: 1),
        Self.entry(.skip, "adal.expired-access-token", "a.plist", item: 2),
        Self.entry(.skip, "adal.duplicate-access-token", "a.plist", item: 2),  // merged beats a policy skip
        Self.entry(.skip, "adal.expired-access-token", "a.plist", item: 3),
        Self.entry(.skip, "adal.bad-authority", "a.plist", item: 4),
        Self.entry(.unchanged, "adal.refresh-token", "a.plist", item: 5),
        Self.entry(.skip, "adal.bad-authority", "a.plist", item: 5),
        // Item 6 of a.plist gave no entry: not counted here.
        Self.entry(.add, "adal.refresh-token", "a.plist", item: 7),
        Self.entry(.add, "adal.account", "b.plist", item: 0),
        Self.entry(.add, "adal.refresh-token", "b.plist", item: 0),
      ],
      plannedAt: Date(timeIntervalSince1970: 0))
    var accounting = InputAccounting()
    accounting.add(plan)
    accounting.addIgnored(3, file: "a.plist")
    let files = accounting.files
    #expect(files.keys.sorted() == ["a.plist", "b.plist"])
    let a = files["a.plist"] ?? InputAccounting.FileTotals()
    #expect(
      [a[.migrated], a[.unchanged], a[.merged], a[.policySkip], a[.problem], a.ignored] as [Int] == [2, 1, 2, 1, 1, 3])
    #expect(a.total == 10)
    let b = files["b.plist"] ?? InputAccounting.FileTotals()
    #expect([b[.migrated], b[.unchanged], b[.merged], b[.policySkip], b[.problem]] as [Int] == [1, 0, 0, 0, 0])
    #expect(b.counts.keys.sorted() == [InputAccounting.Bucket.migrated])
  }

  /// A user's Account (and its app's metadata) names every item of the user as a source. An item whose tokens were
  /// all merged into others', or all expired, is merged or skipped by policy, not "migrated" by the Account; an item
  /// no token entry names takes the Account's bucket.
  /// The Account, id token and app metadata name every item of their user: an item's refresh and access tokens
  /// decide where it ends (item 4's only token could not be migrated), and an Account left out because none of its
  /// user's tokens migrates counts for nothing (item 5's token expired: a policy skip).
  @Test func theAccountDoesNotMakeAnItemMigrated() {
    let items = (0...5).map { PlanSource(file: "c.json", itemIndex: $0, label: "ADAL Python entry") }
    func entry(_ action: PlanAction, _ kind: UnifiedEntityKind, _ code: String, _ sources: [Int]) -> PlanEntry {
      PlanEntry(action: action, kind: kind, reasonCode: code, reason: code, sources: sources.map { items[$0] })
    }
    let plan = MigrationPlan(
      entries: [
        entry(.add, .account, "adal.account", [0, 1, 2, 3, 4]),
        entry(.add, .appMetadata, "adal.app-metadata", [0, 1, 2, 3, 4]),
        entry(.add, .idToken, "adal.id-token", [0, 1, 2, 3, 4]),
        entry(.skip, .accessToken, "adal.access-token-without-expiry", [4]),
        entry(.skip, .account, "adal.no-token-migrates", [5]),
        entry(.skip, .accessToken, "adal.expired-access-token", [5]),
        entry(.add, .refreshToken, "adal.refresh-token", [0]),
        entry(.skip, .refreshToken, "adal.duplicate-refresh-token", [1]),
        entry(.skip, .accessToken, "adal.duplicate-access-token", [1]),
        entry(.skip, .accessToken, "adal.expired-access-token", [2]),
      ],
      plannedAt: Date(timeIntervalSince1970: 0))
    var accounting = InputAccounting()
    accounting.add(plan)
    let c = accounting.files["c.json"] ?? InputAccounting.FileTotals()
    #expect([c[.migrated], c[.unchanged], c[.merged], c[.policySkip], c[.problem]] as [Int] == [2, 0, 1, 2, 1])
    #expect(c.total == 6)
  }

  /// One MSAL entity read from two files (one dump given twice, in two formats) is one entry with a source for
  /// each: the first file's counts as the entry does, the second's as merged into it, as a repeated ADAL item.
  @Test func anMSALEntityInTwoFilesIsMigratedOnceAndMergedOnce() {
    let sources = ["first.plist", "second.plist"].map { PlanSource(file: $0, label: "MSAL RefreshToken") }
    for action in [PlanAction.add, .unchanged] {
      let plan = MigrationPlan(
        entries: [
          PlanEntry(
            action: action, kind: .refreshToken, canonicalKey: "k", reasonCode: "msal.input", reason: "",
            sources: sources)
        ],
        plannedAt: Date(timeIntervalSince1970: 0))
      var accounting = InputAccounting()
      accounting.add(plan)
      let bucket: InputAccounting.Bucket = action == .add ? .migrated : .unchanged
      #expect(accounting.files["first.plist"]?[bucket] == 1 && accounting.files["first.plist"]?.total == 1)
      #expect(accounting.files["second.plist"]?[.merged] == 1 && accounting.files["second.plist"]?.total == 1)
    }
  }
}
