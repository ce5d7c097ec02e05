import Foundation
import Testing
import UnifiedCache
import _Adal2MSALTestSupport

@testable import MigrationEngine

/// Plan order made without copying entries: the same order as the full comparison, and entries whose key is
/// always their entity's.
@Suite struct PlanOrderTests {
  /// Keyless skips (tied on kind, key and action), entries without sources and entries of a few keys, sorted by
  /// `sortEntries` exactly as by `PlanOrder.entries`, each entry once: in one sort, and in halves on two cores
  /// (entries tied on everything stay in their order, as a stable sort keeps them).
  @Test(arguments: [Int.max, 2])
  func sortEntriesAgreesWithTheFullComparison(parallelFrom: Int) {
    var generator = SeededGenerator(seed: 23)
    var entries: [PlanEntry] = []
    for index in 0..<600 {
      let source = PlanSource(
        file: ["a.plist", "b.plist"][Int.random(in: 0..<2, using: &generator)],
        itemIndex: Int.random(in: 0..<40, using: &generator), label: "ADAL AT")
      let code = ["adal.expired-access-token", "adal.tombstone"][Int.random(in: 0..<2, using: &generator)]
      let realm = "tenant-\(Int.random(in: 0..<5, using: &generator))"
      let account = AnyUnifiedEntity.account(
        UnifiedAccount(
          homeAccountID: "uid.utid", environment: "login.microsoftonline.com", realm: realm,
          username: "user\(Int.random(in: 0..<3, using: &generator))@contoso.com"))
      switch index % 4 {
      case 0:
        entries.append(
          PlanEntry(action: .skip, kind: .accessToken, reasonCode: code, reason: "\(index)", sources: [source]))
      case 1: entries.append(PlanEntry(action: .skip, reasonCode: code, reason: "\(index)"))
      case 2: entries.append(PlanEntry(action: .add, entity: account, reasonCode: "adal.account", reason: "\(index)"))
      default:
        entries.append(
          PlanEntry(action: .conflict, entity: account, reasonCode: code, reason: "\(index)", sources: [source]))
      }
    }
    var sorted = entries
    PlanOrder.sortEntries(&sorted, parallelFrom: parallelFrom)
    let reference = entries.sorted(by: PlanOrder.entries)
    // Each entry's reason is its number: the orders compare compactly, and no entry is lost or repeated.
    #expect(sorted.map(\.reason) == reference.map(\.reason))
  }

  /// The in-place merge gives the merged copy's order: ties keep the left element first, and an element of either
  /// side may go anywhere (before, between, after the other side's), each once.
  @Test func mergingInPlaceAgreesWithTheMergedCopy() {
    var generator = SeededGenerator(seed: 11)
    for (leftCount, rightCount) in [(0, 0), (0, 3), (3, 0), (1, 1), (5, 2), (2, 9), (40, 40), (200, 7)] {
      // "key tag": ordered by key only, so equal keys are ties that the tags tell apart.
      func side(_ count: Int, _ tag: String) -> [String] {
        (0..<count).map { "\(Int.random(in: 0..<12, using: &generator)) \(tag)\($0)" }
      }
      func key(_ element: String) -> Int { Int(element.prefix { $0 != " " })! }
      let byKey: (String, String) -> Bool = { key($0) < key($1) }
      let left = side(leftCount, "l").sorted(by: byKey)
      let right = side(rightCount, "r").sorted(by: byKey)
      var merged = left
      PlanOrder.merge(into: &merged, right, by: byKey)
      #expect(merged == PlanOrder.merge(left, right, by: byKey), "\(leftCount) and \(rightCount) elements")
    }
  }

  @Test func permuteMovesEachElementToItsPlace() {
    var generator = SeededGenerator(seed: 5)
    for count in [0, 1, 2, 7, 100] {
      let order = Array(0..<count).shuffled(using: &generator)
      var elements = (0..<count).map { "element \($0)" }
      PlanOrder.permute(&elements, into: order)
      #expect(elements == order.map { "element \($0)" })
    }
  }

  /// The store writes an entry under `canonicalKey` without building the key again: it must be the entity's.
  @Test func anEntrysKeyIsItsEntitysKey() {
    let first = AnyUnifiedEntity.account(
      UnifiedAccount(homeAccountID: "uid.utid", environment: "login.microsoftonline.com", realm: "utid"))
    let second = AnyUnifiedEntity.account(
      UnifiedAccount(homeAccountID: "uid.utid", environment: "login.microsoftonline.com", realm: "other"))
    var entry = PlanEntry(action: .add, canonicalKey: "stale", entity: first, reasonCode: "c", reason: "r")
    #expect(entry.canonicalKey == first.canonicalKey)
    entry.entity = second
    #expect(entry.canonicalKey == second.canonicalKey)
    #expect(PlanEntry(action: .skip, canonicalKey: "k", reasonCode: "c", reason: "r").canonicalKey == "k")
  }
}

/// Identity resolution on all cores gives what one core gives, for every scenario.
@Suite struct ParallelIdentityTests {
  @Test(arguments: Scenario.names)
  func clustersResolvedOnAllCoresMatchOneCore(_ name: String) throws {
    let scenario = try Scenario(name)
    var clouds: [String: String] = [:]
    var unknown: Set<String> = []
    var items = scenario.adal.flatMap { input in
      input.items.compactMap { SourcedItem($0, file: input.file, clouds: &clouds, unknown: &unknown) }
    }
    items = SourcedItem.sortedInPlanOrder(items)
    for index in items.indices { items[index].ordinal = index }
    let resolver = IdentityResolver(existing: ExistingAccountIndex(scenario.existing.accounts.entities))
    let serial = resolver.resolve(items, minimumChunk: .max)
    #expect(resolver.resolve(items, minimumChunk: 1) == serial)
    #expect(serial.resolved.count { $0 != nil } + serial.unresolved.count == items.count)
  }
}
