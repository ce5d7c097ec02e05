import ADALCache
import Adal2MSALSupport
import Foundation
import UnifiedCache

/// The engine in three calls, for pipelines: plan, report, apply. `plan` is the one public way to plan inputs
/// already in memory; `MigrationRun` (in `Adal2MSAL`) reads files, plans in parts and writes a store.
///
/// ```swift
/// let adal = try ADALCacheReader().read(dumpData, file: "dump.plist")
/// let plan = Migration.plan(
///   adal: [ADALInput(adal, file: "dump.plist")], existing: currentCache,
///   options: MigrationOptions(clientID: "my-app-id", clock: .fixed(now)))
/// print(Migration.report(plan).text())
/// let migrated = plan.applied(to: currentCache)   // what a store holds after the write
/// ```
///
/// Named `Migration` rather than after the module, so that `MigrationEngine.X` stays unambiguous.
public enum Migration {
  /// Plans the migration of `adal` (and `msal`) into `existing`. See `MigrationPlanner`; pass `consume`d
  /// inputs to let the decoded items be freed during planning.
  public static func plan(
    adal: consuming [ADALInput], msal: [MSALInput] = [], existing: UnifiedCacheContents = UnifiedCacheContents(),
    inputs: [PlanInput] = [], options: MigrationOptions = MigrationOptions()
  ) -> MigrationPlan {
    MigrationPlanner(options: options).plan(adal: consume adal, msal: msal, existing: existing, inputs: inputs)
  }

  /// The report of a plan; render it with `text(colorize:)`, `json()` or `markdown()`.
  public static func report(_ plan: MigrationPlan, redactUsernames: Bool = false) -> MigrationReport {
    MigrationReport(plan: plan, redactUsernames: redactUsernames)
  }

  /// The report of a plan, redacted when `options.redactUsernames` says so.
  public static func report(_ plan: MigrationPlan, options: MigrationOptions) -> MigrationReport {
    MigrationReport(plan: plan, redactUsernames: options.redactUsernames)
  }
}
