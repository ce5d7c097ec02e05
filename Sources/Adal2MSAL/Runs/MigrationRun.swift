import Adal2MSALSupport
import CacheStore
import Foundation
import MigrationEngine
import UnifiedCache

/// Where a run's full report goes.
public enum ReportDestination: Sendable {
  /// No report: the outcome's counts only (and the plan is never rendered).
  case none
  /// A file, written owner-only while the store's transaction is written and renamed into place once it has
  /// committed: a report that cannot be written rolls the run back, and a failed run leaves none.
  case file(String)
  /// A stream (standard output), written a part at a time once the store's transaction has committed (or the
  /// run was refused), so that a failed run writes nothing there.
  case stream(@Sendable (UnsafeRawBufferPointer) throws -> Void)
}

/// One migration, as `adal2msal migrate` runs it: read every input (ADAL files on all cores), plan them against
/// the store, write the store in one transaction and the report, and say what it amounts to.
///
/// A run of at most `Options.planWholeUpTo` ADAL items, or of one ADAL file, is planned whole, its inputs read
/// once; a larger one is planned, written and reported in parts of at most `Options.itemsPerPart` items
/// (docs/architecture.md). The report and the store are the same either way.
///
/// ```swift
/// let outcome = try await MigrationRun(adal: ["device.plist"], store: "cache.sqlite").run()
/// print(outcome.verdict.summary)
/// ```
public struct MigrationRun: Sendable {
  /// How a migration plans, writes and reports.
  public struct Options: Sendable {
    /// How items map and conflicts resolve, the clock and redaction (`MigrationOptions`).
    public var migration = MigrationOptions()
    /// The largest input accepted and the time zone of ADAL Python's local times.
    public var limits = InputLimits.default
    /// Plan and report, write nothing: an existing store is opened read-only and left as it was.
    public var dryRun = false
    /// Any item not migrated for a reason other than policy fails the run, and nothing is written.
    public var strict = false
    /// The key tokens are sealed with at rest (`SecretSealing`), if any.
    public var sealing: SecretSealing?
    /// Where the full report goes; `.none` renders none.
    public var report = ReportDestination.none
    /// The report's format.
    public var reportFormat = ReportFormat.text
    /// ANSI colours in a text report (for a terminal).
    public var colorizeReport = false
    /// A run of at most this many ADAL items is planned whole, its inputs read once; so is a run of one ADAL
    /// file, whatever its size (a part holds whole files).
    public var planWholeUpTo = 100_000
    /// A larger run is planned, written and reported this many ADAL items at a time (or fewer).
    public var itemsPerPart = 25_000
    /// After writing, also write Azure CLI 2.30+'s files into this directory (`AzureCLIFiles`).
    public var azureCLIDirectory: String?
    /// What the store's run row records as the run's options (never a key or a token); its `encrypted` member
    /// is set to whether the store seals its tokens.
    public var recordedOptions: JSONObject = [:]
    /// When the run started, for the run row; the call's time when nil.
    public var startedAt: Date?
    /// What a refused file's error calls the run's files, and how it says to give them instead.
    package var fileNames = RunFileNames()

    public init() {}
  }

  /// ADAL inputs: files, or directories of them.
  public var adal: [String]
  /// MSAL unified-cache JSON files.
  public var msal: [String]
  /// The SQLite store (created with mode 0600 when missing); nil plans against an empty cache and writes nothing.
  public var store: String?
  public var options: Options

  public init(adal: [String] = [], msal: [String] = [], store: String?, options: Options = Options()) {
    self.adal = adal
    self.msal = msal
    self.store = store
    self.options = options
  }

  /// Runs the migration. A refused run (`--strict` with a problem, or nothing usable) is an outcome whose
  /// `result` is `.failed`, with nothing written; unusable inputs and store failures are thrown.
  ///
  /// Before anything is read or written, the store and the report are refused when one is the same file as an
  /// input, as the other or as Azure CLI's files (device and inode after following links), or exists and is not
  /// a regular file; so is an Azure CLI directory whose token cache is not an MSAL input.
  ///
  /// - Throws: a refused output (`OutputPathError`, `AzureCLIFiles.Refusal`), the first unusable input named
  ///   directly (`InputFileError`, `ADALCacheError`, `UnifiedCacheError`), a store failure (`CacheStoreError`,
  ///   `StoreWriteLockError`), or a report that cannot be written (`RunOutputError`, or the stream's error). Once
  ///   the store has committed, a report or Azure CLI file that cannot be written is a `StoreWrittenError`,
  ///   which holds the outcome.
  public func run(progress: RunProgressHandler? = nil) async throws -> MigrationOutcome {
    let ownFiles = ownFiles()
    try checkFiles(ownFiles: ownFiles)
    let startedAt = options.startedAt ?? Date()
    var migration = options.migration
    // Azure CLI's token cache is Azure CLI's as it is now: a token it refreshed since the last run is newer than
    // the store's, and written back the store's would undo the refresh.
    if let directory = options.azureCLIDirectory {
      migration.currentCaches.append(AzureCLIFiles(directory: directory).tokenCache)
    }
    let pipeline = MigrationPipeline(options: migration, limits: options.limits, fileNames: options.fileNames)
    let dryRun = options.dryRun || store == nil
    let sealing = options.sealing
    // The target is read beside the inputs, read-only (a core waited for it otherwise: 0.35 s of the 40k-item
    // dump's runs against the store they made). A dry run, which never locks it, plans against that read, its
    // errors thrown after the inputs'. A writing run keeps the read only when nothing was committed to the store
    // between it and the lock (`CheckedContents.isCurrent`), and otherwise reads the store under the lock.
    var targetRead = store.flatMap { Self.readInBackground($0, sealing: sealing) }
    // Inputs first: a bad input fails the run before the target is written to.
    var fileRead: (@Sendable (String) -> Void)?
    if progress != nil {
      let reading = ReadingProgress(paths: adal + msal, passingOver: ownFiles, handler: progress)
      reading.start()
      fileRead = { reading.finished($0) }
    }
    var index = try await pipeline.index(
      adal: adal, msal: msal, passingOver: ownFiles, keepingAtMost: options.planWholeUpTo,
      itemsPerPart: options.itemsPerPart, progress: fileRead)
    // One writer at a time, from before the store is opened to write until the run has committed or cleaned up.
    var lock: StoreWriteLock?
    if let store, !dryRun {
      lock = try StoreWriteLock(storePath: store) { progress?(RunProgress(stage: .waiting)) }
    }
    defer { lock?.release() }
    var target: CacheStore?
    var existing = UnifiedCacheContents()
    if dryRun, let targetRead, let read = try targetRead.value.get() {
      (target, existing) = (read.store, read.contents)
    } else if let store, !dryRun {
      let existed = lock?.existed ?? FileManager.default.fileExists(atPath: store)
      // A file that holds no store yet is left as it is: the run builds its store beside it (`CacheStore.writing`).
      if existed, !CacheStore.wouldCreate(store) {
        // Asked before the store is opened to write, which creates the -wal file that an unchanged store lacks.
        let current = (try? targetRead?.value.get()).flatMap { $0?.isCurrent == true ? $0 : nil }
        let writable = try CacheStore.open(path: store, options: CacheStoreOptions(sealing: sealing))
        existing = try current?.contents ?? writable.contents()
        target = writable
      }
    }
    targetRead = nil  // a stale read's contents and its read-only connection go before the run plans
    index.partition(existing: existing, maxItems: options.itemsPerPart)
    let report = ReportWriting(
      destination: options.report, format: options.reportFormat, colorize: options.colorizeReport)
    var run = PartedMigration(
      pipeline: pipeline, index: consume index, existing: consume existing, itemsPerPart: options.itemsPerPart,
      report: report, strict: options.strict, progress: progress)
    guard let store, !dryRun, let writeLock = lock else {
      let rest = try run.plan(onlyPart: .held) { _ in }
      run.releaseTarget()
      try run.writeReport(rest)
      return run.outcome(strict: options.strict)
    }
    // A report file is rendered beside its destination while the store's transaction is written (a report that
    // cannot be written rolls the run back) and renamed into place once the store has committed; a report on a
    // stream waits for the commit. A refused run rolls back once it is wholly planned, and keeps its report.
    var rest: MigrationPlan?
    var staged: StagedReport?
    defer { staged?.discard() }
    var outcome: MigrationOutcome
    // What an interrupt once the store has committed names as not written (`InterruptCleanup`).
    let reports: Bool
    if case .none = options.report { reports = false } else { reports = true }
    InterruptCleanup.remaining(Self.remaining(report: reports, azureCLI: options.azureCLIDirectory != nil))
    do {
      // A new store is built under a temporary name and renamed onto `store` at the commit (`CacheStore.writing`).
      let applied = try CacheStore.writing(
        store, options: CacheStoreOptions(sealing: sealing), opened: target, lock: writeLock
      ) { writable in
        var recorded = options.recordedOptions
        recorded["encrypted"] = .bool(writable.isEncrypted)
        return try writable.applyInParts(
          plannedAt: run.plannedAt, inputs: run.index.records,
          options: ApplyOptions(
            startedAt: startedAt, recordedOptions: recorded, unknownSections: run.index.unknownSections)
        ) { writer in
          let planned = try run.plan(onlyPart: report.file != nil ? .heldUntilStaged : .renderedWhileWritten) {
            try writer.write($0)
          }
          run.releaseTarget()
          if report.file != nil { staged = run.stageReport(planned) } else { rest = planned }
          try run.writeHeldPart { try writer.write($0) }
          try run.writeRest(planned) { try writer.write($0) }
          releaseInBackground(consume planned)  // as the held part: not on the way to the commit
          if staged != nil { progress?(RunProgress(stage: .reporting)) }
          try staged?.finish()
          if run.outcome(strict: options.strict).result == .failed { throw Refused() }
        }
      }
      writeLock.committed()
      outcome = run.outcome(strict: options.strict)
      outcome.applied = applied
    } catch is Refused {
      try publish(&staged)
      if let rest { try run.writeReport(rest) }
      return run.outcome(strict: options.strict)
    }
    // The store holds the run now: what fails from here on is named with it (`StoreWrittenError`), and each
    // output is still tried. Azure CLI's files go before a report on a stream, which a reader may stop taking.
    var failures: [any Error] = []
    do { try publish(&staged) } catch { failures.append(error) }
    InterruptCleanup.remaining(
      Self.remaining(report: reports && rest != nil, azureCLI: options.azureCLIDirectory != nil))
    if let directory = options.azureCLIDirectory {
      do {
        let files = AzureCLIFiles(directory: directory)
        let tokenCache = FileIdentity(files.tokenCache)
        let asRead = run.index.records.first { $0.role == .msal && FileIdentity($0.path) == tokenCache }
        var written = try files.write(
          store: store, sealing: sealing, adal: adal, passingOver: ownFiles, limits: options.limits,
          tokenCacheAsRead: asRead?.sha256)
        if let names = run.namesToRedact, !written.diagnostics.isEmpty {
          let redact = Redactor(names)
          written.diagnostics = written.diagnostics.map { redact($0) }
        }
        outcome.azureCLI = written
      } catch {
        failures.append(error)
      }
    }
    if let rest {
      InterruptCleanup.remaining(Self.remaining(report: reports, azureCLI: false))
      do { try run.writeReport(rest) } catch { failures.append(error) }
    }
    InterruptCleanup.remaining(nil)
    guard failures.isEmpty else { throw StoreWrittenError(outcome: outcome, store: store, failures: failures) }
    return outcome
  }

  /// The target, opened read-only and read whole on another thread: nil when it does not exist or holds nothing
  /// yet (a dry run never creates one).
  private static func readInBackground(
    _ store: String, sealing: SecretSealing?
  ) -> BackgroundValue<Result<CheckedContents?, CacheStoreError>> {
    BackgroundValue {
      guard !CacheStore.wouldCreate(store) else { return .success(nil) }
      return Result { () throws(CacheStoreError) in try CheckedContents(path: store, sealing: sealing) }
    }
  }

  /// What a committed run has still to write, as an interrupt names it (`InterruptCleanup.remaining`).
  private static func remaining(report: Bool, azureCLI: Bool) -> String? {
    switch (azureCLI, report) {
    case (true, true): "Azure CLI's files and the report"
    case (true, false): "Azure CLI's files"
    case (false, true): "the report"
    case (false, false): nil
    }
  }

  /// Renames a staged report into place; it is no longer to be discarded.
  private func publish(_ staged: inout StagedReport?) throws {
    defer { staged = nil }
    try staged?.publish()
  }

  /// Thrown inside the store's transaction to roll back a refused run.
  private struct Refused: Error {}
}
