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

        Standard error gets the summary: the counts, the skips by reason, the users with problems and where the \
        full report went (--report FILE, or - for standard output; a dry run prints it on standard output), and \
        on a terminal the progress of runs that take more than two seconds. --quiet leaves only warnings and errors.

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
      help: ArgumentHelp(
        "The SQLite store to write (created with mode 0600 when missing). A dry run without it plans against an empty cache.",
        valueName: "cache.sqlite"), transform: PathArgument.nonEmpty)
    var out: String?

    @Flag(
      help:
        "Plan and report, write nothing (the target file is not created or changed); the report goes to standard output unless --report says otherwise."
    )
    var dryRun = false

    @Flag(name: .shortAndLong, help: "Print nothing but errors and warnings: no summary and no progress.")
    var quiet = false

    @OptionGroup var planning: PlanningOptions

    @OptionGroup var reporting: ReportOptions

    @Flag(
      help:
        "Fail (exit 1, nothing written) on anything that would exit 2: an item not read or not modelled, a user with no MSAL identity or in an identity conflict, a skipped file."
    )
    var strict = false

    @Option(
      help: ArgumentHelp(
        "Seal the tokens at rest with this key (32 raw bytes, 64 hex digits or base64); or set ADAL2MSAL_ENCRYPTION_KEY.",
        valueName: "file"), transform: PathArgument.nonEmpty)
    var encryptionKeyFile: String?

    @Option(
      help: ArgumentHelp(
        "After writing, also write Azure CLI 2.30+'s files here (mode 0600): msal_token_cache.json (the whole store, as export --for python writes it) and service_principal_entries.json (the service principals of the ADAL Python / Azure CLI inputs, merged into an existing one). An existing msal_token_cache.json must be among the --msal inputs.",
        valueName: "dir"), transform: PathArgument.nonEmpty)
    var azureCLIDir: String?

    // Numbers are parsed unconditionally, so that `-1` gets the option's own error rather than "missing value".
    @Option(
      parsing: .unconditional,
      help: ArgumentHelp(
        "Plan a run of at most this many ADAL items whole, reading its inputs once; a larger run of more than one ADAL file is planned in parts, keeping the items of the files that fit in this many less --items-per-part and reading the others twice (a part holds whole files, so one file is always planned whole).",
        valueName: "count"))
    var planWholeUpTo = 100_000

    @Option(
      parsing: .unconditional,
      help: ArgumentHelp(
        "In a run planned in parts, plan, write and report at most this many ADAL items at a time (inputs whose users overlap stay together). Lower it to use less memory.",
        valueName: "count"))
    var itemsPerPart = 25_000

    func validate() throws {
      guard !inputs.adal.isEmpty || !inputs.msal.isEmpty else {
        throw ValidationError("give at least one input: --adal FILE-OR-DIRECTORY or --msal FILE-OR-DIRECTORY")
      }
      guard out != nil || dryRun else {
        throw ValidationError("give the store to write with --out FILE, or --dry-run to plan against an empty cache")
      }
      guard itemsPerPart > 0 else { throw ValidationError("--items-per-part must be positive") }
      guard planWholeUpTo >= 0 else { throw ValidationError("--plan-whole-up-to must not be negative") }
      if let azureCLIDir {
        do {
          try AzureCLIFiles(directory: azureCLIDir).validate(msalInputs: inputs.msal, dryRun: dryRun, names: fileNames)
        } catch {
          throw ValidationError(error.description)
        }
      }
    }

    func run() async throws {
      let startedAt = Date()
      AllocatorTuning.fitTopPad(
        toInputBytes: InputFile.totalBytes(of: inputs.adal + inputs.msal),
        environment: ProcessInfo.processInfo.environment)
      let progress = ProgressLine(enabled: !quiet && Terminal.standardErrorIsTerminal)
      if out != nil, !dryRun { Terminal.reportClosedPipes() }
      let (outcome, afterCommit) = try await runReportingFailures { () -> (MigrationOutcome, StoreWrittenError?) in
        var options = MigrationRun.Options()
        options.fileNames = fileNames
        options.migration = try planning.migrationOptions(redactUsernames: reporting.redactUsernames)
        options.limits = inputs.limits
        options.startedAt = startedAt
        options.dryRun = dryRun
        options.strict = strict
        options.sealing = try StoreCommandSupport.sealing(keyFile: encryptionKeyFile, strict: strict)
        options.report = reporting.destination(dryRun: dryRun)
        options.reportFormat = reporting.reportFormat
        options.colorizeReport = reporting.colorize(dryRun: dryRun)
        options.planWholeUpTo = planWholeUpTo
        options.itemsPerPart = itemsPerPart
        options.azureCLIDirectory = azureCLIDir
        options.recordedOptions = recordedOptions()
        defer { progress.finish() }
        do {
          let run = MigrationRun(adal: inputs.adal, msal: inputs.msal, store: out, options: options)
          return (try await run.run(progress: progress.handler(store: out)), nil)
        } catch let error as StoreWrittenError {
          return (error.outcome, error)
        }
      }
      InterruptCleanup.remaining("the summary")
      var status = MigrationSummary(
        outcome: outcome, store: out, reportPlace: reportPlace, quiet: quiet, library: planning.library
      ).print()
      if let afterCommit {
        _ = commandFailure(afterCommit)
        status = ExitStatus.partial
      }
      if status != ExitStatus.success { throw status }
    }

    /// Where the full report goes, in words.
    private var reportPlace: String {
      switch reporting.destination(dryRun: dryRun) {
      case .none: "not written (--report FILE writes it, --report - prints it)"
      case .file(let path): path
      case .stream: "standard output"
      }
    }

    /// The options recorded in the run row: what was asked, never a key or a token (`encrypted` is the
    /// store's, set by the run).
    private func recordedOptions() -> JSONObject {
      var recorded: JSONObject = [
        "command": .string("migrate"),
        "adal": .array(inputs.adal.map { .string($0) }),
        "msal": .array(inputs.msal.map { .string($0) }),
        "skipAccessTokens": .bool(planning.skipAccessTokens),
        "prefer": .string(planning.prefer.rawValue),
        "encrypted": .bool(false),
      ]
      if let clientID = planning.clientID { recorded["clientID"] = .string(clientID) }
      if let now = planning.now { recorded["now"] = .string(now) }
      return recorded
    }
  }
}
