import Adal2MSALSupport
import Foundation
import UnifiedCache

/// Compares incoming entities (MSAL inputs first, then ADAL proposals) with the target store and with each
/// other, giving exactly one add/update/unchanged entry per target entity plus a conflict entry for every
/// incoming entity that loses.
struct Reconciler {
  let prefer: MigrationOptions.Preference
  private(set) var entries: [PlanEntry] = []
  /// The entry that decides each kind and key (add, update or unchanged).
  private var primary: [Slot: Int] = [:]
  /// The target's entities, looked up by kind and key in their own sections: a table of them would copy every
  /// entity while the other core waits (0.3 s of CPU for the store of the 40k-item dump).
  private let store: UnifiedCacheContents
  /// Whether `offer(_:inSlotOrder:)` took the path that leaves `primary` unfilled.
  private var sealed = false

  /// A kind and a canonical key. A struct, not a `kind|key` string: a string was one more allocation per
  /// entity, held for the whole plan (about 200 bytes an entity, 300 MB at a million items).
  struct Slot: Hashable {
    var kind: UnifiedEntityKind
    var key: String
  }

  /// `store`: what the target holds (empty for a new store).
  init(store: UnifiedCacheContents, prefer: MigrationOptions.Preference) {
    self.prefer = prefer
    self.store = store
  }

  /// Makes room for `count` entries in all, so that the entries appended after the reconciled ones (the
  /// part's skips) do not copy them all into a larger array.
  mutating func reserveCapacity(_ count: Int) { entries.reserveCapacity(count) }

  /// An input's entity skipped by policy before it is offered: it claims no slot, and its entry is kept as it is.
  mutating func append(skip entry: PlanEntry) { entries.append(entry) }

  /// Offers ADAL proposals in `order`, an order in which proposals of one slot are adjacent (by kind and key),
  /// as `offer(_:fromADAL:)` one after the other would. When nothing was offered before (no MSAL inputs), a
  /// slot that differs from the one before is free: only the store is looked up, and a proposal for the slot
  /// before is compared with that slot's entry, without hashing its key into `primary`. Nothing can be offered
  /// afterwards then.
  ///
  /// On that path the order is cut into runs of whole slots, one per core, each offered by a reconciler of
  /// its own, and their entries joined in order: the same entries as offered one by one, since no slot spans
  /// two runs. One core compared the 45,405 proposals of the 40k-item dump with its store while the other
  /// waited (0.17 s).
  ///
  /// - Parameter runCount: how many runs to cut the order into (at most); by default one per core, or one for
  ///   fewer than `2 * minimumRun` proposals.
  mutating func offer(_ proposals: [Proposal], inSlotOrder order: [Int], runs runCount: Int? = nil) {
    precondition(!sealed, "a reconciler that offered in slot order takes no more offers")
    guard primary.isEmpty else {
      primary.reserveCapacity(primary.count + proposals.count)
      for index in order { offer(proposals[index], fromADAL: true) }
      return
    }
    sealed = true
    let onePerCore = order.count < Self.minimumRun * 2 ? 1 : activeCores
    let runs = Self.slotRuns(of: order, in: proposals, count: runCount ?? onePerCore)
    guard runs.count > 1 else { return offerRun(proposals, order[...]) }
    let (store, prefer) = (store, prefer)
    var parts = runs.orderedParallelMap(minimumChunk: 1) { run -> [PlanEntry] in
      var part = Reconciler(store: store, prefer: prefer)
      part.sealed = true
      part.offerRun(proposals, order[run])
      return part.entries
    }
    entries.reserveCapacity(entries.count + proposals.count)
    for index in parts.indices { entries.appendMoving(&parts[index]) }
  }

  /// Runs shorter than this are not offered on a core of their own.
  static let minimumRun = 4_096

  /// `order` cut into at most `count` runs of about equal length, each of whole slots.
  static func slotRuns(of order: [Int], in proposals: [Proposal], count: Int) -> [Range<Int>] {
    var runs: [Range<Int>] = []
    var start = 0
    for part in 1..<max(1, count) {
      var end = max(start, order.count * part / count)
      while end > start, end < order.count, Self.sameSlot(proposals[order[end - 1]], proposals[order[end]]) {
        end += 1
      }
      if end > start, end < order.count {
        runs.append(start..<end)
        start = end
      }
    }
    runs.append(start..<order.count)
    return runs
  }

  private static func sameSlot(_ lhs: Proposal, _ rhs: Proposal) -> Bool {
    lhs.kind == rhs.kind && lhs.canonicalKey == rhs.canonicalKey
  }

  /// `offer(_:inSlotOrder:)` of one run of whole slots, into this reconciler's entries.
  private mutating func offerRun(_ proposals: [Proposal], _ order: ArraySlice<Int>) {
    entries.reserveCapacity(entries.count + order.count)
    var last: (slot: Slot, entry: Int?)?
    for index in order {
      let proposal = proposals[index]
      var claimed: Int?
      if let (slot, entry) = last, slot.kind == proposal.kind, slot.key == proposal.canonicalKey {
        // The planned entity is read in its box (`entity` copied it out: a retain and release of each field).
        if let entry, let current = entries[entry].entityBox {
          offer(proposal, against: current.value, plannedAt: entry, fromADAL: true)
          continue
        }
        claimed = entry
      }
      last = (Slot(kind: proposal.kind, key: proposal.canonicalKey), offerAgainstStore(proposal, claimed: claimed))
    }
  }

  /// Offers an incoming entity. `fromADAL` is false for MSAL-input entities (first input wins among those);
  /// `isCurrentCache`: the entity is from an app's cache as it is now (`MigrationOptions.currentCaches`), and
  /// wins over the store's.
  mutating func offer(_ proposal: Proposal, fromADAL: Bool, isCurrentCache: Bool = false) {
    precondition(!sealed, "a reconciler that offered in slot order takes no more offers")
    let slot = Slot(kind: proposal.kind, key: proposal.canonicalKey)
    // Claimed before it is known to be free: a lookup, then an insertion, hashed the key twice. A slot
    // claimed already gets its entry back.
    let claimed = primary.updateValue(entries.count, forKey: slot)
    if let index = claimed, let current = entries[index].entityBox {
      primary[slot] = index
      offer(proposal, against: current.value, plannedAt: index, fromADAL: fromADAL)
      return
    }
    primary[slot] = offerAgainstStore(proposal, claimed: claimed, isCurrentCache: isCurrentCache)
  }

  /// An incoming entity for a slot no planned entry decides: compared with the store's entity, if any.
  /// Returns the entry that decides the slot now: the one appended, or `claimed` after a conflict (the
  /// conflict entry plans nothing: the slot stays as it was).
  private mutating func offerAgainstStore(_ proposal: Proposal, claimed: Int?, isCurrentCache: Bool = false) -> Int? {
    // A new store holds nothing to look up.
    guard store.holdsEntities, let old = store[proposal.kind, proposal.canonicalKey] else {
      append(proposal, action: .add, code: proposal.reasonCode, reason: proposal.reason)
      return entries.count - 1
    }
    let incoming = proposal.entity
    // Merged only for an update: most re-run entities are unchanged.
    var merged: AnyUnifiedEntity { EntityMerge.merged(incoming, over: old) }
    let inputsWin = isCurrentCache ? "the app's cache as it is now wins over the store" : "the inputs win (prefer adal)"
    switch (EntityMerge.compare(incoming, with: old), isCurrentCache ? .adal : prefer) {
    case (.same, _):
      // One box as both the entry's entity and the existing one: a box each was one more allocation and copy
      // of every stored entity a re-run plans unchanged.
      let kept = EntityBox(old)
      append(
        proposal, action: .unchanged, entityBox: kept, existingBox: kept, code: "plan.unchanged",
        reason: "the target cache already holds this entity")
    case (.adds(let fields), .existing):
      let kept = EntityBox(old)
      append(
        proposal, action: .unchanged, entityBox: kept, existingBox: kept, code: "plan.unchanged-existing-wins",
        reason: "the target cache holds this entity; the input also knows \(fields.joined(separator: ", ")), "
          + "not written (existing entries win)")
    case (.adds(let fields), .adal):
      append(
        proposal, action: .update, entity: merged, existing: old, code: "plan.update",
        reason: "the input adds \(fields.joined(separator: ", ")); \(inputsWin)")
    case (.contradicts(let fields), .adal):
      append(
        proposal, action: .update, entity: merged, existing: old, code: "plan.update",
        reason: "the input sets \(fields.joined(separator: ", ")) differently; \(inputsWin)")
    case (.contradicts(let fields), .existing):
      append(
        proposal, action: .conflict, existing: old, code: "plan.conflict",
        reason: "differs from the existing entry in \(fields.joined(separator: ", ")); the existing entry is kept")
      return claimed
    }
    return entries.count - 1
  }

  /// An incoming entity for a key another input already planned (an add, update or unchanged entry).
  private mutating func offer(
    _ proposal: Proposal, against current: AnyUnifiedEntity, plannedAt index: Int, fromADAL: Bool
  ) {
    let comparison = EntityMerge.compare(proposal.entity, with: current)
    let inputsWin = fromADAL && prefer == .adal
    switch comparison {
    case .same:
      entries[index].sources = Self.union(entries[index].sources, proposal.sources)
    case .adds(let fields) where !inputsWin:
      entries[index].sources = Self.union(entries[index].sources, proposal.sources)
      entries[index].reason += "; another input also knows \(fields.joined(separator: ", ")) (not written)"
    case .adds(let fields), .contradicts(let fields):
      let other = entries[index].identityRule == .unifiedInput ? "the MSAL input's entry" : "another input's entry"
      guard inputsWin else {
        append(
          proposal, action: .conflict, existing: current, code: "plan.conflict",
          reason:
            "differs from \(other) in \(fields.joined(separator: ", ")); that entry is kept, nothing written for this one"
        )
        return
      }
      let merged = EntityMerge.merged(proposal.entity, over: current)
      let base = store[merged.kind, merged.canonicalKey]
      var entry = entries[index]
      entry.entity = merged
      entry.sources = Self.union(entry.sources, proposal.sources)
      entry.identityRule = proposal.rule ?? entry.identityRule
      entry.reasonCode = "plan.input-wins"
      entry.reason =
        "the ADAL entity laid over \(other) (\(fields.joined(separator: ", "))); the inputs win (prefer adal)"
      entry.action = base == nil ? .add : (base == merged ? .unchanged : .update)
      entries[index] = entry
    }
  }

  private mutating func append(
    _ proposal: Proposal, action: PlanAction, entity: AnyUnifiedEntity? = nil, existing: AnyUnifiedEntity? = nil,
    code: String, reason: String
  ) {
    append(
      proposal, action: action, entityBox: entity.map(EntityBox.init) ?? proposal.entityBox,
      existingBox: existing.map(EntityBox.init), code: code, reason: reason)
  }

  private mutating func append(
    _ proposal: Proposal, action: PlanAction, entityBox: EntityBox, existingBox: EntityBox?, code: String,
    reason: String
  ) {
    // The proposal's own entity keeps its box: the entry shares it rather than boxing a copy. Its kind is the
    // proposal's: left to the entry, it was read from the entity, copied out of its box (a retain of each field).
    entries.append(
      PlanEntry(
        action: action, kind: proposal.kind, canonicalKey: proposal.canonicalKey, entityBox: entityBox,
        existingBox: existingBox, reasonCode: code, reason: reason,
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
