import Adal2MSAL
import Foundation

/// A fleet of dumps in one run: progress to the pipeline's log, the JSON report streamed to `send` as it is
/// made, and the verdict for the pipeline to act on.
func migrateFleet(
  directory: String, store: String, log: @escaping @Sendable (String) -> Void,
  send: @escaping @Sendable (Data) -> Void
) async throws -> RunVerdict.Outcome {
  var options = MigrationRun.Options()
  options.report = .stream { bytes in send(Data(bytes)) }
  options.reportFormat = .json
  options.itemsPerPart = 10_000  // a run larger than planWholeUpTo is planned this many items at a time
  let outcome = try await MigrationRun(adal: [directory], store: store, options: options).run { progress in
    log("\(progress.stage): \(progress.done) of \(progress.total.map(String.init) ?? "?")")
  }
  for file in outcome.skippedFiles { log("skipped \(file.path): \(file.reason)") }
  log("skips by reason: \(outcome.skipsByReason)")
  return outcome.result
}
