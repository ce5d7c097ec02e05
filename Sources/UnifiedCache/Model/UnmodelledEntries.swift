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

extension UnmodelledEntries {
  /// A section's value read later (`later`) joined with the one kept before (`earlier`), so that nothing kept is
  /// dropped: unmodelled entries of a known section join the ones kept (an entry kept under a key wins,
  /// `merge(_:into:)`); an unknown section that is an object on both sides keeps every member, a member of the same
  /// key taking the later value (an app's own data, as its app last wrote it); any other value is the later one.
  public static func joined(_ later: JSONValue, over earlier: JSONValue?, section name: String) -> JSONValue {
    guard let earlier = earlier?.objectValue, let members = later.objectValue else { return later }
    if isKnownSection(name) { return .object(merge(members, into: earlier)) }
    var result = earlier
    for member in members { result[member.key] = member.value }
    return .object(result)
  }
}

extension JSONObject {
  /// Adds another input's unknown sections to these, each joined with the one of the same name
  /// (`UnmodelledEntries.joined(_:over:section:)`).
  public mutating func mergeUnknownSections(_ other: JSONObject) {
    for member in other {
      self[member.key] = UnmodelledEntries.joined(member.value, over: self[member.key], section: member.key)
    }
  }
}
