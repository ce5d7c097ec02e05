import Adal2MSALSupport

/// Entries of a known section (`AccessToken`, `Account`, ...) that the reader cannot model: an empty `secret`,
/// a missing field, a value that is not an object. MSAL Python, Java and Go keep such entries, so adal2msal does
/// too: they ride in `UnifiedCacheContents.unknownSections` under their section's name, are stored, counted and
/// named (`unified.unmodelled-entry`), and are written back verbatim beside the modelled entries.
public enum UnmodelledEntries {
  /// `kept` added to `section`; an entry already there under the same key wins (a modelled entry is never
  /// replaced by a verbatim one).
  public static func merge(_ kept: JSONObject, into section: JSONObject) -> JSONObject {
    var result = section
    for member in kept where result[member.key] == nil { result[member.key] = member.value }
    return result
  }

  /// Whether an unknown-section name is one of the five known sections (its value then holds unmodelled entries).
  public static func isKnownSection(_ name: String) -> Bool { UnifiedEntityKind(rawValue: name) != nil }

  /// A warning (`unified.unmodelled-entry`) naming each credential in an unknown top-level section of `sections`
  /// (MSAL Go's partitioned cache nests them one level deeper): kept verbatim and written back, but not migrated,
  /// so counted, and the run's verdict partial. Other data in unknown sections (MSAL.NET's unknown nodes, an app's
  /// own section) is no token: kept and written back, it counts for nothing.
  public static func credentialsInUnknownSections(_ sections: JSONObject, file: String?) -> [Diagnostic] {
    let what =
      "a credential in a section adal2msal does not model, kept verbatim and written back by export, "
      + "not stored as an entity"
    var diagnostics: [Diagnostic] = []
    func name(_ path: String) {
      diagnostics.append(
        Diagnostic(.warning, code: "unified.unmodelled-entry", what, at: SourceLocation(file: file, keyPath: path)))
    }
    for section in sections where !isKnownSection(section.key) {
      guard case .object(let members) = section.value else { continue }
      for member in members {
        guard case .object(let object) = member.value else { continue }
        if isCredential(object) {
          name("\(section.key).\(member.key)")
          continue
        }
        for inner in object {
          if case .object(let entry) = inner.value, isCredential(entry) {
            name("\(section.key).\(member.key).\(inner.key)")
          }
        }
      }
    }
    return diagnostics
  }

  /// An object with a `secret` or a `credential_type`: a token, whatever section it sits in.
  private static func isCredential(_ object: JSONObject) -> Bool {
    object["secret"] != nil || object["credential_type"] != nil
  }

  /// How many unmodelled entries `sections` holds.
  public static func count(in sections: JSONObject) -> Int {
    sections.reduce(0) { total, member in
      isKnownSection(member.key) ? total + (member.value.objectValue?.count ?? 0) : total
    }
  }
}

extension JSONObject {
  /// Adds another input's unknown sections to these: unmodelled entries of a known section join the ones already
  /// kept; any other section replaces the one of the same name (the last input wins, as before).
  public mutating func mergeUnknownSections(_ other: JSONObject) {
    for member in other {
      if UnmodelledEntries.isKnownSection(member.key), let entries = member.value.objectValue,
        let current = self[member.key]?.objectValue
      {
        self[member.key] = .object(UnmodelledEntries.merge(entries, into: current))
      } else {
        self[member.key] = member.value
      }
    }
  }
}
