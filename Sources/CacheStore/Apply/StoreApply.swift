import Adal2MSALSupport
import Foundation
import GRDB
import MigrationEngine
import UnifiedCache

extension CacheStore {
  /// Applies a plan: writes every `add` and `update` entry, records the run and the provenance of every row
  /// written, all in ONE immediate transaction. Any failure rolls back and leaves the file as it was.
  ///
  /// A write whose entity the store already holds exactly (the plan was applied before) is not written and
  /// counts as `rowsAlreadyCurrent`; the run is recorded all the same.
  @discardableResult
  public func apply(_ plan: MigrationPlan, options: ApplyOptions = ApplyOptions()) throws(CacheStoreError) -> AppliedRunSummary {
    let planned = Self.plannedCounts(plan)
    let codec = self.codec
    do {
      return try queue.immediateTransaction { db in
        try db.execute(
          sql: """
            INSERT INTO runs (started_at, finished_at, planned_at, tool_version, inputs, options, summary)
            VALUES (?, '', ?, ?, ?, ?, '{}')
            """,
          arguments: [
            Self.timestamp(options.startedAt), Self.timestamp(plan.plannedAt), ToolVersion.current,
            try Self.json(plan.inputs), RowCodec.jsonText(options.recordedOptions),
          ])
        let runID = db.lastInsertedRowID
        var summary = AppliedRunSummary(
          runID: runID, startedAt: options.startedAt, finishedAt: options.startedAt, planned: planned,
          rowsInserted: 0, rowsUpdated: 0, rowsAlreadyCurrent: 0, sectionsWritten: 0)
        let writer = RowWriter(db: db, codec: codec)
        let provenance = try db.cachedStatement(
          sql: """
            INSERT INTO provenance (row_key, row_kind, run_id, source_file, item_index, label, action)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """)
        for entry in plan.entries where entry.action.writes {
          guard let entity = entry.entity else { continue }
          let action: PlanAction
          switch try writer.upsert(entity, expectNew: entry.action == .add) {
          case .current:
            summary.rowsAlreadyCurrent += 1
            continue
          case .inserted:
            summary.rowsInserted += 1
            action = .add
          case .updated:
            summary.rowsUpdated += 1
            action = .update
          }
          let key = entity.canonicalKey
          let sources = entry.sources.isEmpty ? [PlanSource(file: "-", label: entry.reasonCode)] : entry.sources
          for source in sources {
            try provenance.execute(arguments: [
              key, entity.kind.rawValue, runID, source.file, source.itemIndex, source.label, action.rawValue,
            ])
          }
        }
        summary.sectionsWritten = try Self.mergeUnknownSections(options.unknownSections, db: db)
        summary.finishedAt = options.now()
        try db.execute(
          sql: "UPDATE runs SET finished_at = ?, summary = ? WHERE id = ?",
          arguments: [Self.timestamp(summary.finishedAt), try Self.json(summary), runID])
        return summary
      }
    } catch let error as CacheStoreError {
      throw error
    } catch {
      throw CacheStoreError(
        .database, "the run was rolled back (\(Self.describe(error)))",
        at: SourceLocation(file: path))
    }
  }

  /// Adds or replaces unknown top-level sections by name; returns how many changed.
  private static func mergeUnknownSections(_ sections: JSONObject, db: Database) throws -> Int {
    var written = 0
    for member in sections {
      let text = JSONText.compact(member.value)
      let current = try String.fetchOne(db, sql: "SELECT value FROM unknown_sections WHERE name = ?", arguments: [member.key])
      if current == text { continue }
      if current == nil {
        let position = try Int.fetchOne(db, sql: "SELECT COALESCE(MAX(position), -1) + 1 FROM unknown_sections") ?? 0
        try db.execute(
          sql: "INSERT INTO unknown_sections (name, position, value) VALUES (?, ?, ?)",
          arguments: [member.key, position, text])
      } else {
        try db.execute(sql: "UPDATE unknown_sections SET value = ? WHERE name = ?", arguments: [text, member.key])
      }
      written += 1
    }
    return written
  }

  static func plannedCounts(_ plan: MigrationPlan) -> [String: [String: Int]] {
    var counts: [String: [String: Int]] = [:]
    for entry in plan.entries {
      counts[entry.action.rawValue, default: [:]][entry.kind?.rawValue ?? "none", default: 0] += 1
    }
    return counts
  }

  static func timestamp(_ date: Date) -> String {
    Date.ISO8601FormatStyle(includingFractionalSeconds: true).format(date)
  }

  static func json(_ value: some Encodable) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    encoder.dateEncodingStrategy = .iso8601
    return String(decoding: try encoder.encode(value), as: UTF8.self)
  }
}
