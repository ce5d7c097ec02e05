import Adal2MSAL
import ArgumentParser
import Foundation

extension Adal2MSALCommand {
  struct Import: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Load unified-cache JSON files into a store (created if needed).",
      discussion: """
        Every entity of the files is an add, an update or unchanged against the store; a later file wins for \
        the same cache key (the files of a directory come in path order). Everything is written in one \
        transaction with a run record and the provenance of every row, so a failed import leaves the store as \
        it was. Prints a one-line summary on standard error. \
        Entries or sections that cannot be read or modelled are named on standard error, and the import exits 2; \
        when the files hold nothing else to keep, it writes nothing and exits 1.

        Example:
          adal2msal import msal_cache.json other_cache.json --out cache.sqlite --dry-run
        """)

    @Argument(
      help: ArgumentHelp(
        "Unified-cache JSON files (MSAL.NET, Python, Java or Node layout); a directory means every file in it and in its subdirectories, in path order (hidden entries are named and not read; a file that is no unified cache is skipped and named).",
        valueName: "files"), transform: PathArgument.nonEmpty)
    var files: [String]

    @Option(help: "The SQLite store to write (created with mode 0600 when missing).", transform: PathArgument.nonEmpty)
    var out: String

    @Flag(help: "Show the summary of what would change and write nothing.")
    var dryRun = false

    enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
      case text, json
    }

    @Option(
      help: """
        Summary format: text (one line on standard error) or json (an object on standard output, for scripts: \
        added, updated and unchanged count rows written, or on a dry run entities that would be; sectionsKept \
        counts the top-level sections the model does not know, kept verbatim; merged counts the entries of an \
        earlier file that a later one replaced (a later file wins for its key, each named in a note) or that \
        repeat an entity; notReadOrModelled counts the \
        entries and sections that could not be read or modelled; result is complete, partial or failed, as the \
        exit status says).
        """)
    var format: OutputFormat = .text

    @Option(
      help: "Seal the tokens with this key (32 raw bytes, 64 hex digits or base64; or set ADAL2MSAL_ENCRYPTION_KEY).",
      transform: PathArgument.nonEmpty)
    var encryptionKeyFile: String?

    @Flag(name: .shortAndLong, help: "Print nothing but errors and warnings.")
    var quiet = false

    func run() async throws {
      if !dryRun { Terminal.reportClosedPipes() }
      var options = ImportRun.Options()
      options.dryRun = dryRun
      options.fileNames = fileNames
      let outcome: ImportOutcome
      do {
        options.sealing = try StoreCommandSupport.sealing(keyFile: encryptionKeyFile)
        outcome = try ImportRun(files: files, store: out, options: options).run(
          progress: ProgressLine(enabled: false).handler(store: out))
      } catch let error as CacheStoreError {
        throw StoreCommandSupport.fail(error, file: out)
      } catch let error as UnifiedCacheError {
        throw StoreCommandSupport.fail(error)
      } catch {
        // An input that cannot be read or belongs elsewhere, a refused store path, another run's lock: each
        // error says what it is and what to do.
        throw commandFailure(error)
      }
      InterruptCleanup.remaining("the summary")
      DiagnosticLines.print(outcome.diagnostics, quiet: quiet)
      switch format {
      case .json:
        do {
          try Terminal.standardOutput(JSONText.pretty(.object(json(outcome)), indent: 2) + "\n", what: "the summary")
        } catch {
          guard let applied = outcome.applied else { throw commandFailure(error) }
          Terminal.standardError(
            "adal2msal: error: run \(applied.runID) was written to \(out), but \(error)")
          throw ExitStatus.partial
        }
      case .text where !quiet && outcome.result != .failed: Terminal.standardError(summary(outcome))
      case .text: break
      }
      if outcome.result == .failed {
        Terminal.standardError(
          "adal2msal: error: nothing usable in the files: \(outcome.notReadOrModelled) entry(ies), section(s) or "
            + "file(s) could not be read or modelled (named above); nothing written")
        throw ExitStatus.failure
      }
      // What could not be read is lost to the store (or kept verbatim): partial, as `migrate --msal` says it.
      if outcome.notReadOrModelled > 0 {
        Terminal.standardError(
          "adal2msal: warning: \(outcome.notReadOrModelled) entry(ies), section(s) or file(s) could not be read or "
            + "modelled (named above)")
        throw ExitStatus.partial
      }
    }

    /// The one-line summary.
    private func summary(_ outcome: ImportOutcome) -> String {
      let kept =
        (outcome.sectionsKept > 0 ? ", \(outcome.sectionsKept) section(s) kept verbatim" : "")
        + (outcome.verdict.merged > 0 ? ", \(outcome.verdict.merged) replaced by a later file or merged" : "")
      guard let applied = outcome.applied else {
        return "import (dry run, nothing written): \(outcome.added) to add, \(outcome.updated) to update, "
          + "\(outcome.unchanged) unchanged" + kept
      }
      return "imported \(outcome.filesRead.count) file(s) into \(out) as run \(applied.runID): "
        + "\(outcome.added) added, \(outcome.updated) updated, \(outcome.unchanged) unchanged" + kept
    }

    /// The summary for scripts: the same counts whether or not the run wrote.
    private func json(_ outcome: ImportOutcome) -> JSONObject {
      var object: JSONObject = [
        "dryRun": .bool(dryRun), "store": .string(out), "files": .array(files.map { .string($0) }),
        "filesRead": .array(outcome.filesRead.map { .string($0) }),
        "added": .number(String(outcome.added)), "updated": .number(String(outcome.updated)),
        "unchanged": .number(String(outcome.unchanged)),
        "sectionsKept": .number(String(outcome.sectionsKept)),
        "merged": .number(String(outcome.verdict.merged)),
        "notReadOrModelled": .number(String(outcome.notReadOrModelled)),
        "result": .string(outcome.result.rawValue),
      ]
      if let applied = outcome.applied { object["runID"] = .number(String(applied.runID)) }
      return object
    }
  }
}
