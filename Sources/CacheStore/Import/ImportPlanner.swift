import Adal2MSALSupport
import Foundation
import MigrationEngine
import UnifiedCache

/// The plan of `adal2msal import`: every entity of one or more unified-cache JSON files is `add`, `update` or
/// `unchanged` against what the store holds, and unknown top-level sections are carried along.
///
/// Deliberately small: no identity resolution and no conflicts (the file is the truth for its keys). The
/// migration engine's planner takes over MSAL inputs in `migrate`; this is the plain "load this cache" path.
public struct ImportPlan: Sendable {
  public var plan: MigrationPlan
  /// Top-level sections of the files that the model does not know, later files winning by name.
  public var unknownSections: JSONObject
  /// What the reader reported about entries it skipped.
  public var diagnostics: [Diagnostic]

  /// Plans importing `files` (path, bytes and what `UnifiedCacheJSONReader` read from them) into a store that
  /// currently holds `existing`.
  public static func make(
    files: [(path: String, data: Data, cache: UnifiedCacheReadResult)], existing: UnifiedCacheContents,
    plannedAt: Date = Date()
  ) -> ImportPlan {
    var incoming: [String: (entity: AnyUnifiedEntity, sources: [PlanSource])] = [:]
    var unknown = JSONObject()
    var diagnostics: [Diagnostic] = []
    var inputs: [PlanInput] = []
    for file in files {
      let result = file.cache
      diagnostics += result.diagnostics
      inputs.append(
        PlanInput(
          path: file.path, role: .msal, sha256: SecretFingerprint.sha256Hex(file.data), byteCount: file.data.count,
          detectedFormat: "msal-json"))
      for (index, entity) in result.contents.allEntities.enumerated() {
        let source = PlanSource(file: file.path, itemIndex: index, label: "MSAL \(entity.kind.rawValue)")
        let key = entity.canonicalKey
        if let seen = incoming[key], seen.entity == entity {
          incoming[key]?.sources.append(source)
        } else {
          if let seen = incoming[key] {
            diagnostics.append(Self.replaced(seen.entity, from: seen.sources, by: file.path))
          }
          incoming[key] = (entity, [source])
        }
      }
      unknown.mergeUnknownSections(result.contents.unknownSections)
    }
    let entries = incoming.values.map { item in
      let current = existing[item.entity.kind, item.entity.canonicalKey]
      let action: PlanAction = current == nil ? .add : (current == item.entity ? .unchanged : .update)
      return PlanEntry(
        action: action, entity: item.entity, existing: current, reasonCode: "import.\(action.rawValue)",
        reason: Self.reason(action), sources: item.sources, identityRule: .unifiedInput,
        homeAccountID: item.entity.homeAccountID)
    }.sorted { ($0.kind?.rawValue ?? "", $0.canonicalKey ?? "") < ($1.kind?.rawValue ?? "", $1.canonicalKey ?? "") }
    return ImportPlan(
      plan: MigrationPlan(entries: entries, diagnostics: diagnostics, inputs: inputs, plannedAt: plannedAt),
      unknownSections: unknown, diagnostics: diagnostics)
  }

  /// The code of the note that names an entity a later file replaced (the later file wins for its key): the
  /// earlier one is merged into it, as a migration counts an entry that lost to the one kept for its key.
  public static let replacedCode = "import.replaced-by-later-file"

  private static func replaced(_ earlier: AnyUnifiedEntity, from sources: [PlanSource], by file: String) -> Diagnostic {
    let token = earlier.secret.map { " (\($0.fingerprint))" } ?? ""
    return Diagnostic(
      .note, code: replacedCode,
      "the \(earlier.kind.rawValue)\(token) under '\(earlier.canonicalKey)' is replaced by the one of \(file), which "
        + "differs: a later file wins for its key",
      at: SourceLocation(file: sources.first?.file, keyPath: "\(earlier.kind.sectionName)"))
  }

  private static func reason(_ action: PlanAction) -> String {
    switch action {
    case .add: "not in the store"
    case .update: "the store holds other fields under this key"
    default: "the store already holds exactly this entity"
    }
  }
}
