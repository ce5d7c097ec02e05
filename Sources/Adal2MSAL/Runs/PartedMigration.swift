import Adal2MSALSupport
import Foundation
import MigrationEngine
import UnifiedCache

/// One migration planned a part at a time: the parts' plans go to the report (`ReportSpool`) and to `body`
/// (the store's writer), and what the verdict, the accounting and the outcome need is counted on the way.
struct PartedMigration {
  let pipeline: MigrationPipeline
  /// The pipeline's options with the clock read once: every pass, the report and the run row share it.
  let options: MigrationOptions
  var index: MigrationPipeline.InputIndex
  /// What the target held, planned against once (`plan`) and then let go.
  private var existing: UnifiedCacheContents
  let itemsPerPart: Int
  let report: ReportWriting
  let progress: RunProgressHandler?
  private var spool: ReportSpool?
  /// What the run amounts to, counted as the parts are planned.
  private(set) var verdict = RunVerdict()
  /// `--strict`: any problem refuses the run.
  let strict: Bool
  /// The run's usernames and account ids (`--redact-usernames`), once every part is planned.
  private(set) var namesToRedact: RedactionNames?
  /// Where every input item ended, per file.
  private(set) var accounting = InputAccounting()
  private(set) var tally: OutcomeTally
  /// Rows of the parts handed to the writer, for progress.
  private var rowsWritten = 0
  /// The only part, held until `stageReport` (`OnlyPart.heldUntilStaged`), which merges the rest into it for the
  /// report and the writer both; then written.
  private var heldPart: MigrationPlan?
  /// Whether `stageReport` merged the rest into `heldPart`, so that `writeHeldPart` writes it and `writeRest`
  /// has nothing left to write.
  private var restIsInHeldPart = false

  init(
    pipeline: MigrationPipeline, index: MigrationPipeline.InputIndex, existing: UnifiedCacheContents,
    itemsPerPart: Int, report: ReportWriting, strict: Bool = false, progress: RunProgressHandler?
  ) {
    self.pipeline = pipeline
    self.strict = strict
    var options = pipeline.options
    options.clock = .fixed(options.clock.now)
    self.options = options
    self.index = index
    self.existing = existing
    self.itemsPerPart = itemsPerPart
    self.report = report
    self.progress = progress
    tally = OutcomeTally(redactUsernames: options.redactUsernames)
  }

  var plannedAt: Date { options.clock.now }

  /// When the report of a run of one part is rendered. A part added to the spool while it is written is set
  /// aside (in memory, then in a temporary file: 37 MB of text at 40,000 items) and read back in plan order;
  /// a part the spool holds (`ReportSpool.hold`) is rendered whole, each section written as it is made.
  enum OnlyPart {
    /// Added to the spool on another thread while `body` writes it: for a report that waits for the commit
    /// (a report on a stream).
    case renderedWhileWritten
    /// Held, and handed to `body` at once: for a report that waits for nothing but the planning (a dry run).
    case held
    /// Held, then merged with the rest by `stageReport`, which starts rendering the report into its file, and
    /// handed to the writer by `writeHeldPart`: the report is rendered whole while the part is written.
    case heldUntilStaged
  }

  /// Plans every part, adding each to the report and handing it to `body`; returns the rest, for
  /// `writeReport` or `stageReport`. A redacted report needs every name before its first section: a run of
  /// one part is planned first and reported after; a run in parts is planned once more beforehand, for the
  /// names. Called once (`releaseTarget()` lets go of what the target held, once the run is planned).
  ///
  /// - Parameter onlyPart: how the report of a run of one part is made (a run in parts renders each part
  ///   while it is written).
  mutating func plan(onlyPart: OnlyPart = .renderedWhileWritten, _ body: (MigrationPlan) throws -> Void) throws
    -> MigrationPlan
  {
    var session = PlanningSession(options: options, existing: existing)
    let reread = !index.isOnePart
    var held: [MigrationPlan] = []
    var spool: ReportSpool? = nil
    if report.isWanted {
      if !options.redactUsernames {
        spool = report.spool(names: nil)
      } else if reread {
        spool = report.spool(names: try redactionNames())
      }
    }
    let holding = report.isWanted && spool == nil
    var verdict = RunVerdict()
    for skipped in index.skippedFiles { verdict.addSkippedFile(skipped.path, reason: skipped.reason) }
    verdict.sectionsKept = index.unknownSections.count
    // What a redacted run hides, in its report and in its outcome's examples, gathered from every part.
    var names = options.redactUsernames ? RedactionNames() : nil
    var accounting = InputAccounting()
    for (file, count) in index.ignoredItems { accounting.addIgnored(count, file: file) }
    var tally = self.tally
    let progress = self.progress
    var fileRead: (@Sendable (String) -> Void)?
    if reread, progress != nil {
      let reading = ReadingProgress(paths: index.pathsToReadAgain, handler: progress)
      reading.start()
      fileRead = { reading.finished($0) }
    }
    let totalItems = index.itemCount
    var planned = 0
    var rows = rowsWritten
    let (pipeline, existing, itemsPerPart) = (pipeline, existing, itemsPerPart)
    var rest = try pipeline.planInParts(
      &index, session: &session, existing: existing, maxItems: itemsPerPart,
      progress: fileRead,
      planningPart: { items in
        planned += items
        progress?(RunProgress(stage: .planning, done: planned, total: totalItems))
      }
    ) { part in
      verdict.add(part)
      accounting.add(part)
      tally.add(part)
      names?.add(part)
      if holding { return held.append(part) }
      if !reread, spool != nil, onlyPart != .renderedWhileWritten {
        if onlyPart == .heldUntilStaged {
          heldPart = part  // the spool gets it from `stageReport`, with the rest merged in
          return
        }
        spool?.hold(part)
        return try Self.write(part, rows: &rows, progress: progress, body)
      }
      try Self.write(part, rows: &rows, progress: progress) { try Self.add($0, to: &spool, whileWriting: body) }
      // A run of one part frees its written part (millions of objects at 40,000 items) on another core: freed
      // here, it held the rest's write and the commit up for a tenth of a second. A run in parts frees each part
      // here, before the next is read, which is what bounds its memory.
      if !reread { releaseInBackground(consume part) }
    }
    verdict.add(rest)
    accounting.add(rest)
    tally.add(rest)
    names?.add(rest)
    namesToRedact = names
    self.verdict = verdict
    self.accounting = accounting
    self.tally = tally
    // Every input's items, by bucket, in the report (they add up to the items read from the file).
    let totals = accounting.files
    rest.diagnostics += index.records.map { record in
      Diagnostic(
        .note, code: "input.accounting", InputAccounting.line(totals[record.path] ?? .init()),
        at: SourceLocation(file: record.path))
    }
    // The files a directory run skipped are named in the report's diagnostics too.
    rest.diagnostics += index.skippedFiles.map(\.diagnostic)
    rest.diagnostics += index.inputDiagnostics
    // A refused run's report is kept (it says why): it says too that the plan it shows was not written.
    if let refusal = verdict.refusal(strict: strict) {
      rest.diagnostics.append(Diagnostic(.error, code: RunVerdict.refusedCode, "\(refusal); nothing written"))
    }
    if holding {
      spool = report.spool(names: names)
      if onlyPart == .heldUntilStaged, let part = held.first, held.count == 1 {
        heldPart = part
      } else {
        for part in held {
          try Self.write(part, rows: &rows, progress: progress) { try Self.add($0, to: &spool, whileWriting: body) }
        }
        releaseInBackground(consume held)  // as a part written as it is planned
      }
    }
    rowsWritten = rows
    self.spool = spool
    return rest
  }

  /// Frees what the target held on another core, once `plan` has planned the run against it: freed when the
  /// run returned, its entities (those the plan keeps share their strings) held up the end of a run against the
  /// 40k-item dump's store by 50 ms.
  mutating func releaseTarget() {
    var target = UnifiedCacheContents()
    swap(&target, &existing)
    releaseInBackground(consume target)
  }

  /// Hands the part that `plan(onlyPart: .heldUntilStaged)` held to `body` (the store's writer), after
  /// `stageReport`, with the rest that `stageReport` merged into it; does nothing when no part was held.
  mutating func writeHeldPart(_ body: (MigrationPlan) throws -> Void) throws {
    guard let part = heldPart.take() else { return }
    try Self.write(part, rows: &rowsWritten, progress: progress, body)
    // Freed here, the part held the store's commit up by tens of milliseconds (the 40k-item migrate).
    releaseInBackground(consume part)
  }

  /// Hands `part` to `body`, with the progress of the rows written.
  private static func write(
    _ part: MigrationPlan, rows: inout Int, progress: RunProgressHandler?, _ body: (MigrationPlan) throws -> Void
  ) throws {
    let partRows = part.count(.add) + part.count(.update)
    progress?(RunProgress(stage: .writing, done: rows, total: rows + partRows))
    try body(part)
    rows += partRows
    progress?(RunProgress(stage: .writing, done: rows, total: rows))
  }

  /// Adds `part` to `spool` (renders its report pieces) on another thread while `body` writes it.
  private static func add(
    _ part: MigrationPlan, to spool: inout ReportSpool?, whileWriting body: (MigrationPlan) throws -> Void
  ) throws {
    guard let current = spool else { return try body(part) }
    spool = nil
    let adding = SpoolAddition(current, part)
    do {
      try body(part)
    } catch {
      _ = adding.finish  // the other thread is done with the spool before the error leaves
      throw error
    }
    spool = try adding.finish.get()
  }

  /// Hands `rest` (what `plan` returned) to `body` (the store's writer), unless `stageReport` merged it into the
  /// held part, which `writeHeldPart` wrote with it.
  mutating func writeRest(_ rest: MigrationPlan, _ body: (MigrationPlan) throws -> Void) throws {
    if restIsInHeldPart { return }
    try Self.write(rest, rows: &rowsWritten, progress: progress, body)
  }

  /// Writes the report of the parts planned and `rest` (to its file or stream), if one is wanted.
  mutating func writeReport(_ rest: MigrationPlan) throws {
    guard var spool else { return }
    // Let go first: a copy left here kept the plan the spool holds, to be freed after the report, on one core.
    self.spool = nil
    progress?(RunProgress(stage: .reporting))
    try report.write(&spool, rest: rest)
  }

  /// Starts rendering the report of the parts planned and `rest` into a file beside its destination, on
  /// another thread (`StagedReport`); nil when the report goes to no file. A held part gets the rest merged in
  /// here, for the report and for `writeHeldPart`.
  mutating func stageReport(_ rest: MigrationPlan) -> StagedReport? {
    guard var spool, let path = report.file else { return nil }
    self.spool = nil
    guard let part = heldPart.take() else { return StagedReport(spool, rest: rest, path: path, writing: report) }
    // Merged here, where nothing else holds the part yet, the rest's entries go into the part's in place; merged
    // by the report while the writer holds the part, they would go into a copy of all its entries (about a MiB at
    // the end of the 10k-item `migrate`: docs/benchmarks.md, "The rest merged into the only part before its
    // report").
    let whole = (consume part).merged(with: rest)
    spool.hold(whole)
    heldPart = whole
    restIsInHeldPart = true
    return StagedReport(spool, rest: nil, path: path, writing: report)
  }

  /// A planning pass that only gathers the names a redacted report replaces.
  private mutating func redactionNames() throws -> RedactionNames {
    var session = PlanningSession(options: options, existing: existing)
    var names = RedactionNames()
    // Takes the files the first pass kept, which the run's own pass then reads again: kept for that pass too,
    // their items were held through this one beside each part (a 5,000-device fleet's redacted dry run peaked
    // at 474 MiB, against 386 MiB).
    let rest = try pipeline.planInParts(&index, session: &session, existing: existing, maxItems: itemsPerPart) {
      names.add($0)
    }
    names.add(rest)
    return names
  }

  /// The outcome of the parts planned so far.
  func outcome(strict: Bool) -> MigrationOutcome {
    var outcome = MigrationOutcome(verdict: verdict, strict: strict, plannedAt: plannedAt)
    // The matcher is made only when there is something to hide: building it takes time at a fleet's size.
    if let namesToRedact, !verdict.examples.isEmpty { outcome.verdict.redactExamples(Redactor(namesToRedact)) }
    tally.fill(&outcome)
    if let namesToRedact, !outcome.exportLeavesOut.isEmpty {
      outcome.exportLeavesOut = outcome.exportLeavesOut.map(Redactor(namesToRedact).callAsFunction)
    }
    outcome.skippedFiles = index.skippedFiles
    outcome.inputDiagnostics = index.inputDiagnostics
    outcome.accounting = accounting
    outcome.reportFile = report.file
    return outcome
  }
}

/// One part added to a report's spool on another thread (`ReportSpool.add`); `finish` waits for it and gives
/// the spool back.
private final class SpoolAddition: @unchecked Sendable {  // `spool`: the other thread's until it is done
  private var spool: ReportSpool
  private let part: MigrationPlan
  private var done: BackgroundValue<Result<Void, any Error>>?

  init(_ spool: consuming ReportSpool, _ part: MigrationPlan) {
    self.spool = spool
    self.part = part
    done = BackgroundValue { Result { try self.spool.add(self.part) } }
  }

  /// The spool with the part added, or the error of adding it.
  var finish: Result<ReportSpool, any Error> {
    done!.value.map { spool }
  }
}

/// Where a run's report goes and how it looks.
struct ReportWriting: Sendable {
  let destination: ReportDestination
  let format: ReportFormat
  let colorize: Bool

  var isWanted: Bool {
    if case .none = destination { return false }
    return true
  }

  var file: String? {
    if case .file(let path) = destination { return path }
    return nil
  }

  /// Where a run's parts are rendered as they are planned (`ReportSpool`, a temporary file).
  func spool(names: RedactionNames?) -> ReportSpool {
    ReportSpool(format: format, colorize: colorize, redacting: names)
  }

  /// Renders the report of `spool`'s parts and `rest` (nil when the plan `spool` holds has it) to `write`, a part
  /// at a time.
  func render(_ spool: inout ReportSpool, rest: MigrationPlan?, to write: (UnsafeRawBufferPointer) throws -> Void)
    throws
  {
    try OwnerOnlyOutput.buffered({ try spool.finish(rest, to: $0) }, into: write)
  }

  /// The error of a report that cannot be written to `path`.
  static func failure(_ error: any Error, path: String) -> RunOutputError {
    RunOutputError(
      "cannot write the report (\(error))", file: path, remedy: "check that the directory exists and is writable")
  }

  /// Writes the report of `spool`'s parts and `rest` to the file (mode 0600, atomically) or the stream as it
  /// is assembled: a large report is never held whole (a million items make about a gigabyte of text).
  func write(_ spool: inout ReportSpool, rest: MigrationPlan) throws {
    switch destination {
    case .none: return
    case .stream(let write):
      try render(&spool, rest: rest, to: write)
    case .file(let path):
      do {
        try OwnerOnlyOutput.write(to: path) { try render(&spool, rest: rest, to: $0) }
      } catch {
        throw Self.failure(error, path: path)
      }
    }
  }
}

/// A report file rendered on another thread while the store's transaction is written: into an owner-only
/// temporary file beside its destination (`OwnerOnlyOutput.Staged`), renamed into place by `publish` once the
/// store has committed (or the run was refused), removed by `discard` when the run fails. The bytes are those
/// `ReportWriting.write` writes.
final class StagedReport: Sendable {
  private let file: OwnerOnlyOutput.Staged
  private let rendered: BackgroundValue<Result<Void, RunOutputError>>

  /// Starts rendering `spool`'s parts and `rest` (nil when the plan `spool` holds has it) for `path`.
  init(_ spool: consuming ReportSpool, rest: MigrationPlan?, path: String, writing: ReportWriting) {
    let file = OwnerOnlyOutput.Staged(path)
    let work = Work(spool: spool, rest: rest, writing: writing)
    self.file = file
    rendered = BackgroundValue {
      do {
        try file.write { write in try work.writing.render(&work.spool, rest: work.rest, to: write) }
        return .success(())
      } catch {
        return .failure(ReportWriting.failure(error, path: path))
      }
    }
  }

  /// Waits for the rendering; throws its failure (the temporary file is then gone).
  func finish() throws {
    try rendered.value.get()
  }

  /// Renames the rendered report into place (once `finish` succeeded).
  func publish() throws {
    do {
      try file.publish()
    } catch {
      throw ReportWriting.failure(error, path: file.path)
    }
  }

  /// Waits for the rendering, then removes what it wrote.
  func discard() {
    _ = rendered.value
    file.discard()
  }

  /// What the rendering thread alone uses, handed over whole.
  private final class Work: @unchecked Sendable {
    var spool: ReportSpool
    let rest: MigrationPlan?
    let writing: ReportWriting

    init(spool: consuming ReportSpool, rest: MigrationPlan?, writing: ReportWriting) {
      self.spool = spool
      self.rest = rest
      self.writing = writing
    }
  }
}
