import Adal2MSAL
import ArgumentParser

/// What `migrate` prints on standard error once a run is over: the warnings and the refusal always; unless
/// `--quiet`, the summary, the users with problems, what was written and where the full report went. Returns
/// the exit status (`ExitStatus`).
struct MigrationSummary {
  let outcome: MigrationOutcome
  let store: String?
  /// Where the full report went, in words.
  let reportPlace: String
  let quiet: Bool
  /// `--for`: the library whose export the run's warnings speak of.
  var library: MSALLibrary? = nil

  func print() -> ExitCode {
    let verdict = outcome.verdict
    for skipped in outcome.skippedFiles {
      Terminal.standardError("adal2msal: warning: \(skipped)")
    }
    printInputDiagnostics()
    if outcome.result == .failed {
      let what = verdict.refusal(strict: outcome.strict) ?? ""
      Terminal.standardError(
        "adal2msal: error: \(what) (\(verdict.summary))" + itemsNotMigrated + "; nothing written" + examples
          + "; see the report")
      return ExitStatus.failure
    }
    if !quiet { printSummary() }
    if let applied = outcome.applied, let store, !quiet {
      Terminal.standardError(
        "adal2msal: wrote run \(applied.runID) to \(store): \(applied.rowsInserted) added, \(applied.rowsUpdated) updated"
          + sectionsKept)
    }
    if !outcome.exportLeavesOut.isEmpty, outcome.azureCLI == nil {
      // Named once: Azure CLI's token cache is that export, and its own lines below name what it left out.
      DiagnosticLines.print(outcome.exportLeavesOut, quiet: quiet)
      Terminal.standardError(
        "adal2msal: warning: export --for \(library?.rawValue ?? "LIBRARY") will leave out "
          + "\(outcome.exportLeavesOut.count) entry(ies) of the store (named above); the store holds them")
    }
    if let azure = outcome.azureCLI {
      DiagnosticLines.print(azure.diagnostics, quiet: quiet)
      if !quiet {
        let leftOut = azure.servicePrincipalsLeftOut
        let principals =
          azure.clientIDs.isEmpty
          ? "no service principal in the inputs"
          : "service principal(s) of the inputs: \(azure.clientIDs.joined(separator: ", ")); \(azure.added) added, "
            + "\(azure.alreadyThere) already there"
            + (azure.repeatedInInputs > 0 ? ", \(azure.repeatedInInputs) repeated in the inputs" : "")
            + (leftOut > 0 ? ", \(leftOut) left out for another credential (named above)" : "")
        Terminal.standardError("adal2msal: wrote \(azure.tokenCache) and \(azure.servicePrincipals) (\(principals))")
      }
    }
    if let azure = outcome.azureCLI, azure.entriesLeftOut > 0 {
      DiagnosticLines.printLeftOut(azure.entriesLeftOut, of: azure.tokenCache)
    }
    if verdict.problems > 0 {
      Terminal.standardError(
        "adal2msal: warning: \(verdict.problemsInWords) (\(verdict.summary))" + itemsNotMigrated + "; see the report"
          + examples)
    }
    return outcome.result == .complete ? ExitStatus.success : ExitStatus.partial
  }

  /// The inputs' warnings (an empty directory, a file given again), then, unless `--quiet`, the first hidden
  /// entries the directories held, which were not read (a fleet copied from Macs holds a `.DS_Store` per folder).
  /// The run's own files found there are named in the report only.
  private func printInputDiagnostics() {
    DiagnosticLines.print(outcome.inputDiagnostics.filter { $0.code != InputDirectory.runFileCode }, quiet: quiet)
  }

  /// The sections of the MSAL inputs kept verbatim, as `import` counts them: no entity, yet the store keeps them
  /// and `export` writes them back.
  private var sectionsKept: String {
    outcome.verdict.sectionsKept == 0 ? "" : ", \(outcome.verdict.sectionsKept) section(s) kept verbatim"
  }

  private var itemsNotMigrated: String {
    outcome.itemsNotMigrated == 0 ? "" : "; \(outcome.itemsNotMigrated) input item(s) not migrated"
  }

  private var examples: String {
    outcome.verdict.examples.isEmpty ? "" : "; first: " + outcome.verdict.examples.joined(separator: "; ")
  }

  /// The plan's counts, the skips by reason, the users with problems and where the full report went.
  private func printSummary() {
    let totals = outcome.totals
    // A conflict with an existing or MSAL entry keeps that entry, a merge to the verdict; the rest (a user's
    // identity) are problems.
    let conflicts = totals[.conflict] ?? 0
    let merged = conflicts - outcome.verdict.conflicts
    let counts = [
      "\(totals[.add] ?? 0) to add", "\(totals[.update] ?? 0) to update", "\(totals[.unchanged] ?? 0) unchanged",
      "\(conflicts) in conflict" + (merged > 0 ? " (\(merged) of them merged into the entry kept for their key)" : ""),
      "\(totals[.skip] ?? 0) skipped",
    ]
    Terminal.standardError("adal2msal: planned: " + counts.joined(separator: ", ") + sectionsKept)
    if !outcome.skipsByReason.isEmpty {
      let reasons = outcome.skipsByReason.sorted { ($1.value, $0.key) < ($0.value, $1.key) }
      Terminal.standardError(
        "adal2msal: skipped or in conflict, by reason: "
          + reasons.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
    }
    if outcome.usersWithProblemsCount > 0 {
      Terminal.standardError("adal2msal: \(outcome.usersWithProblemsCount) user(s) with problems:")
      for user in outcome.usersWithProblems {
        Terminal.standardError("  \(user.user): \(user.problems) (\(user.reasonCodes.joined(separator: ", ")))")
      }
      let unlisted = outcome.usersWithProblemsCount - outcome.usersWithProblems.count
      if unlisted > 0 { Terminal.standardError("  and \(unlisted) more (see the full report)") }
    }
    Terminal.standardError("adal2msal: full report: " + reportPlace)
  }
}
