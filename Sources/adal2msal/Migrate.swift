import Adal2MSAL
import ArgumentParser
import Foundation

extension Adal2MSALCommand {
  struct Migrate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Migrate ADAL caches (and MSAL caches) into a unified cache in SQLite, or show the diff with --dry-run.",
      discussion: """
        Reads every input (keychain dumps, macOS blobs, archived items; MSAL unified-cache JSON), resolves each \
        ADAL user's MSAL identity, maps the tokens to unified entities and plans them against what the store \
        holds. The plan is the report: every entity with its action (add, update, unchanged, conflict, skip), \
        its reason and its source items. Without --dry-run the adds and updates are written in one transaction.

        Examples:
          adal2msal migrate --adal device.plist --out cache.sqlite --dry-run
          adal2msal migrate --adal dumps/ --msal msal.json --out cache.sqlite \\
            --report report.json --report-format json
          adal2msal migrate --adal device.plist --out cache.sqlite --strict \\
            --client-id 4b0db8c2-9f26-4417-8bde-3f0e3656f8e0

        \(ExitStatus.helpText)
        """)

    @OptionGroup var inputs: MigrationInputOptions

    @Option(help: ArgumentHelp("The SQLite store to write (created with mode 0600 when missing).", valueName: "cache.sqlite"))
    var out: String

    @Flag(help: "Plan and report, write nothing (the target file is not created or changed).")
    var dryRun = false

    @OptionGroup var planning: PlanningOptions

    @OptionGroup var reporting: ReportOptions

    @Flag(help: "Fail (exit 1, nothing written) when any item is skipped or in conflict.")
    var strict = false

    @Option(help: ArgumentHelp("Seal the tokens at rest with this key (32 raw bytes, 64 hex digits or base64); or set ADAL2MSAL_ENCRYPTION_KEY.", valueName: "file"))
    var encryptionKeyFile: String?

    func validate() throws {
      guard !inputs.adal.isEmpty || !inputs.msal.isEmpty else {
        throw ValidationError("give at least one input: --adal FILE-OR-DIRECTORY or --msal FILE")
      }
    }

    func run() async throws {
      let startedAt = Date()
      let options = try planning.migrationOptions(redactUsernames: reporting.redactUsernames)
      let pipeline = MigrationPipeline(options: options, limits: inputs.limits)
      let outcome = try await runReportingFailures {
        let sealing = try StoreCommandSupport.sealing(keyFile: encryptionKeyFile)
        let planned = try await readAndPlan(pipeline, sealing: sealing)
        let plan = planned.plan
        let model = Migration.report(plan, redactUsernames: options.redactUsernames)
        let refused = strict && plan.hasSkipsOrConflicts
        // A report file is written before the store (a report that cannot be written stops the run with nothing
        // written), as it is made; a report on standard output of a run that writes the store waits for the
        // write, so that a failed run prints only its error line there: only that one is held. The model is
        // freed on another core.
        let waits = !dryRun && !refused && reporting.report == nil
        let held = waits ? reporting.render(model) : nil
        if !waits { try reporting.write(model) }
        releaseInBackground(consume model)
        if refused {
          Terminal.standardError(
            "adal2msal: error: --strict: \(plan.count(.skip)) skipped and \(plan.count(.conflict)) conflicting items, nothing written (see the report)"
          )
          return ExitStatus.failure
        }
        if !dryRun {
          let applied = try CacheStore.removingNewFileOnFailure(out, existed: planned.existed) {
            let target = try planned.store ?? CacheStore.open(path: out, options: CacheStoreOptions(sealing: sealing))
            return try target.apply(
              plan,
              options: ApplyOptions(
                startedAt: startedAt, recordedOptions: recordedOptions(encrypted: target.isEncrypted),
                unknownSections: planned.unknownSections))
          }
          if let held { try reporting.write(held) }
          Terminal.standardError(
            "adal2msal: wrote run \(applied.runID) to \(out): \(applied.rowsInserted) added, \(applied.rowsUpdated) updated")
        }
        return plan.hasSkipsOrConflicts ? ExitStatus.successWithSkips : ExitStatus.success
      }
      if outcome != ExitStatus.success { throw outcome }
    }

    /// Reads the inputs, then opens the target and plans against it. Inputs come first: a bad input fails the
    /// run before the target is touched. A dry run opens an existing target read-only and never creates one.
    /// The decoded inputs end here; only the plan (which holds what the apply writes) outlives them.
    private func readAndPlan(_ pipeline: MigrationPipeline, sealing: SecretSealing?) async throws
      -> (plan: MigrationPlan, store: CacheStore?, existed: Bool, unknownSections: JSONObject)
    {
      let read = try await inputs.read(with: pipeline)
      let existed = FileManager.default.fileExists(atPath: out)
      let store: CacheStore? =
        existed
        ? try CacheStore.open(path: out, options: dryRun ? .reading(sealing: sealing) : CacheStoreOptions(sealing: sealing))
        : nil
      let unknownSections = read.unknownSections
      // Consumed: the planner frees the decoded items once they are mapped, on this thread (freed on another
      // core while the report was made, their memory was still held when the report's was taken).
      let plan = pipeline.plan(consume read, existing: try store?.contents() ?? UnifiedCacheContents())
      return (plan, store, existed, unknownSections)
    }

    /// The options recorded in the run row: what was asked, never a key or a token.
    private func recordedOptions(encrypted: Bool) -> JSONObject {
      var recorded: JSONObject = [
        "command": .string("migrate"),
        "adal": .array(inputs.adal.map { .string($0) }),
        "msal": .array(inputs.msal.map { .string($0) }),
        "skipAccessTokens": .bool(planning.skipAccessTokens),
        "prefer": .string(planning.prefer.rawValue),
        "encrypted": .bool(encrypted),
      ]
      if let clientID = planning.clientID { recorded["clientID"] = .string(clientID) }
      if let now = planning.now { recorded["now"] = .string(now) }
      return recorded
    }
  }
}
