import Adal2MSALSupport
import Foundation

/// What `adal2msal inspect` shows for a unified cache: one line per entity, or the cache as the writer would
/// write it; `secret` values as fingerprints, and the fields and sections this tool does not model by name and
/// size, unless the caller asks to reveal them.
public enum UnifiedCacheInspection {
  /// One line per entity (section by section, in key order), then the diagnostics.
  public static func textLines(_ result: UnifiedCacheReadResult, revealSecrets: Bool = false) -> [String] {
    let contents = result.contents
    let unknown = JSONObject(contents.unknownSections.filter { !UnmodelledEntries.isKnownSection($0.key) })
    let unmodelled = UnmodelledEntries.count(in: contents.unknownSections)
    var lines = [
      "\(contents.accounts.count) account(s), \(contents.accessTokens.count) access token(s), "
        + "\(contents.refreshTokens.count) refresh token(s), \(contents.idTokens.count) id token(s), "
        + "\(contents.appMetadata.count) app metadata"
        + (unmodelled == 0 ? "" : ", \(unmodelled) unmodelled entr\(unmodelled == 1 ? "y" : "ies") kept verbatim")
        + (unknown.isEmpty ? "" : ", unknown sections: \(UnknownValues.names(unknown).joined(separator: ", "))")
    ]
    for entity in contents.allEntities {
      // The key the file holds it under, as `--format json` and `export` without `--for` show it: a user looks
      // the entry up by it (a key computed here appeared nowhere in the file).
      var parts = [entity.kind.rawValue, entity.writtenForm.key ?? entity.canonicalKey]
      switch entity {
      case .account(let account): parts.append("username=\(account.username ?? "-")")
      case .accessToken(let token):
        parts.append("expires=\(token.expiresOn.map(iso8601) ?? "-")")
        parts.append("secret=\(show(token.secret, revealSecrets))")
      case .refreshToken(let token):
        parts.append("family=\(token.effectiveFamilyID ?? "-")")
        parts.append("secret=\(show(token.secret, revealSecrets))")
      case .idToken(let token): parts.append("secret=\(show(token.secret, revealSecrets))")
      case .appMetadata(let metadata): parts.append("family=\(metadata.familyID ?? "-")")
      }
      // Unknown fields by name and size: their values are never printed here (see `UnknownValues`).
      if !entity.additionalFields.isEmpty {
        parts.append("unknown=" + UnknownValues.names(entity.additionalFields).joined(separator: ","))
      }
      lines.append(parts.joined(separator: " "))
    }
    return lines + result.diagnostics.map(\.description)
  }

  /// The cache in the writer's layout, with each `secret` replaced by its fingerprint and each unknown
  /// section and field by its `UnknownValues.summary` (unless revealed).
  public static func jsonObject(_ result: UnifiedCacheReadResult, revealSecrets: Bool = false) -> JSONObject {
    guard !revealSecrets else { return UnifiedCacheJSONWriter.jsonObject(result.contents).0 }
    var cache = UnifiedCacheJSONWriter.jsonObject(UnknownValues.withholding(result.contents)).0
    for kind in UnifiedEntityKind.allCases where kind.holdsSecret {
      guard case .object(var section)? = cache[kind.sectionName] else { continue }
      for member in section {
        guard case .object(var entity) = member.value, case .string(let secret)? = entity["secret"] else { continue }
        entity["secret"] = .string(SecretFingerprint.of(secret))
        section[member.key] = .object(entity)
      }
      cache[kind.sectionName] = .object(section)
    }
    return cache
  }

  private static func show(_ secret: UnifiedSecret, _ reveal: Bool) -> String {
    reveal ? secret.value : secret.fingerprint
  }

  private static func iso8601(_ date: Date) -> String {
    let formatter = ISO8601DateFormatter()
    formatter.timeZone = TimeZone(identifier: "UTC")
    return formatter.string(from: date)
  }
}
