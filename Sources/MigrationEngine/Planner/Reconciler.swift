import Foundation
import UnifiedCache

/// Compares incoming entities (MSAL inputs first, then ADAL proposals) with the target store and with each
/// other, giving exactly one add/update/unchanged entry per target entity plus a conflict entry for every
/// incoming entity that loses.
struct Reconciler {
  let prefer: MigrationOptions.Preference
  private(set) var entries: [PlanEntry] = []
  /// The entry that decides each `kind|key` (add, update or unchanged).
  private var primary: [String: Int] = [:]
  private let store: [String: AnyUnifiedEntity]

  init(store contents: UnifiedCacheContents, prefer: MigrationOptions.Preference) {
    self.prefer = prefer
    var store: [String: AnyUnifiedEntity] = [:]
    for entity in contents.allEntities { store[Self.slot(entity)] = entity }
    self.store = store
  }

  static func slot(_ entity: AnyUnifiedEntity) -> String { "\(entity.kind.rawValue)|\(entity.canonicalKey)" }

  /// Offers an incoming entity. `fromADAL` is false for MSAL-input entities (first input wins among those).
  mutating func offer(_ proposal: Proposal, fromADAL: Bool) {
    let slot = Self.slot(proposal.entity)
    let incoming = proposal.entity
    if let index = primary[slot], let current = entries[index].entity {
      let merged = EntityMerge.merged(incoming, over: current)
      if merged == current {
        entries[index].sources = Self.union(entries[index].sources, proposal.sources)
        return
      }
      let fields = EntityMerge.differingFields(merged, current).joined(separator: ", ")
      if fromADAL, prefer == .adal {
        let base = store[slot]
        var entry = entries[index]
        entry.entity = merged
        entry.sources = Self.union(entry.sources, proposal.sources)
        entry.identityRule = proposal.rule ?? entry.identityRule
        entry.reasonCode = "plan.input-wins"
        entry.reason = "ADAL entity laid over the MSAL input (differs in \(fields)); the inputs win (prefer adal)"
        entry.action = base == nil ? .add : (base == merged ? .unchanged : .update)
        entries[index] = entry
        return
      }
      let other = entries[index].identityRule == .unifiedInput ? "the MSAL input's entry" : "another input's entry"
      append(
        proposal, action: .conflict, existing: current, code: "plan.conflict",
        reason: "differs from \(other) in \(fields); that entry is kept, nothing written for this one")
      return
    }
    if let old = store[slot] {
      let merged = EntityMerge.merged(incoming, over: old)
      if merged == old {
        primary[slot] = entries.count
        append(proposal, action: .unchanged, entity: old, existing: old, code: "plan.unchanged",
               reason: "the target cache already holds this entity")
      } else if prefer == .adal {
        let fields = EntityMerge.differingFields(merged, old).joined(separator: ", ")
        primary[slot] = entries.count
        append(proposal, action: .update, entity: merged, existing: old, code: "plan.update",
               reason: "differs from the existing entry in \(fields); the inputs win (prefer adal)")
      } else {
        let fields = EntityMerge.differingFields(merged, old).joined(separator: ", ")
        append(proposal, action: .conflict, existing: old, code: "plan.conflict",
               reason: "differs from the existing entry in \(fields); the existing entry is kept")
      }
      return
    }
    primary[slot] = entries.count
    append(proposal, action: .add, code: proposal.reasonCode, reason: proposal.reason)
  }

  private mutating func append(
    _ proposal: Proposal, action: PlanAction, entity: AnyUnifiedEntity? = nil, existing: AnyUnifiedEntity? = nil,
    code: String, reason: String
  ) {
    entries.append(
      PlanEntry(
        action: action, entity: entity ?? proposal.entity, existing: existing, reasonCode: code, reason: reason,
        sources: proposal.sources, identityRule: proposal.rule, username: proposal.username,
        homeAccountID: proposal.homeAccountID))
  }

  private static func union(_ lhs: [PlanSource], _ rhs: [PlanSource]) -> [PlanSource] {
    var seen = Set(lhs)
    var out = lhs
    for source in rhs where seen.insert(source).inserted { out.append(source) }
    return out.sorted(by: PlanSource.precedes)
  }
}
