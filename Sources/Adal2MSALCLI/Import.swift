import Adal2MSAL
import ArgumentParser
import Foundation

extension Adal2MSALCommand {
  struct Import: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Load unified-cache JSON files into a store (created if needed).",
      discussion: """
        Every entity of the files is an add, an update or unchanged against the store; a later file wins for \
        the same cache key. Everything is written in one transaction with a run record and the provenance of \
        every row, so a failed import leaves the store as it was. Prints a one-line summary.

        Example:
          adal2msal import msal_cache.json other_cache.json --out cache.sqlite --dry-run
        """)

    @Argument(help: "Unified-cache JSON files (MSAL.NET, Python, Java or Node layout).")
    var files: [String]

    @Option(help: "The SQLite store to write (created with mode 0600 when missing).")
    var out: String

    @Flag(help: "Show the summary of what would change and write nothing.")
    var dryRun = false

    enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
      case text, json
    }

    @Option(help: "Summary format: text (one line) or json (an object with the counts, for scripts).")
    var format: OutputFormat = .text

    @Option(
      help: "Seal the tokens with this key (32 raw bytes, 64 hex digits or base64; or set ADAL2MSAL_ENCRYPTION_KEY).")
    var encryptionKeyFile: String?

    func run() async throws {
      let startedAt = Date()
      try await runReportingFailures { try checkOutputs() }
      let limits = InputLimits.default
      var inputs: [(path: String, data: Data)] = []
      for file in files {
        do {
          inputs.append((file, try InputFile.read(file, limits: limits)))
        } catch let error as InputFileError {
          throw commandFailure(error)
        } catch {
          throw StoreCommandSupport.fail("cannot read the file", file: file, todo: "check the path and its permissions")
        }
      }
      var summary = ""
      var counts: JSONObject = [
        "dryRun": .bool(dryRun), "store": .string(out), "files": .array(files.map { .string($0) }),
      ]
      // A failed import into a store it created leaves no store behind (nor its -wal/-shm files).
      let lock = dryRun ? nil : try await runReportingFailures { try StoreCommandSupport.writeLock(out) }
      defer { lock?.release() }
      let existedBefore = lock?.existed ?? FileManager.default.fileExists(atPath: out)
      try CacheStore.removingNewFileOnFailure(out, existed: existedBefore) {
        do {
          let sealing = try StoreCommandSupport.sealing(keyFile: encryptionKeyFile)
          let exists = FileManager.default.fileExists(atPath: out)
          let store: CacheStore? =
            dryRun && !exists
            ? nil
            : try CacheStore.open(
              path: out, options: dryRun ? .reading(sealing: sealing) : CacheStoreOptions(sealing: sealing))
          let existing = try store?.contents() ?? UnifiedCacheContents()
          let planned = try ImportPlan.make(files: inputs, existing: existing, limits: limits)
          for diagnostic in planned.diagnostics.prefix(10) {
            Terminal.standardError("adal2msal: \(diagnostic)")
          }
          if planned.diagnostics.count > 10 {
            Terminal.standardError("adal2msal: note: \(planned.diagnostics.count - 10) more diagnostics")
          }
          let plan = planned.plan
          let plannedCounts =
            "\(plan.count(.add)) to add, \(plan.count(.update)) to update, \(plan.count(.unchanged)) unchanged"
          for action in [PlanAction.add, .update, .unchanged] {
            counts[action.rawValue] = .number(String(plan.count(action)))
          }
          if dryRun || store == nil {
            summary = "import (dry run, nothing written): \(plannedCounts)"
          } else if let store {
            let options = ApplyOptions(
              startedAt: startedAt,
              recordedOptions: [
                "command": .string("import"), "files": .array(files.map { .string($0) }),
                "encrypted": .bool(store.isEncrypted),
              ],
              unknownSections: planned.unknownSections)
            let applied = try store.apply(plan, options: options)
            summary =
              "imported \(files.count) file(s) into \(out) as run \(applied.runID): \(applied.rowsInserted) added, "
              + "\(applied.rowsUpdated) updated, \(plan.count(.unchanged) + applied.rowsAlreadyCurrent) unchanged"
            counts["runID"] = .number(String(applied.runID))
            counts["added"] = .number(String(applied.rowsInserted))
            counts["updated"] = .number(String(applied.rowsUpdated))
          } else {
            summary = plannedCounts
          }
        } catch let error as CacheStoreError {
          throw StoreCommandSupport.fail(error, file: out)
        } catch let error as UnifiedCacheError {
          throw StoreCommandSupport.fail(error, file: error.location.file ?? "")
        } catch {
          throw StoreCommandSupport.fail("import failed (\(type(of: error)))", file: out, todo: "run again")
        }
      }
      lock?.committed()
      switch format {
      case .text: print(summary)
      case .json: print(JSONText.pretty(.object(counts), indent: 2))
      }
    }
  }
}
