import Adal2MSALSupport
import Foundation
import UnifiedCache

extension MigrationReport {
  /// The report as JSON (schema: docs/report-schema.json, `schemaVersion` 1): members in a fixed order,
  /// 2-space indentation, a final newline.
  public func json() -> String { rendered(.json).text }

  /// Opens the report's object and writes its members up to the user sections' array, which it opens.
  func jsonOpening(into out: inout JSONWriter) {
    // Written straight to bytes, without a `JSONValue` tree: a 100,000-item plan makes a 200 MB report.
    out.beginObject()
    out.key("schemaVersion")
    out.number(Self.schemaVersion)
    out.member("plannedAt", ReportDate.string(plannedAt))
    out.key("redacted")
    out.bool(redacted)
    if let targetLibrary { out.member("targetLibrary", targetLibrary.rawValue) }
    out.key("inputs")
    out.value(.array(inputs.map(Self.json)))
    out.key("summary")
    out.value(summaryJSON())
    out.key("users")
    out.beginArray()
  }

  /// The level user sections and other entries are written at (both are elements of a member's array).
  static let jsonElementLevel: Int = {
    var out = JSONWriter(indent: 2)
    out.beginObject()
    out.key("users")
    out.beginArray()
    return out.depth
  }()

  /// A user's section, written at `jsonElementLevel` (JSON has no "Skipped and conflicts" list).
  static func jsonPiece(of user: borrowing UserSection) -> ReportPiece {
    var part = JSONWriter(indent: 2, level: Self.jsonElementLevel)
    // About 1,550 bytes an entry: sized up front, a section's buffer was copied as it grew.
    part.reserveCapacity(1024 + 1600 * user.entries.count)
    Self.write(user, to: &part)
    return ReportPiece(body: part.bytes, attention: [], attentionCount: 0)
  }

  /// "Other entries"' entry `index`, written at `jsonElementLevel`.
  func jsonPiece(ofOther index: Int) -> ReportPiece {
    var part = JSONWriter(indent: 2, level: Self.jsonElementLevel)
    Self.write(otherEntries[index], to: &part)
    return ReportPiece(body: part.bytes, attention: [], attentionCount: 0)
  }

  /// Closes the other entries' array, writes the diagnostics and closes the report.
  static func jsonClosing(_ diagnostics: [Diagnostic], into out: inout JSONWriter) {
    out.endArray()
    out.key("diagnostics")
    out.value(.array(diagnostics.map(Self.json)))
    out.endObject()
    out.finalNewline()
  }

  /// Writes what `writer` holds to `output` and forgets it; the writer goes on where it was.
  static func flush(_ writer: inout JSONWriter, to output: (UnsafeRawBufferPointer) throws -> Void) rethrows {
    for part in writer.takeText() { try part.withUnsafeBytes(output) }
  }

  private func summaryJSON() -> JSONValue {
    func counts(_ table: [PlanAction: Int]) -> JSONValue {
      .object(JSONObject(PlanAction.allCases.map { JSONMember($0.rawValue, .number(String(table[$0] ?? 0))) }))
    }
    var kinds = JSONObject()
    for kind in UnifiedEntityKind.allCases.sorted(by: { $0.planOrder < $1.planOrder }) {
      kinds[kind.rawValue] = counts(kindCounts[kind] ?? [:])
    }
    kinds["none"] = counts(kindCounts[nil] ?? [:])
    return .object([
      "total": .number(String(actionCounts.values.reduce(0, +))), "actions": counts(actionCounts),
      "kinds": .object(kinds),
    ])
  }

  private static func string(_ text: String?) -> JSONValue { text.map(JSONValue.string) ?? .null }

  private static func json(_ input: PlanInput) -> JSONValue {
    .object([
      "path": .string(input.path), "role": .string(input.role.rawValue), "sha256": .string(input.sha256),
      "byteCount": .number(String(input.byteCount)), "detectedFormat": .string(input.detectedFormat),
    ])
  }

  private static func write(_ user: borrowing UserSection, to out: inout JSONWriter) {
    out.beginObject()
    out.member("username", user.username)
    out.key("otherUsernames")
    strings(user.otherUsernames, to: &out)
    out.member("homeAccountId", user.homeAccountID)
    out.member("cloud", user.cloud)
    out.member("status", user.status.rawValue)
    out.member("rule", user.rule?.rawValue)
    out.member("reasonCode", user.reasonCode)
    out.member("reason", user.reason)
    out.key("candidates")
    strings(user.candidates, to: &out)
    out.key("entries")
    out.beginArray()
    // By index: binding each entry to a local copies all its fields.
    for index in user.entries.indices { write(user.entries[index], to: &out) }
    out.endArray()
    out.endObject()
  }

  private static func strings(_ list: [String], to out: inout JSONWriter) {
    out.beginArray()
    for text in list { out.string(text) }
    out.endArray()
  }

  private static func write(_ entry: borrowing Entry, to out: inout JSONWriter) {
    out.beginObject()
    out.member("action", entry.action.rawValue)
    out.member("kind", entry.kind?.rawValue)
    out.member("key", entry.key)
    out.member("reasonCode", entry.reasonCode)
    out.member("reason", entry.reason)
    out.member("rule", entry.rule?.rawValue)
    out.member("username", entry.username)
    out.member("homeAccountId", entry.homeAccountID)
    out.key("sources")
    out.beginArray()
    for source in entry.sources {
      out.beginObject()
      out.member("file", source.file)
      out.key("itemIndex")
      if let index = source.itemIndex { out.number(index) } else { out.null() }
      out.member("label", source.label)
      out.endObject()
    }
    out.endArray()
    out.key("entity")
    fields(of: entry, existing: false, to: &out)
    out.key("existing")
    fields(of: entry, existing: true, to: &out)
    out.endObject()
  }

  /// The entry's fields as an object of strings, or null when there are none; written as they are made (a
  /// list of them was an allocation per entry).
  private static func fields(of entry: borrowing Entry, existing: Bool, to out: inout JSONWriter) {
    var opened = false
    entry.forEachField(existing: existing) { name, value in
      if !opened { out.beginObject() }
      opened = true
      out.member(name, value)
    }
    if opened { out.endObject() } else { out.null() }
  }

  private static func json(_ diagnostic: Diagnostic) -> JSONValue {
    var location: JSONValue = .null
    if let place = diagnostic.location {
      func number(_ value: Int?) -> JSONValue { value.map { .number(String($0)) } ?? .null }
      location = .object([
        "file": string(place.file), "itemIndex": number(place.itemIndex), "byteOffset": number(place.byteOffset),
        "line": number(place.line), "column": number(place.column), "keyPath": string(place.keyPath),
      ])
    }
    return .object([
      "severity": .string(diagnostic.severity.rawValue), "code": .string(diagnostic.code),
      "message": .string(diagnostic.message), "location": location,
    ])
  }
}
