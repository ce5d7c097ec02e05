import Adal2MSALSupport
import CacheStore
import Foundation
import MigrationEngine

/// What a `MigrationRun` did: its verdict, what it planned (by action, skip reason and user), where every
/// input item ended, what it wrote and where its report went.
public struct MigrationOutcome: Sendable {
  /// The counts behind the verdict (`RunVerdict`, docs/verdicts.md).
  public var verdict: RunVerdict
  /// Whether the run was strict (any problem fails it).
  public var strict: Bool
  /// Complete, partial or failed: the exit status of `adal2msal migrate` (0, 2 or 1) for a run that returned (an
  /// output that fails after the store committed throws `StoreWrittenError`, status 2). The store's verdict
  /// (`verdict.outcome(strict:)`), made partial when Azure CLI's token cache left out entries the store holds
  /// (`AzureCLIFiles.Written.entriesLeftOut`): the run then did not move everything it says it moved.
  public var result: RunVerdict.Outcome {
    let stored = verdict.outcome(strict: strict)
    guard stored == .complete, let azureCLI, azureCLI.entriesLeftOut > 0 else { return stored }
    return .partial
  }
  /// Plan entries by action, over every part of the run.
  public var totals: [PlanAction: Int] = [:]
  /// Plan entries skipped or in conflict, by reason code.
  public var skipsByReason: [String: Int] = [:]
  /// The users with items that did not migrate for a reason other than policy, most problems first (at most
  /// `UserProblems.listed`; `usersWithProblemsCount` counts them all).
  public var usersWithProblems: [UserProblems] = []
  /// Every user with a problem.
  public var usersWithProblemsCount = 0
  /// Files of an `--adal` or `--msal` directory that were skipped whole, with why.
  public var skippedFiles: [SkippedInput] = []
  /// What the run says of its inputs, also in the report: a note for each hidden entry of a directory it did not
  /// read (`input.hidden-entry`), for its own store, side file or last report found in one (`input.run-file`)
  /// and for a file of Azure CLI's configuration directory that holds no token (`input.azure-cli-file`), and a
  /// warning for a directory with no file to read (`input.empty-directory`) and for a
  /// file given again, which is read once (`input.repeated-file`). None changes the verdict: no input item was in
  /// them or left out.
  public var inputDiagnostics: [Diagnostic] = []
  /// With a target library (`MigrationOptions.targetLibrary`, `--for`): the entries the store will hold that the
  /// export for it will leave out (`export.same-key`, `export.unloadable`), as the report names them. The store
  /// holds them; the export that leaves them out says so again.
  public var exportLeavesOut: [Diagnostic] = []
  /// Where every input item ended, per file.
  public var accounting = InputAccounting()
  /// The run row written to the store; nil for a dry run, a run without a store or a failed (rolled back) run.
  public var applied: AppliedRunSummary?
  /// The Azure CLI files written (`MigrationRun.Options.azureCLIDirectory`).
  public var azureCLI: AzureCLIFiles.Written?
  /// The clock reading the whole run planned with (the report's "planned at").
  public var plannedAt: Date
  /// Where the report went: a file's path, nil when it went to a stream or was not asked for.
  public var reportFile: String?

  /// The input items none of whose entries migrated, by the accounting (a user's conflict stands for all its
  /// items, which `verdict.problems` counts once).
  public var itemsNotMigrated: Int { accounting.files.values.reduce(0) { $0 + $1[.problem] } }

  /// Whether the store was written.
  public var wasWritten: Bool { applied != nil }
}

/// One user whose items did not all migrate: the name the report shows (a `user-…` hash when usernames are
/// redacted) and how many of their entries are problems, with the first reason code.
public struct UserProblems: Sendable, Hashable {
  /// At most this many users are listed in an outcome.
  public static let listed = 20

  /// The username as read (or its hash); `(no username)` when no item names the user.
  public var user: String
  /// Entries skipped for a reason other than policy, or in conflict.
  public var problems: Int
  /// The reason codes of those entries, sorted.
  public var reasonCodes: [String]
}

/// Counts a run's plan parts for its outcome as they are planned.
struct OutcomeTally {
  let redactUsernames: Bool
  var totals: [PlanAction: Int] = [:]
  var skipsByReason: [String: Int] = [:]
  private var users: [String: (problems: Int, codes: Set<String>)] = [:]
  var exportLeavesOut: [Diagnostic] = []

  init(redactUsernames: Bool) { self.redactUsernames = redactUsernames }

  mutating func add(_ plan: MigrationPlan) {
    exportLeavesOut += plan.diagnostics.filter {
      $0.code == CacheExport.leftOutCode || $0.code == CacheExport.unloadableCode
    }
    // Counted per action here, then added (a dictionary update per entry hashed its action); the fields are
    // read in place (`MigrationPlan.forEachEntry`).
    var counts = [Int](repeating: 0, count: PlanAction.allCases.count)
    plan.entries.withUnsafeBufferPointer { entries in
      for index in entries.indices {
        let action = entries[index].action
        counts[action.planOrder] += 1
        guard action.needsAttention else { continue }
        let code = entries[index].reasonCode
        skipsByReason[code, default: 0] += 1
        guard RunVerdict.bucket(of: action, reasonCode: code) == .problem else { continue }
        let name =
          entries[index].username.map { redactUsernames ? RedactionNames.redactedUsername($0) : $0 } ?? "(no username)"
        users[name, default: (0, [])].problems += 1
        users[name, default: (0, [])].codes.insert(code)
      }
    }
    for action in PlanAction.allCases where counts[action.planOrder] > 0 {
      totals[action, default: 0] += counts[action.planOrder]
    }
  }

  /// Fills `outcome`'s counts.
  func fill(_ outcome: inout MigrationOutcome) {
    outcome.totals = totals
    outcome.skipsByReason = skipsByReason
    outcome.exportLeavesOut = exportLeavesOut
    outcome.usersWithProblemsCount = users.count
    outcome.usersWithProblems = users.map {
      UserProblems(user: $0.key, problems: $0.value.problems, reasonCodes: $0.value.codes.sorted())
    }
    .sorted { ($1.problems, $0.user) < ($0.problems, $1.user) }
    .prefix(UserProblems.listed).map { $0 }
  }
}
