import ADALCache
import Adal2MSALSupport
import Foundation
import UnifiedCache

/// Plans a migration: resolves every ADAL user's identity, maps the items to unified entities and compares
/// them with the existing cache (the target store plus the MSAL inputs). Pure: reads nothing, writes nothing,
/// and gives the same plan for the same inputs in any order.
package struct MigrationPlanner: Sendable {
  package var options: MigrationOptions

  package init(options: MigrationOptions = MigrationOptions()) { self.options = options }

  /// - Parameters:
  ///   - adal: the ADAL items per input file.
  ///   - msal: unified caches to migrate along (their entities not in `existing` are `add`s).
  ///   - existing: what the target store holds now.
  ///   - inputs: the input files' digests, recorded in the plan as given (sorted).
  ///
  /// `adal` is consumed: a caller that gives up its copy (`consume`) lets the decoded items be freed as soon
  /// as they are mapped, before the plan's entries are gathered, which lowers the run's peak memory.
  package func plan(
    adal: consuming [ADALInput], msal: [MSALInput] = [], existing: UnifiedCacheContents = UnifiedCacheContents(),
    inputs: [PlanInput] = []
  ) -> MigrationPlan {
    var session = PlanningSession(options: options, existing: existing)
    let users = session.plan(adal: consume adal, msal: msal)
    let rest = session.finish(msal: msal.map { $0.sharedEntities(keepingDiagnostics: false) }, inputs: inputs)
    return (consume users).merged(with: rest)
  }
}

extension MigrationPlan {
  /// This plan and `other` (a plan of other users, or the rest of a `PlanningSession`) as one plan, in plan order.
  /// Consumed: a caller that gives up its plan (`consume`) has the other's entries merged into its entries in
  /// place.
  package consuming func merged(with other: MigrationPlan) -> MigrationPlan {
    var entries = self.entries
    self.entries = []  // so that `entries` is unique
    PlanOrder.merge(into: &entries, other.entries, by: PlanOrder.entries)
    return MigrationPlan(
      entries: entries,
      diagnostics: PlanOrder.merge(diagnostics, other.diagnostics, by: PlanOrder.diagnostics),
      inputs: (inputs + other.inputs).sorted { ($0.path, $0.role.rawValue) < ($1.path, $1.role.rawValue) },
      plannedAt: plannedAt,
      users: PlanOrder.merge(users, other.users, by: PlanOrder.users),
      targetLibrary: targetLibrary ?? other.targetLibrary)
  }
}
