import Adal2MSALSupport
import CacheStore
import Foundation
import MigrationEngine
import UnifiedCache

/// Loads unified-cache JSON files into a store (created if needed), as `adal2msal import` does: every entity
/// is an add, an update or unchanged against the store, a later file winning for the same cache key, all in
/// one transaction with a run record, so that a failed or killed import leaves the store as it was (and a store
/// it would have created does not exist).
///
/// ```swift
/// let imported = try ImportRun(files: ["msal_token_cache.json"], store: "cache.sqlite").run()
/// print(imported.added, imported.updated, imported.unchanged)
/// ```
public struct ImportRun: Sendable {
  /// How an import reads and writes.
  public struct Options: Sendable {
    /// Plan only: the store is not created, and an existing one is opened read-only.
    public var dryRun = false
    /// The key tokens are sealed with at rest, if any.
    public var sealing: SecretSealing?
    /// The largest file accepted.
    public var limits = InputLimits.default
    /// When the run started, for the run row; the call's time when nil.
    public var startedAt: Date?
    /// What a refused file's error calls the run's files, and how it says to give them instead.
    package var fileNames = RunFileNames.importing

    public init() {}
  }

  public var files: [String]
  public var store: String
  public var options: Options

  public init(files: [String], store: String, options: Options = Options()) {
    self.files = files
    self.store = store
    self.options = options
  }

  /// Imports the files; a directory means every file in it and in its subdirectories, in path order (hidden
  /// entries and the store's own files passed over and named), and one of its files that is no unified cache
  /// is skipped and named. Before anything is read or written, a store that is the same file as an input (device
  /// and inode after following links), or that exists and is not a regular file, is refused. Files that hold no
  /// entity and no section to keep, only what could not be read or modelled, give an outcome whose `result` is
  /// `.failed`, and nothing is written (the store is neither created nor given a run).
  ///
  /// - Parameter progress: told when the run waits for another run writing in the store's directory.
  /// - Throws: a refused store (`OutputPathError`), a file that cannot be read (`InputFileError`), that is an
  ///   ADAL input or a store (`ADALCacheError`, saying where it belongs) or no unified cache (`UnifiedCacheError`),
  ///   or a store failure (`CacheStoreError`, `StoreWriteLockError`).
  public func run(progress: RunProgressHandler? = nil) throws -> ImportOutcome {
    try checkFiles()
    let startedAt = options.startedAt ?? Date()
    let (limits, names) = (options.limits, options.fileNames)
    let (entries, expansion) = try InputFile.expandMarkingDirectories(files, passingOver: ownFiles())
    var inputDiagnostics = expansion
    let inputs = try entries.compactMap { entry -> (path: String, data: Data, cache: UnifiedCacheReadResult)? in
      do {
        let (data, cache) = try MigrationPipeline.readMSAL(entry.path, limits: limits, names: names)
        return (path: entry.path, data: data, cache: cache)
      } catch {
        // A file named directly ends the run; a file of a directory is skipped and named, as `migrate` does.
        guard entry.inDirectory else { throw error }
        let skipped = SkippedInput(path: entry.path, error: error)
        inputDiagnostics.append(skipped.azureCLIFileNote ?? skipped.diagnostic)
        return nil
      }
    }
    // Files that gave nothing to keep, only problems, are refused as a migration of them is: nothing is written.
    if inputs.allSatisfy({ $0.cache.contents.allEntities.isEmpty && $0.cache.contents.unknownSections.isEmpty }) {
      let unread = ImportOutcome(
        filesRead: inputs.map(\.path), added: 0, updated: 0, unchanged: 0, sectionsKept: 0,
        diagnostics: inputDiagnostics + inputs.flatMap { $0.cache.diagnostics })
      if unread.result == .failed { return unread }
    }
    let dryRun = options.dryRun
    let sealing = options.sealing
    /// Plans against `target` (nil: a store that does not exist yet) and, on a run that writes, applies the plan.
    func importing(into target: CacheStore?) throws -> ImportOutcome {
      let planned = ImportPlan.make(files: inputs, existing: try target?.contents() ?? UnifiedCacheContents())
      var outcome = ImportOutcome(
        filesRead: inputs.map(\.path), added: planned.plan.count(.add), updated: planned.plan.count(.update),
        unchanged: planned.plan.count(.unchanged), sectionsKept: planned.unknownSections.count,
        diagnostics: inputDiagnostics + planned.diagnostics)
      guard !dryRun, let target else { return outcome }
      let applyOptions = ApplyOptions(
        startedAt: startedAt,
        recordedOptions: [
          "command": .string("import"), "files": .array(files.map { .string($0) }),
          "encrypted": .bool(target.isEncrypted),
        ],
        unknownSections: planned.unknownSections)
      let applied = try target.apply(planned.plan, options: applyOptions)
      outcome.applied = applied
      outcome.added = applied.rowsInserted
      outcome.updated = applied.rowsUpdated
      outcome.unchanged += applied.rowsAlreadyCurrent
      return outcome
    }
    if dryRun {
      return try importing(
        into: CacheStore.wouldCreate(store) ? nil : CacheStore.open(path: store, options: .reading(sealing: sealing)))
    }
    let lock = try StoreWriteLock(storePath: store) { progress?(RunProgress(stage: .waiting)) }
    defer { lock.release() }
    // A new store is built under a temporary name and renamed onto `store` at the commit (`CacheStore.writing`).
    let outcome = try CacheStore.writing(store, options: CacheStoreOptions(sealing: sealing), lock: lock) {
      try importing(into: $0)
    }
    lock.committed()
    return outcome
  }
}

extension RunFileNames {
  /// An import's words: it reads only unified caches, and an ADAL input is for a migration.
  static var importing: RunFileNames {
    var names = RunFileNames()
    names.giveAsADALInput = "migrate it with `MigrationRun(adal:)`"
    return names
  }
}

/// What an `ImportRun` did, or (on a dry run) would do.
public struct ImportOutcome: Sendable {
  /// The files read, in the order they were imported (a directory's files in path order).
  public var filesRead: [String]
  /// Rows written new (on a dry run: entities the store does not hold).
  public var added: Int
  /// Rows replaced (on a dry run: entities whose fields change).
  public var updated: Int
  /// Entities the store already holds as they are.
  public var unchanged: Int
  /// Top-level sections kept verbatim and written back by export: those the model does not know (MSAL Go's
  /// partitions, an app's own data), and each known section that holds entries the model cannot read.
  public var sectionsKept: Int
  /// What the run said of its files (a directory's hidden entries, a file given again, a file of a directory
  /// skipped), then what the reader said about entries it skipped.
  public var diagnostics: [Diagnostic]
  /// The run row written; nil on a dry run.
  public var applied: AppliedRunSummary?

  /// The counts behind the verdict, by the rules of a migration's (`RunVerdict`, docs/verdicts.md): the rows and
  /// sections kept, and the entries and sections the reader could not read or model and the files of a directory
  /// that were skipped (`SkippedInput.code`), each named in `diagnostics`.
  public var verdict: RunVerdict {
    var verdict = RunVerdict()
    verdict.written = added + updated
    verdict.unchanged = unchanged
    verdict.sectionsKept = sectionsKept
    verdict.add(diagnostics.filter { $0.code != SkippedInput.code })
    for skipped in diagnostics where skipped.code == SkippedInput.code {
      verdict.addSkippedFile(skipped.location?.file ?? "", reason: skipped.message)
    }
    return verdict
  }

  /// Entries or sections the reader could not read or model, and files of a directory that were skipped: an
  /// import with any is partial, as a migration of the same files is.
  public var notReadOrModelled: Int { verdict.problems }

  /// The verdict: `.complete` when everything was read and modelled, `.partial` when something was not but
  /// entities or sections were kept, `.failed` when the files gave nothing but problems (then nothing was
  /// written): `verdict.outcome(strict: false)`.
  public var result: RunVerdict.Outcome { verdict.outcome(strict: false) }
}
