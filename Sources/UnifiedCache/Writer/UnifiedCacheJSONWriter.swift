import Adal2MSALSupport
import Foundation

/// Writes `UnifiedCacheContents` as a unified cache JSON file that the MSAL libraries load.
///
/// The five sections always (as MSAL.NET), then the unknown sections as they were read; 4-space indentation,
/// UTF-8 without a byte-order mark, a final newline. For a target library every entry is keyed and spelled as
/// that library computes and reads it (`LibraryKeys`, `FieldSpelling`); without one, each entry keeps the key
/// and spellings it was read with, and an entity made here (from ADAL items) gets its canonical key.
public enum UnifiedCacheJSONWriter {
  public static func write(_ contents: UnifiedCacheContents, for library: MSALLibrary? = nil) -> Data {
    export(contents, for: library).data
  }

  public static func export(_ contents: UnifiedCacheContents, for library: MSALLibrary? = nil) -> CacheExport {
    let (root, diagnostics) = jsonObject(contents, for: library)
    var writer = JSONWriter(indent: 4)
    writer.value(.object(root))
    writer.finalNewline()
    return CacheExport(data: Data(writer.bytes), diagnostics: diagnostics)
  }

  /// The whole cache as an ordered JSON object, and the entries left out.
  public static func jsonObject(
    _ contents: UnifiedCacheContents, for library: MSALLibrary? = nil
  ) -> (JSONObject, [Diagnostic]) {
    var sections = SectionBuilder(library: library)
    var root = JSONObject()
    root[UnifiedEntityKind.accessToken.sectionName] = sections.section(
      contents.accessTokens.map(AnyUnifiedEntity.accessToken))
    root[UnifiedEntityKind.refreshToken.sectionName] = sections.section(
      contents.refreshTokens.map(AnyUnifiedEntity.refreshToken))
    root[UnifiedEntityKind.idToken.sectionName] = sections.section(contents.idTokens.map(AnyUnifiedEntity.idToken))
    root[UnifiedEntityKind.account.sectionName] = sections.section(contents.accounts.map(AnyUnifiedEntity.account))
    root[UnifiedEntityKind.appMetadata.sectionName] = sections.section(
      contents.appMetadata.map(AnyUnifiedEntity.appMetadata))
    for member in contents.unknownSections {
      if let kind = UnifiedEntityKind(rawValue: member.key), case .object(let kept) = member.value {
        // Entries of a known section that the reader could not model, kept verbatim (see UnmodelledEntries).
        root[kind.sectionName] = .object(
          UnmodelledEntries.merge(kept, into: root[kind.sectionName]?.objectValue ?? [:]))
      } else if root[member.key] == nil {
        root[member.key] = member.value
      }
    }
    return (root, sections.diagnostics)
  }
}

/// Builds one section's entries under the target library's keys (or the keys they were read with), and decides
/// between entries that would share a key.
private struct SectionBuilder {
  let library: MSALLibrary?
  var diagnostics: [Diagnostic] = []

  mutating func section(_ entities: [AnyUnifiedEntity]) -> JSONValue {
    var keys: [String] = []
    var chosen: [String: AnyUnifiedEntity] = [:]
    for read in entities {
      let entity = library?.stored(read) ?? read
      var key = library.map { LibraryKeys.key(for: entity, in: $0) } ?? entity.writtenForm.key ?? entity.canonicalKey
      if library == nil, chosen[key] != nil { key = entity.canonicalKey }
      guard let previous = chosen[key] else {
        keys.append(key)
        chosen[key] = entity
        continue
      }
      let keepNew = Self.prefers(entity, over: previous)
      let (kept, left) = keepNew ? (entity, previous) : (previous, entity)
      if keepNew { chosen[key] = entity }
      diagnostics.append(sameKey(key, kept: kept, left: left))
    }
    return .object(
      JSONObject(
        keys.compactMap { key in
          chosen[key].map { JSONMember(key, .object(UnifiedEntityJSON.object(for: $0, library: library))) }
        }))
  }

  /// Of two refresh tokens MSAL Python keys alike (an app's own and the family token it received), the family
  /// token, which every app of the family can redeem; otherwise the first in canonical order.
  private static func prefers(_ candidate: AnyUnifiedEntity, over current: AnyUnifiedEntity) -> Bool {
    if case .refreshToken(let new) = candidate, case .refreshToken(let old) = current {
      return new.isFamilyToken && !old.isFamilyToken
    }
    return false
  }

  /// A warning that names what was left out; a note when nothing was: ADAL stores the family refresh token and the
  /// app's own as one token, and the family token written under the app's key is the token the app would redeem.
  private func sameKey(_ key: String, kept: AnyUnifiedEntity, left: AnyUnifiedEntity) -> Diagnostic {
    let name = library?.displayName ?? "the file"
    let place = SourceLocation(keyPath: "\(kept.kind.sectionName).\(key)")
    if case .refreshToken(let family) = kept, case .refreshToken(let own) = left, family.isFamilyToken,
      family.secret == own.secret
    {
      return Diagnostic(
        .note, code: "export.same-token",
        "\(name) keys the family and the app refresh token alike ('\(key)'), and both are one token "
          + "(\(family.secret.fingerprint)): wrote it once, as the family refresh token", at: place)
    }
    return Diagnostic(
      .warning, code: CacheExport.leftOutCode,
      "\(name) keys two \(kept.kind.rawValue) entries alike ('\(key)'): wrote \(Self.label(kept)) and left out "
        + "\(Self.label(left))", at: place)
  }

  private static func label(_ entity: AnyUnifiedEntity) -> String {
    switch entity {
    case .refreshToken(let token):
      (token.isFamilyToken ? "the family refresh token" : "the app refresh token") + " (\(token.secret.fingerprint))"
    case .accessToken(let token): "the access token \(token.secret.fingerprint)"
    case .idToken(let token): "the id token \(token.secret.fingerprint)"
    default: "'\(entity.canonicalKey)'"
    }
  }
}
