import Foundation
import MigrationEngine
import UnifiedCache

/// What the caller tells `apply` about the run besides the plan.
public struct ApplyOptions: Sendable {
  /// When the run started (the CLI's start time); the run row records it.
  public var startedAt: Date
  /// The options the run was invoked with, recorded as JSON in the run row (never a secret or key).
  public var recordedOptions: JSONObject
  /// Top-level sections the store does not model (from an imported file), merged by name: a section with the
  /// same name is replaced, a new one is appended after the others.
  public var unknownSections: JSONObject
  /// The clock for `finished_at`.
  public var now: @Sendable () -> Date

  public init(
    startedAt: Date = Date(), recordedOptions: JSONObject = JSONObject(), unknownSections: JSONObject = JSONObject(),
    now: @escaping @Sendable () -> Date = { Date() }
  ) {
    self.startedAt = startedAt
    self.recordedOptions = recordedOptions
    self.unknownSections = unknownSections
    self.now = now
  }
}

/// What one `apply` did.
public struct AppliedRunSummary: Sendable, Hashable, Codable {
  /// The id of the run row.
  public var runID: Int64
  public var startedAt: Date
  public var finishedAt: Date
  /// How many plan entries had each action, per entity kind (`skip` entries without an entity count under "none").
  public var planned: [String: [String: Int]]
  /// Rows inserted (the key was not in the store).
  public var rowsInserted: Int
  /// Rows replaced (the key was in the store with other content).
  public var rowsUpdated: Int
  /// Plan writes that found the store already holding exactly that entity (a plan applied twice): not written.
  public var rowsAlreadyCurrent: Int
  /// Unknown top-level sections added or replaced.
  public var sectionsWritten: Int

  /// Rows written in all.
  public var rowsWritten: Int { rowsInserted + rowsUpdated }
}

/// One row of the `runs` table.
public struct StoredRun: Sendable, Hashable {
  public var id: Int64
  public var startedAt: String
  public var finishedAt: String
  public var plannedAt: String
  public var toolVersion: String
  /// The inputs with their SHA-256, as JSON text.
  public var inputsJSON: String
  public var optionsJSON: String
  /// The counts per action and kind, and the rows written, as JSON text.
  public var summaryJSON: String
}
