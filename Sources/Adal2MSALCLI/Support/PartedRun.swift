import Adal2MSAL
import ArgumentParser
import Foundation

/// One `migrate` run planned a part at a time: the parts' plans go to the report (`ReportSpool`) and to `body`
/// (the store's writer), and what --strict and the exit status need is counted on the way.
struct PartedRun {
  let pipeline: MigrationPipeline
  /// The pipeline's options with the clock read once: every pass, the report and the run row share it.
  let options: MigrationOptions
  var index: MigrationPipeline.InputIndex
  let existing: UnifiedCacheContents
  let itemsPerPart: Int
  let reporting: ReportOptions
  private var spool: ReportSpool?
  /// What the run amounts to, counted as the parts are planned.
  private(set) var verdict = RunVerdict()
  /// Where every input item ended, per file.
  private(set) var accounting = InputAccounting()

  init(
    pipeline: MigrationPipeline, index: MigrationPipeline.InputIndex, existing: UnifiedCacheContents,
    itemsPerPart: Int, reporting: ReportOptions
  ) {
    self.pipeline = pipeline
    var options = pipeline.options
    options.clock = .fixed(options.clock.now)
    self.options = options
    self.index = index
    self.existing = existing
    self.itemsPerPart = itemsPerPart
    self.reporting = reporting
  }

  var plannedAt: Date { options.clock.now }

  /// 0 when everything migrated or was skipped by policy; 2, with a warning, when something was not.
  var status: ExitCode {
    guard verdict.problems > 0 else { return ExitStatus.success }
    Terminal.standardError(
      "adal2msal: warning: \(verdict.problems) item(s) or file(s) could not be read or modelled (\(verdict.summary)); "
        + "see the report" + Self.examples(verdict))
    return ExitStatus.successWithSkips
  }

  private static func examples(_ verdict: RunVerdict) -> String {
    verdict.examples.isEmpty ? "" : "; first: " + verdict.examples.joined(separator: "; ")
  }

  /// Plans every part, adding each to the report and handing it to `body`; returns the rest, for
  /// `writeReport`. A redacted report needs every name before its first section: a run of one part is
  /// planned first and reported after; a run in parts is planned once more beforehand, for the names.
  mutating func plan(_ body: (MigrationPlan) throws -> Void) throws -> MigrationPlan {
    var session = PlanningSession(options: options, existing: existing)
    let reread = !index.isOnePart
    let files = index.records.count { $0.role == .adal }
    let progress = ProgressBar(label: "migrating", total: files, enabled: reread && Terminal.standardErrorIsTerminal)
    defer { progress.finish() }
    var held: [MigrationPlan] = []
    var spool: ReportSpool? = nil
    if !options.redactUsernames {
      spool = reporting.spool(names: nil)
    } else if reread {
      spool = reporting.spool(names: try redactionNames())
    }
    var verdict = RunVerdict()
    for skipped in index.skippedFiles { verdict.addSkippedFile(skipped.path, reason: skipped.reason) }
    var accounting = InputAccounting()
    for (file, count) in index.ignoredItems { accounting.addIgnored(count, file: file) }
    var rest = try pipeline.planInParts(
      &index, session: &session, existing: existing, maxItems: itemsPerPart, progress: { progress.advance() }
    ) { part in
      verdict.add(part)
      accounting.add(part)
      if spool == nil { return held.append(part) }
      try spool?.add(part)
      try body(part)
    }
    verdict.add(rest)
    accounting.add(rest)
    self.verdict = verdict
    self.accounting = accounting
    // Every input's items, by bucket, in the report (they add up to the items read from the file).
    let totals = accounting.files
    rest.diagnostics += index.records.map { record in
      Diagnostic(
        .note, code: "input.accounting", InputAccounting.line(totals[record.path] ?? .init()),
        at: SourceLocation(file: record.path))
    }
    // The files a directory run skipped are named in the report's diagnostics too.
    rest.diagnostics += index.skippedFiles.map {
      Diagnostic(.warning, code: "input.file-skipped", "file skipped: \($0.reason)", at: SourceLocation(file: $0.path))
    }
    if spool == nil {
      var names = RedactionNames()
      for part in held + [rest] { names.add(part) }
      spool = reporting.spool(names: names)
      for part in held {
        try spool?.add(part)
        try body(part)
      }
    }
    self.spool = spool
    return rest
  }

  /// Writes the report of the parts planned and `rest` (to its file or standard output).
  mutating func writeReport(_ rest: MigrationPlan) throws {
    guard var spool else { return }
    try reporting.write(&spool, rest: rest)
    self.spool = nil
  }

  /// A planning pass that only gathers the names a redacted report replaces.
  private mutating func redactionNames() throws -> RedactionNames {
    var session = PlanningSession(options: options, existing: existing)
    var names = RedactionNames()
    let rest = try pipeline.planInParts(&index, session: &session, existing: existing, maxItems: itemsPerPart) {
      names.add($0)
    }
    names.add(rest)
    return names
  }

  /// The refusal, printed, of a run that failed: --strict with anything skipped for a reason other than
  /// policy or in conflict, or inputs that had problems and gave nothing usable.
  func refusal(strict: Bool) -> ExitCode? {
    guard verdict.outcome(strict: strict) == .failed else { return nil }
    let what =
      verdict.yieldedAnything
      ? "--strict: \(verdict.problems) item(s) or file(s) could not be read or modelled or are in conflict"
      : "nothing usable in the inputs: \(verdict.problems) item(s) or file(s) could not be read or modelled"
    Terminal.standardError(
      "adal2msal: error: \(what) (\(verdict.summary)); nothing written" + Self.examples(verdict)
        + "; see the report")
    return ExitStatus.failure
  }

}
