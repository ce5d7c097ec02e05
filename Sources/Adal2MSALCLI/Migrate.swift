import Adal2MSAL
import ArgumentParser
import Foundation

extension Adal2MSALCommand {
  struct Migrate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract:
        "Migrate ADAL caches (and MSAL caches) into a unified cache in SQLite, or show the diff with --dry-run.",
      discussion: """
        Reads every input (keychain dumps, macOS blobs, archived items, Azure CLI accessTokens.json, ADAL Node \
        caches, ADAL.NET v3 blobs; MSAL unified-cache JSON), resolves each \
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

    @Option(
      help: ArgumentHelp("The SQLite store to write (created with mode 0600 when missing).", valueName: "cache.sqlite"))
    var out: String

    @Flag(help: "Plan and report, write nothing (the target file is not created or changed).")
    var dryRun = false

    @OptionGroup var planning: PlanningOptions

    @OptionGroup var reporting: ReportOptions

    @Flag(
      help: "Fail (exit 1, nothing written) when any item is skipped for a reason other than policy, or in conflict.")
    var strict = false

    @Option(
      help: ArgumentHelp(
        "Seal the tokens at rest with this key (32 raw bytes, 64 hex digits or base64); or set ADAL2MSAL_ENCRYPTION_KEY.",
        valueName: "file"))
    var encryptionKeyFile: String?

    @Option(
      help: ArgumentHelp(
        "After writing, also write Azure CLI 2.30+'s files here (mode 0600): msal_token_cache.json (the whole store, as export --for python writes it) and service_principal_entries.json (the service principals of the ADAL Python / Azure CLI inputs, merged into an existing one). An existing msal_token_cache.json must be among the --msal inputs.",
        valueName: "dir"))
    var azureCLIDir: String?

    @Option(
      help: ArgumentHelp(
        "Plan a run of at most this many ADAL items whole, reading its inputs once; a larger run is planned in parts, reading them twice.",
        valueName: "count"))
    var planWholeUpTo = 100_000

    @Option(
      help: ArgumentHelp(
        "In a run planned in parts, plan, write and report at most this many ADAL items at a time (inputs whose users overlap stay together). Lower it to use less memory.",
        valueName: "count"))
    var itemsPerPart = 25_000

    func validate() throws {
      guard !inputs.adal.isEmpty || !inputs.msal.isEmpty else {
        throw ValidationError("give at least one input: --adal FILE-OR-DIRECTORY or --msal FILE")
      }
      guard itemsPerPart > 0 else { throw ValidationError("--items-per-part must be positive") }
      guard planWholeUpTo >= 0 else { throw ValidationError("--plan-whole-up-to must not be negative") }
      if let azureCLIDir { try AzureCLIFiles(directory: azureCLIDir).validate(msalInputs: inputs.msal, dryRun: dryRun) }
    }

    func run() async throws {
      let startedAt = Date()
      let options = try planning.migrationOptions(redactUsernames: reporting.redactUsernames)
      let pipeline = MigrationPipeline(options: options, limits: inputs.limits)
      let outcome = try await runReportingFailures {
        try checkOutputs()
        let sealing = try StoreCommandSupport.sealing(keyFile: encryptionKeyFile, strict: strict)
        // Inputs first: a bad input fails the run before the target is touched. A dry run opens an existing
        // target read-only and never creates one.
        var index = try await inputs.index(with: pipeline, keepingAtMost: planWholeUpTo)
        for skipped in index.skippedFiles {
          Terminal.standardError("adal2msal: warning: \(skipped.path): skipped: \(skipped.reason)")
        }
        // One writer at a time, from before the store is read until the run has committed or cleaned up.
        let lock = dryRun ? nil : try StoreCommandSupport.writeLock(out)
        defer { lock?.release() }
        let existed = lock?.existed ?? FileManager.default.fileExists(atPath: out)
        let store: CacheStore? =
          existed
          ? try CacheStore.open(
            path: out, options: dryRun ? .reading(sealing: sealing) : CacheStoreOptions(sealing: sealing))
          : nil
        let existing = try store?.contents() ?? UnifiedCacheContents()
        index.partition(existing: existing, maxItems: itemsPerPart)
        var run = PartedRun(
          pipeline: pipeline, index: consume index, existing: existing, itemsPerPart: itemsPerPart, reporting: reporting
        )
        if dryRun {
          let rest = try run.plan { _ in }
          try run.writeReport(rest)
          return run.refusal(strict: strict) ?? run.status
        }
        // A report file is written before the transaction commits (a report that cannot be written rolls the
        // run back); a report on standard output waits for the commit, so that a failed run prints only its
        // error there. --strict rolls back once the whole run is planned.
        var rest: MigrationPlan?
        var refused: ExitCode?
        do {
          let applied = try CacheStore.removingNewFileOnFailure(out, existed: existed) {
            let target = try store ?? CacheStore.open(path: out, options: CacheStoreOptions(sealing: sealing))
            return try target.applyInParts(
              plannedAt: run.plannedAt, inputs: run.index.records,
              options: ApplyOptions(
                startedAt: startedAt, recordedOptions: recordedOptions(encrypted: target.isEncrypted),
                unknownSections: run.index.unknownSections)
            ) { writer in
              let planned = try run.plan { try writer.write($0) }
              try writer.write(planned)
              if reporting.report != nil { try run.writeReport(planned) } else { rest = planned }
              refused = run.refusal(strict: strict)
              if refused != nil { throw StrictRefusal() }
            }
          }
          lock?.committed()
          if let rest { try run.writeReport(rest) }
          Terminal.standardError(
            "adal2msal: wrote run \(applied.runID) to \(out): \(applied.rowsInserted) added, \(applied.rowsUpdated) updated"
          )
          if let azureCLIDir {
            try AzureCLIFiles(directory: azureCLIDir).write(
              store: out, sealing: sealing, adal: inputs.adal, limits: inputs.limits)
          }
        } catch is StrictRefusal {
          if let rest { try run.writeReport(rest) }
          return refused ?? ExitStatus.failure
        }
        return run.status
      }
      if outcome != ExitStatus.success { throw outcome }
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

/// Thrown inside the store's transaction to roll back a failed run (--strict with problems, or nothing usable).
private struct StrictRefusal: Error {}
