import Adal2MSALSupport
import Foundation
import UnifiedCache

extension MigrationReport {
  /// The report as JSON (schema: docs/report-schema.json, `schemaVersion` 1): members in a fixed order,
  /// 2-space indentation, a final newline.
  public func json() -> String {
    var root = JSONObject()
    root["schemaVersion"] = .number(String(Self.schemaVersion))
    root["plannedAt"] = .string(ReportDate.string(plannedAt))
    root["redacted"] = .bool(redacted)
    root["inputs"] = .array(inputs.map(Self.json))
    root["summary"] = summaryJSON()
    root["users"] = .array(users.map(Self.json))
    root["otherEntries"] = .array(otherEntries.map(Self.json))
    root["diagnostics"] = .array(diagnostics.map(Self.json))
    return JSONText.pretty(.object(root), indent: 2) + "\n"
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

  private static func json(_ user: UserSection) -> JSONValue {
    .object([
      "username": string(user.username), "otherUsernames": .array(user.otherUsernames.map(JSONValue.string)),
      "homeAccountId": string(user.homeAccountID), "cloud": .string(user.cloud),
      "status": .string(user.status.rawValue), "rule": string(user.rule?.rawValue),
      "reasonCode": .string(user.reasonCode), "reason": .string(user.reason),
      "candidates": .array(user.candidates.map(JSONValue.string)), "entries": .array(user.entries.map(json)),
    ])
  }

  private static func json(_ entry: Entry) -> JSONValue {
    func fields(_ list: [(name: String, value: String)]) -> JSONValue {
      list.isEmpty ? .null : .object(JSONObject(list.map { JSONMember($0.name, .string($0.value)) }))
    }
    return .object([
      "action": .string(entry.action.rawValue), "kind": string(entry.kind?.rawValue), "key": string(entry.key),
      "reasonCode": .string(entry.reasonCode), "reason": .string(entry.reason),
      "rule": string(entry.rule?.rawValue), "username": string(entry.username),
      "homeAccountId": string(entry.homeAccountID),
      "sources": .array(
        entry.sources.map { source in
          .object([
            "file": .string(source.file), "itemIndex": source.itemIndex.map { .number(String($0)) } ?? .null,
            "label": .string(source.label),
          ])
        }),
      "entity": fields(entry.fields), "existing": fields(entry.existingFields),
    ])
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
