import Adal2MSALSupport
import Foundation

/// What a run amounts to, for its exit status: every plan entry and reader diagnostic sorted into what moved,
/// what was skipped by stated policy, and what could not be read or modelled (docs/verdicts.md).
///
/// Policy skips (a run with only these is a success): a guest's items (home tenant unknown offline), sign-out
/// tombstones, expired access tokens, access tokens left out by `--skip-access-tokens`, the ADAL wipe marker,
/// MSAL keychain items that are not tokens, and keychain items of other apps. Duplicates merged into a
/// survivor, and input entities that lose to the existing entry of their cache key, are merges. Everything else
/// that does not migrate (unreadable items, entries the reader cannot model, identities that cannot be found,
/// conflicts, files of a directory that were skipped) is a problem.
public struct RunVerdict: Sendable, Hashable {
  /// Skip reason codes that are policy, not problems.
  public static let policySkipCodes: Set<String> = [
    "identity.guest", "adal.tombstone", "adal.expired-access-token", "msal.expired-access-token",
    "option.skip-access-tokens",
    "adal.id-token-not-jwt",
  ]
  /// Skip and conflict reason codes of entries that lost to a survivor the same entry names: duplicates, and
  /// an input entity that differs from the existing or MSAL entry for its cache key (existing entries win).
  public static let mergedCodes: Set<String> = [
    "adal.duplicate-refresh-token", "adal.duplicate-access-token", "plan.conflict",
  ]
  /// Diagnostic codes of items skipped by policy: the wipe marker, MSAL keychain items that are not tokens,
  /// Azure CLI service-principal entries (app credentials, never user tokens), ADAL.NET app-only and
  /// on-behalf-of entries and ADAL Python and Node app tokens (no user's sign-in).
  public static let policyDiagnosticCodes: Set<String> = [
    "adal.wipe-marker", "unified.keychain-unsupported-type", "adal.service-principal-entry",
    "adal.dotnet-not-a-user-entry", "adal.app-only-entry",
  ]
  /// Skip reason codes of entries that follow from other entries' skips, which are counted themselves: a user none
  /// of whose tokens migrates gets no Account (`adal.no-token-migrates`), whether its tokens were skipped by
  /// policy (expired, `--skip-access-tokens`), merged or for a problem. Counted here too, a run whose every item
  /// was skipped by policy would have a problem.
  public static let consequenceCodes: Set<String> = ["adal.no-token-migrates"]
  /// Diagnostic codes of entries merged into another one by a reader.
  public static let mergedDiagnosticCodes: Set<String> = ["unified.duplicate-entity", "import.replaced-by-later-file"]
  /// Diagnostic codes of items or entries a reader could not read or model (each is one item or entry).
  public static let problemDiagnosticCodes: Set<String> = [
    "adal.item-unreadable", "adal.unified-without-data", "unified.invalid-entry", "unified.invalid-section",
    "unified.unmodelled-entry", "unified.keychain-payload", "unified.keychain-unknown-type",
    "unified.duplicate-token",
  ]

  /// Entities an apply writes (add, update).
  public var written = 0
  /// Entities the target already holds as planned.
  public var unchanged = 0
  /// Items or entries merged into a survivor.
  public var merged = 0
  /// Items skipped by policy.
  public var policySkips = 0
  /// Plan entries skipped for a reason that is not policy.
  public var problemSkips = 0
  /// Plan entries in conflict.
  public var conflicts = 0
  /// Items or entries a reader could not read or model.
  public var unreadable = 0
  /// Input files of a directory that were skipped whole.
  public var skippedFiles = 0
  /// Top-level sections of the MSAL inputs kept verbatim (an app's own data, MSAL Go's partitions, entries the
  /// model does not know), which the store keeps and `export` writes back: something the run carries, though no
  /// entity, as `import` counts them (`ImportOutcome.sectionsKept`).
  public var sectionsKept = 0
  /// The first problems, in words with their place (at most `maxExamples`), for the closing message.
  public private(set) var examples: [String] = []
  static let maxExamples = 3

  public init() {}

  /// Adds one plan (a part of a run, or the rest).
  public mutating func add(_ plan: MigrationPlan) {
    // The fields are read in place (`MigrationPlan.forEachEntry`).
    plan.entries.withUnsafeBufferPointer { entries in
      for index in entries.indices {
        switch Self.bucket(of: entries[index].action, reasonCode: entries[index].reasonCode) {
        case .migrated: written += 1
        case .unchanged: unchanged += 1
        case .merged: merged += 1
        case .policySkip: policySkips += 1
        case .problem where entries[index].action == .conflict:
          conflicts += 1
          note(
            "conflict: \(entries[index].reason) [\(entries[index].reasonCode)]",
            at: entries[index].sources.first?.description)
        case .problem:
          problemSkips += 1
          note(
            "skipped: \(entries[index].reason) [\(entries[index].reasonCode)]",
            at: entries[index].sources.first?.description)
        case nil: continue
        }
      }
    }
    add(plan.diagnostics)
  }

  /// Adds what readers said: items skipped by policy, entries merged, and items or entries that could not be read
  /// or modelled (other codes, notes of nothing lost, are passed over).
  public mutating func add(_ diagnostics: [Diagnostic]) {
    for diagnostic in diagnostics {
      switch Self.bucket(of: diagnostic) {
      case .policySkip: policySkips += 1
      case .merged: merged += 1
      case .problem:
        unreadable += 1
        note("\(diagnostic.message) [\(diagnostic.code)]", at: diagnostic.location?.description)
      case .migrated, .unchanged, nil: continue
      }
    }
  }

  /// Where a plan entry lands, by its action and reason code: the one rule by which the verdict, the input
  /// accounting (`InputAccounting`) and a run's users with problems count. Nil for an entry that follows from
  /// other entries' skips (`consequenceCodes`), which those entries count.
  public static func bucket(of action: PlanAction, reasonCode: String) -> InputAccounting.Bucket? {
    switch action {
    case .add, .update: return .migrated
    case .unchanged: return .unchanged
    case .conflict: return mergedCodes.contains(reasonCode) ? .merged : .problem
    case .skip:
      if policySkipCodes.contains(reasonCode) { return .policySkip }
      if mergedCodes.contains(reasonCode) { return .merged }
      return consequenceCodes.contains(reasonCode) ? nil : .problem
    }
  }

  /// Where an item or entry a reader named in `diagnostic` lands: skipped by policy, merged or a problem; nil for
  /// a diagnostic that names nothing left out (a note of nothing lost, a warning about the inputs).
  public static func bucket(of diagnostic: Diagnostic) -> InputAccounting.Bucket? {
    if policyDiagnosticCodes.contains(diagnostic.code) { return .policySkip }
    if mergedDiagnosticCodes.contains(diagnostic.code) { return .merged }
    if problemDiagnosticCodes.contains(diagnostic.code) { return .problem }
    return nil
  }

  /// Adds a file of a directory that was skipped whole, with why.
  public mutating func addSkippedFile(_ path: String, reason: String) {
    skippedFiles += 1
    note("skipped file: \(reason)", at: path)
  }

  /// Keeps an example while there are fewer than `maxExamples`. Its text is made only then: a large run has
  /// thousands of conflicts, and each made a line to drop.
  private mutating func note(_ what: @autoclosure () -> String, at place: @autoclosure () -> String?) {
    guard examples.count < Self.maxExamples else { return }
    examples.append((place().map { "\($0): " } ?? "") + what())
  }

  /// The examples with the run's usernames and account ids redacted (`--redact-usernames`: they name an entry's
  /// key or a reason, as the report does).
  package mutating func redactExamples(_ redact: Redactor) {
    examples = examples.map { redact($0) }
  }

  /// Everything that did not migrate for a reason other than policy.
  public var problems: Int { problemSkips + conflicts + unreadable + skippedFiles }

  /// Whether any input gave anything the store holds after the run: an entity migrated, unchanged or merged into
  /// one, or a section kept verbatim. Items skipped by policy give nothing to write: inputs with problems and
  /// only those are refused, nothing written.
  public var yieldedAnything: Bool { written + unchanged + merged + sectionsKept > 0 }

  /// The verdict of the run.
  public enum Outcome: String, Sendable, Hashable {
    /// Every item migrated, unchanged, merged or skipped by policy (exit 0).
    case complete
    /// Written, but some items could not be read or modelled (exit 2).
    case partial
    /// Nothing usable came from inputs that had problems, or `--strict` with a problem (exit 1, nothing written).
    case failed
  }

  /// Why a run with this verdict is refused, nothing written (nil when it is not): `--strict` and a problem, or
  /// problems and nothing usable. The closing error and the report's `run.refused` say it alike.
  public func refusal(strict: Bool) -> String? {
    guard outcome(strict: strict) == .failed else { return nil }
    return yieldedAnything
      ? "--strict: \(problemsInWords)" : "nothing usable in the inputs: \(problemsInWords)"
  }

  /// `problems` with what it counts: entries of the plan (a user's identity, a token), items a reader could not
  /// read or model, and files of a directory skipped whole. An input item may give several entries and a user's
  /// entry stands for all its items: the accounting counts items (`InputAccounting`).
  public var problemsInWords: String {
    "\(problems) problem(s) (entries not migrated or in conflict, items unreadable, files skipped)"
  }

  /// The code of the report's error that says the run was refused.
  public static let refusedCode = "run.refused"

  /// The outcome; `strict` turns any problem into a failure.
  public func outcome(strict: Bool) -> Outcome {
    if problems == 0 { return .complete }
    if strict || !yieldedAnything { return .failed }
    return .partial
  }

  /// One line with the counts. It speaks of the plan ("to add or update"), which holds for a dry run and for a
  /// run refused with nothing written as much as for a run that wrote it.
  public var summary: String {
    "\(written) to add or update, \(unchanged) unchanged, \(merged) merged, \(policySkips) skipped by policy, "
      + "\(problemSkips + unreadable) not read or not modelled, \(conflicts) in conflict, \(skippedFiles) files skipped"
  }
}
