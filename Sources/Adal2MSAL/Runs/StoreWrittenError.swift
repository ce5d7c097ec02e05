import Foundation

/// A run's store committed, but an output written after it failed: the report (renamed into place, or on its
/// stream) or Azure CLI's files. The store holds the run (`outcome.applied`); running again finds its entries
/// unchanged and writes the outputs.
public struct StoreWrittenError: Error, LocalizedError, CustomStringConvertible, Sendable {
  /// What the run did, with the run row it wrote.
  public var outcome: MigrationOutcome
  /// The store's path.
  public var store: String
  /// What failed after the commit, in the order it was tried.
  public var failures: [any Error]

  public init(outcome: MigrationOutcome, store: String, failures: [any Error]) {
    self.outcome = outcome
    self.store = store
    self.failures = failures
  }

  public var description: String {
    let written = outcome.applied.map { "run \($0.runID) was written to \(store)" } ?? "\(store) was written"
    let failed = failures.map { ($0 as? LocalizedError)?.errorDescription ?? String(describing: $0) }
    return "\(written), but " + failed.joined(separator: "; ")
  }

  public var errorDescription: String? { description }
}
