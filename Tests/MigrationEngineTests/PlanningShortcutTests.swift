import Foundation
import Testing
import UnifiedCache
import _Adal2MSALTestSupport

@testable import MigrationEngine

/// The planner's shortcuts give what the plain way gives: offering proposals in slot order without a table,
/// comparing entries field by field, and listing an app's sources without a set.
@Suite struct PlanningShortcutTests {
  /// Refresh tokens of a few keys, some repeated with another secret (a conflict, or a merge when the inputs
  /// win), from sources in shuffled order.
  private static func proposals(seed: UInt64) -> [Proposal] {
    var generator = SeededGenerator(seed: seed)
    return (0..<300).map { index in
      let client = "client-\(Int.random(in: 0..<12, using: &generator))"
      let secret = "rt-\(Int.random(in: 0..<3, using: &generator))"
      let token = UnifiedRefreshToken(
        homeAccountID: "uid.utid", environment: "login.microsoftonline.com", clientID: client,
        secret: UnifiedSecret(secret), familyID: Bool.random(using: &generator) ? "1" : nil)
      let source = PlanSource(file: "dump.plist", itemIndex: Int.random(in: 0..<50, using: &generator), label: "ADAL")
      return Proposal(
        entity: .refreshToken(token), sources: [source], rule: .derivedFromIDToken, username: "user@contoso.com",
        homeAccountID: "uid.utid", reasonCode: "adal.refresh-token", reason: "proposal \(index)")
    }
  }

  @Test(arguments: [MigrationOptions.Preference.existing, .adal])
  func offeringInSlotOrderIsOfferingOneAtATime(_ prefer: MigrationOptions.Preference) {
    let proposals = Self.proposals(seed: 11)
    let order = proposals.indices.sorted { (proposals[$0].canonicalKey, $0) < (proposals[$1].canonicalKey, $1) }
    var shortcut = Reconciler(store: [:], prefer: prefer)
    shortcut.offer(proposals, inSlotOrder: order)
    var plain = Reconciler(store: [:], prefer: prefer)
    for index in order { plain.offer(proposals[index], fromADAL: true) }
    #expect(shortcut.entries.count < proposals.count)  // repeated keys met each other
    #expect(shortcut.entries == plain.entries)
  }

  /// Entries tied on kind and key, or on everything but the entity, ordered by `PlanOrder.entries` as by the
  /// full `EntryOrder` comparison, both ways round.
  @Test func comparingEntriesInPlaceIsTheFullComparison() {
    var generator = SeededGenerator(seed: 7)
    let entries = (0..<120).map { index -> PlanEntry in
      let token = UnifiedRefreshToken(
        homeAccountID: "uid.utid", environment: "login.microsoftonline.com",
        clientID: "client-\(Int.random(in: 0..<3, using: &generator))",
        secret: UnifiedSecret("rt-\(Int.random(in: 0..<3, using: &generator))"))
      let source = PlanSource(file: "dump.plist", itemIndex: Int.random(in: 0..<3, using: &generator), label: "ADAL")
      let action = [PlanAction.add, .conflict, .skip][Int.random(in: 0..<3, using: &generator)]
      return PlanEntry(
        action: action, entity: index % 5 == 0 ? nil : .refreshToken(token),
        reasonCode: ["plan.conflict", "adal.refresh-token"][Int.random(in: 0..<2, using: &generator)],
        reason: "\(index)", sources: Bool.random(using: &generator) ? [source] : [])
    }
    for lhs in entries {
      for rhs in entries {
        #expect(PlanOrder.entries(lhs, rhs) == (EntryOrder(lhs) < EntryOrder(rhs)))
      }
    }
  }

  /// Without an index and with index -1, `precedes` leaves two sources of a file unordered: those are
  /// still listed once each, the rest in order.
  @Test(arguments: [0, -1])
  func anAppsSourcesAreTheSetOfThemSorted(lowestIndex: Int) {
    var generator = SeededGenerator(seed: 3)
    let sources = (0..<500).map { _ in
      PlanSource(
        file: ["b.plist", "a.plist"][Int.random(in: 0..<2, using: &generator)],
        itemIndex: Bool.random(using: &generator) ? Int.random(in: lowestIndex..<40, using: &generator) : nil,
        label: ["ADAL MRRT", "ADAL AT"][Int.random(in: 0..<2, using: &generator)])
    }
    let listed = AppMetadataCollector.distinctInOrder(sources)
    #expect(listed.count == Set(sources).count)
    #expect(Set(listed) == Set(sources))
    if lowestIndex == 0 { #expect(listed == Set(sources).sorted(by: PlanSource.precedes)) }
  }
}
