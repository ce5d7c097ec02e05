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
  public func apply(_ plan: MigrationPlan, options: ApplyOptions = ApplyOptions()) throws(CacheStoreError)
    -> AppliedRunSummary
  {
    do {
      return try applyInParts(plannedAt: plan.plannedAt, inputs: plan.inputs, options: options) { try $0.write(plan) }
    } catch let error as CacheStoreError {
      throw error
    } catch {
      throw Self.failure(.database, "the run was rolled back", error, on: queue, at: SourceLocation(file: path))
    }
  }

  /// Applies a run planned in parts (`PlanningSession`), in ONE immediate transaction like `apply` (a new store's
  /// first with the rollback journal, `FirstRunJournal`): `body` writes each part's plan with `PlanWriter.write`
  /// as it is planned, so that no more than a part is held.
  /// The run row records `inputs` and the counts of every part. When `body` throws, everything is rolled back
  /// and its error is rethrown as it is (a database failure is a `CacheStoreError`).
  @discardableResult
  public func applyInParts(
    plannedAt: Date, inputs: [PlanInput], options: ApplyOptions = ApplyOptions(),
    _ body: (inout PlanWriter) throws -> Void
  ) throws -> AppliedRunSummary {
    let codec = self.codec
    let firstRun = isNew && FirstRunJournal.enter(queue)
    defer { if firstRun { FirstRunJournal.leave(queue, timeout: busyTimeout) } }
    do {
      return try withoutForeignKeys {
        try queue.immediateTransaction(commitsRun: !isStaged) { db in
          try db.execute(
            sql: """
              INSERT INTO runs (started_at, finished_at, planned_at, tool_version, inputs, options, summary)
              VALUES (?, '', ?, ?, ?, ?, '{}')
              """,
            arguments: [
              Self.timestamp(options.startedAt), Self.timestamp(plannedAt), ToolVersion.current,
              Self.json(inputs.sorted { ($0.path, $0.role.rawValue) < ($1.path, $1.role.rawValue) }),
              RowCodec.jsonText(options.recordedOptions),
            ])
          // A store sealed by an earlier version gets the rest of its input sealed in the run's transaction.
          if codec.sealing != nil { try Self.sealClearFields(db, codec: codec) }
          var writer = try PlanWriter(
            db: db, codec: codec, runID: db.lastInsertedRowID, startedAt: options.startedAt, firstRun: firstRun)
          // A first run writes the whole store into the database file: synced on the way (`DatabaseFlushAhead`).
          let flushes = firstRun ? DatabaseFlushAhead(db) : nil
          defer { try? flushes?.finish() }
          do {
            try body(&writer)
          } catch let error as DatabaseError {
            throw error
          } catch {
            throw PartFailure(error: error)
          }
          try writer.finish()
          try flushes?.finish()
          var summary = writer.summary
          summary.sectionsWritten = try Self.mergeUnknownSections(options.unknownSections, db: db, codec: codec)
          summary.finishedAt = options.now()
          try db.execute(
            sql: "UPDATE runs SET finished_at = ?, summary = ? WHERE id = ?",
            arguments: [Self.timestamp(summary.finishedAt), Self.json(summary), summary.runID])
          InterruptCleanup.willCommit("run \(summary.runID) was written to \(path)")
          return summary
        }
      }
    } catch let failure as PartFailure {
      throw failure.error
    } catch let error as CacheStoreError {
      throw error
    } catch {
      throw Self.failure(.database, "the run was rolled back", error, on: queue, at: SourceLocation(file: path))
    }
  }

  /// Runs `body` with SQLite's foreign key checks off, and on again after it. The schema's one foreign key
  /// (`provenance.run_id`) names the run row that the transaction inserts first; with the checks on, every batch
  /// of provenance rows would need a statement journal (`BoundStatement.run(rows:)`) and look the run row up
  /// again for every row. (`PRAGMA foreign_keys` takes effect outside a transaction only.)
  private func withoutForeignKeys<T>(_ body: () throws -> T) throws -> T {
    try queue.writeWithoutTransaction { try $0.execute(sql: "PRAGMA foreign_keys = OFF") }
    defer { try? queue.writeWithoutTransaction { try $0.execute(sql: "PRAGMA foreign_keys = ON") } }
    return try body()
  }

  /// An error of `applyInParts`' caller, carried out of the transaction unchanged.
  private struct PartFailure: Error {
    var error: any Error
  }

  /// Writes the plans of one run inside its transaction (`applyInParts`).
  public struct PlanWriter {
    private let writer: RowWriter
    private var provenance: ProvenanceWriter
    /// What the run did so far.
    public private(set) var summary: AppliedRunSummary
    /// Whether the run is a new store's first (`FirstRunJournal`), whose page cache grows with its rows.
    private let firstRun: Bool
    /// Entries of the parts written so far: the most rows the run can have written.
    private var entriesGiven = 0

    fileprivate init(db: Database, codec: RowCodec, runID: Int64, startedAt: Date, firstRun: Bool) throws {
      self.firstRun = firstRun
      writer = try RowWriter(db: db, codec: codec)
      provenance = try ProvenanceWriter(db: db)
      summary = AppliedRunSummary(
        runID: runID, startedAt: startedAt, finishedAt: startedAt, planned: [:], rowsInserted: 0, rowsUpdated: 0,
        rowsAlreadyCurrent: 0, sectionsWritten: 0)
    }

    /// The connection's page cache, in KiB (`PRAGMA cache_size`, which the store always sets in KiB, negated).
    var pageCacheKilobytes: Int {
      get throws { -(try Int.fetchOne(writer.db, sql: "PRAGMA cache_size") ?? 0) }
    }

    /// Writes the rows still waiting for a full batch (`RowWriter`, `ProvenanceWriter`): the end of the run.
    fileprivate mutating func finish() throws {
      try writer.finish()
      try provenance.finish()
    }

    /// Writes every `add` and `update` entry of `plan` (one part of the run) with its provenance.
    public mutating func write(_ plan: MigrationPlan) throws {
      let runID = summary.runID
      // A handful of distinct tallies: a list, where a dictionary hashed every entry's.
      var planned: [(tally: PlannedKind, count: Int)] = []
      let entries = plan.entries
      entriesGiven += entries.count
      if firstRun { try FirstRunJournal.sizeCache(writer.db, forRows: entriesGiven) }
      // The entries' rows prepared on another core, a few chunks ahead of the writes (`RowPreparation`).
      let preparation = RowPreparation(codec: writer.codec)
      provenance.forgetLearned()
      let prepared = ChunksAhead(
        count: entries.count, chunkSize: RowPreparation.chunkSize, window: RowPreparation.window
      ) { range in preparation.prepare(entries, range) }
      defer { prepared.stop() }
      // Entries read in place, through a pointer to each: the buffer's subscript copied the whole entry (its
      // strings, boxes and sources retained and released) for every field read, and so did a closure.
      try entries.withUnsafeBufferPointer { entries in
        guard let first = entries.baseAddress else { return }
        while let (range, chunk) = prepared.next() {
          try provenance.learn(files: chunk.newFiles, labels: chunk.newLabels)
          for position in range {
            let entry = first + position
            let tally = PlannedKind(action: entry.pointee.action, kind: entry.pointee.kind)
            if let known = planned.firstIndex(where: { $0.tally == tally }) {
              planned[known].count += 1
            } else {
              planned.append((tally, 1))
            }
            if tally.action.writes { try write(entry, chunk, at: position - range.lowerBound, runID: runID) }
          }
          preparation.recycle(chunk.rows)
        }
      }
      for (tally, count) in planned {
        summary.planned[tally.action.rawValue, default: [:]][tally.kind?.rawValue ?? "none", default: 0] += count
      }
    }

    /// What `summary.planned` counts entries by: their action and entity kind (none for a skipped item).
    private struct PlannedKind: Hashable {
      var action: PlanAction
      var kind: UnifiedEntityKind?
    }

    /// Writes one `add` or `update` entry, the entry `position` of the prepared `chunk`, and its provenance.
    private mutating func write(
      _ entry: UnsafePointer<PlanEntry>, _ chunk: RowPreparation.Chunk, at position: Int, runID: Int64
    ) throws {
      if !chunk.failures.isEmpty, let failure = chunk.failures[position] { throw failure }
      let slot = chunk.slots[position]
      guard let row = slot.row, let kind = slot.kind else { return }
      let written = try writer.upsert(row, of: chunk.rows, kind: kind, keyHash: slot.keyHash, entry: entry)
      let action: PlanAction
      switch written.outcome {
      case .current:
        summary.rowsAlreadyCurrent += 1
        return
      case .inserted:
        summary.rowsInserted += 1
        action = .add
      case .updated:
        summary.rowsUpdated += 1
        action = .update
      }
      try provenance.record(
        tableCode: written.tableCode, rowID: written.rowID, runID: runID, action: action.rawValue,
        sources: chunk.sources[slot.sources])
    }
  }

  /// Adds each unknown top-level section, or joins it with the one stored under its name
  /// (`UnmodelledEntries.joined(_:over:section:)`); returns how many changed.
  private static func mergeUnknownSections(_ sections: JSONObject, db: Database, codec: RowCodec) throws -> Int {
    var written = 0
    for member in sections {
      let stored = try DatabaseValue.fetchOne(
        db, sql: "SELECT value FROM unknown_sections WHERE name = ?", arguments: [member.key])
      var current: String?
      if let stored { current = try codec.fieldText(stored, column: "unknown_sections.value", rowKey: member.key) }
      // This run's section joins what an earlier run kept: the store never loses a member of it.
      let value = UnmodelledEntries.joined(
        member.value, over: current.flatMap { try? JSONParser().parse(Data($0.utf8)) }, section: member.key)
      let text = JSONText.compact(value)
      if current == text { continue }
      let sealed = try codec.fieldValue(text, column: "unknown_sections.value", rowKey: member.key)
      if current == nil {
        let position = try Int.fetchOne(db, sql: "SELECT COALESCE(MAX(position), -1) + 1 FROM unknown_sections") ?? 0
        try db.execute(
          sql: "INSERT INTO unknown_sections (name, position, value) VALUES (?, ?, ?)",
          arguments: [member.key, position, sealed])
      } else {
        try db.execute(sql: "UPDATE unknown_sections SET value = ? WHERE name = ?", arguments: [sealed, member.key])
      }
      written += 1
    }
    return written
  }

  /// Seals what a store sealed by an earlier version (`CacheStore.clearFieldsEncryptionScheme`) keeps in clear:
  /// every `additional_fields` and `written_form` of the entity tables and every `unknown_sections.value`, each
  /// under the key it is read with (`RowCodec.fieldsKey(of:)`, a row's stored key first), and records the
  /// current scheme. Nothing when the store records the current one already (another run sealed it). The old
  /// text is overwritten with zeros where it was (`secure_delete`), not only left on free space.
  static func sealClearFields(_ db: Database, codec: RowCodec) throws {
    let scheme = try String.fetchOne(db, sql: "SELECT value FROM settings WHERE name = 'encryption'")
    guard scheme == CacheStore.clearFieldsEncryptionScheme else { return }
    var reader = codec
    reader.clearFieldsAllowed = true
    try db.execute(sql: "PRAGMA secure_delete = ON")
    defer { try? db.execute(sql: "PRAGMA secure_delete = OFF") }
    for table in [StoreTable.accounts, .credentials, .appMetadata] {
      let rows = try Row.fetchAll(db, sql: "SELECT * FROM \(table.name) ORDER BY id")
      for row in rows {
        let id: Int64 = row["id"]
        let entity = try table.entity(from: row, codec: reader)
        let key = String.fromDatabaseValue(row["key"]) ?? RowCodec.fieldsKey(of: entity)
        var values: [DatabaseValue] = []
        for column in ["additional_fields", "written_form"] {
          let value: DatabaseValue = row[column]
          guard case .string(let text) = value.storage, !RowCodec.isEmptyField(text, column: column) else {
            values.append(value)
            continue
          }
          values.append(try codec.fieldValue(text, column: column, rowKey: key))
        }
        try db.execute(
          sql: "UPDATE \(table.name) SET additional_fields = ?, written_form = ? WHERE id = ?",
          arguments: [values[0], values[1], id])
      }
    }
    for row in try Row.fetchAll(db, sql: "SELECT name, value FROM unknown_sections") {
      guard let name = String.fromDatabaseValue(row["name"]),
        case .string(let text) = (row["value"] as DatabaseValue).storage
      else { continue }
      try db.execute(
        sql: "UPDATE unknown_sections SET value = ? WHERE name = ?",
        arguments: [try codec.fieldValue(text, column: "unknown_sections.value", rowKey: name), name])
    }
    try db.execute(
      sql: "UPDATE settings SET value = ? WHERE name = 'encryption'", arguments: [CacheStore.encryptionScheme])
  }

  static func timestamp(_ date: Date) -> String {
    Date.ISO8601FormatStyle(includingFractionalSeconds: true).format(date)
  }

  /// The run row's `inputs`: each input with its digest, on one line, keys sorted.
  static func json(_ inputs: [PlanInput]) -> String {
    JSONText.compact(
      .array(
        inputs.map { input in
          .sortedObject([
            ("path", .string(input.path)), ("role", .string(input.role.rawValue)), ("sha256", .string(input.sha256)),
            ("byteCount", .number(String(input.byteCount))), ("detectedFormat", .string(input.detectedFormat)),
          ])
        }))
  }

  /// The run row's `summary`: what was planned and written, on one line, keys sorted, times to the second.
  static func json(_ summary: AppliedRunSummary) -> String {
    func number(_ value: some BinaryInteger) -> JSONValue { .number(String(value)) }
    let planned = summary.planned.map { action, kinds in
      (action, Optional(JSONValue.sortedObject(kinds.map { ($0.key, Optional(number($0.value))) })))
    }
    return JSONText.compact(
      .sortedObject([
        ("runID", number(summary.runID)), ("startedAt", .string(summary.startedAt.formatted(.iso8601))),
        ("finishedAt", .string(summary.finishedAt.formatted(.iso8601))), ("planned", .sortedObject(planned)),
        ("rowsInserted", number(summary.rowsInserted)), ("rowsUpdated", number(summary.rowsUpdated)),
        ("rowsAlreadyCurrent", number(summary.rowsAlreadyCurrent)),
        ("sectionsWritten", number(summary.sectionsWritten)),
      ]))
  }
}
