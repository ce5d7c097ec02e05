import Adal2MSALSupport
import Foundation
import UnifiedCache

/// An entity the ADAL side proposes, before it is compared with the existing cache.
///
/// Immutable and shared: proposals are gathered from every user, sorted and offered, and a copy of a
/// struct of eight fields was a retain of each of them.
final class Proposal: Sendable {
  /// The entity, boxed once: the plan entry made from this proposal shares the box. (Inline, every proposal
  /// held a copy of its entity until the plan was gathered, and the entry boxed another.)
  let entityBox: EntityBox
  var entity: AnyUnifiedEntity { entityBox.value }
  /// The entity's kind, read once.
  let kind: UnifiedEntityKind
  /// `entity.canonicalKey`, computed once: sorting, reconciling and the plan entry all need it.
  let canonicalKey: String
  let sources: [PlanSource]
  let rule: IdentityRule?
  let username: String?
  let homeAccountID: String?
  /// Why this entity exists (`adal.refresh-token`, ...), and a sentence for the report.
  let reasonCode: String
  let reason: String

  /// - Parameter canonicalKey: `entity.canonicalKey` when the caller made it already (it is made from the
  ///   entity's fields each time it is asked for).
  init(
    entity: AnyUnifiedEntity, sources: [PlanSource], rule: IdentityRule?, username: String?, homeAccountID: String?,
    reasonCode: String, reason: String, canonicalKey: String? = nil
  ) {
    entityBox = EntityBox(entity)
    kind = entity.kind
    self.canonicalKey = canonicalKey ?? entity.canonicalKey
    self.sources = sources
    self.rule = rule
    self.username = username
    self.homeAccountID = homeAccountID
    self.reasonCode = reasonCode
    self.reason = reason
  }
}

/// What the mapping produced: proposals plus the items it skipped, with their reasons.
struct MappingResult: Sendable {
  var proposals: [Proposal] = []
  var skips: [PlanEntry] = []
  var diagnostics: [Diagnostic] = []
  /// The clients that migrate, for app metadata: reconciled once over every user of a run (an app's entry
  /// lists the items of all its users), not with each part of it.
  var apps = AppMetadataCollector()
}

extension PlanEntry {
  /// A skip entry for ADAL items that produce nothing (one item: `CollectionOfOne(item)`, no array).
  static func skip(
    _ items: some Collection<SourcedItem>, code: String, reason: String, kind: UnifiedEntityKind? = nil,
    identity: ResolvedIdentity? = nil
  ) -> PlanEntry {
    PlanEntry(
      action: .skip, kind: kind, reasonCode: code, reason: reason, sources: items.map(\.planSource),
      identityRule: identity?.rule, username: items.newest?.displayableUsername,
      homeAccountID: identity?.homeAccountID)
  }

  /// A skip entry for items of a resolved user: the rule their identity came from.
  static func skip(
    _ items: some Collection<SourcedItem>, code: String, reason: String, kind: UnifiedEntityKind?,
    in group: EntityMapper.UserGroup
  ) -> PlanEntry {
    var entry = skip(items, code: code, reason: reason, kind: kind)
    entry.identityRule = group.rule(of: items)
    entry.homeAccountID = group.identity.homeAccountID
    return entry
  }
}
