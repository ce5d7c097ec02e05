import Adal2MSALSupport
import Foundation

/// Writes `UnifiedCacheContents` as a unified cache JSON file that the MSAL libraries load.
///
/// The five sections always (as MSAL.NET), then the unknown sections as they were read; 4-space indentation,
/// UTF-8 without a byte-order mark, a final newline. For a target library every entry is keyed and spelled as
/// that library computes and reads it (`LibraryKeys`, `FieldSpelling`); without one, each entry keeps the key
/// and spellings it was read with, and an entity made here (from ADAL items) gets its canonical key.
public enum UnifiedCacheJSONWriter {
  /// The file and what it does not hold as read: the entries `library` keys alike or cannot load, left out, and
  /// those written once for two (`CacheExport.diagnostics`).
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
    let refreshTokens = sections.section(contents.refreshTokens.map(AnyUnifiedEntity.refreshToken))
    root[UnifiedEntityKind.refreshToken.sectionName] =
      library == .python ? familyMembersMarked(refreshTokens, of: contents) : refreshTokens
    root[UnifiedEntityKind.idToken.sectionName] = sections.section(contents.idTokens.map(AnyUnifiedEntity.idToken))
    root[UnifiedEntityKind.account.sectionName] = sections.section(contents.accounts.map(AnyUnifiedEntity.account))
    root[UnifiedEntityKind.appMetadata.sectionName] = sections.section(
      appMetadata(of: contents, for: library).map(AnyUnifiedEntity.appMetadata))
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

  /// MSAL Python saves the refresh token of an app of a family with the family's id (`family_id` from the token
  /// response's `foci`), and its sign-out removes the refresh tokens of the app's client id and of its family
  /// (`remove_account`): an app refresh token written without it stayed behind when a sibling app signed the user
  /// out. Each refresh token without a family whose app's metadata in its cloud names one is written with it; which
  /// entries are written was decided before (the family token still wins a slot over an app's own).
  static func familyMembersMarked(_ section: JSONValue, of contents: UnifiedCacheContents) -> JSONValue {
    var families: [String: String] = [:]
    for metadata in contents.appMetadata {
      if let family = metadata.familyID, !family.isEmpty {
        families[metadata.environment.lowercased() + " " + metadata.clientID.lowercased()] = family
      }
    }
    guard !families.isEmpty, var entries = section.objectValue else { return section }
    for member in entries {
      guard var token = member.value.objectValue, (token["family_id"]?.stringValue ?? "").isEmpty,
        let environment = token["environment"]?.stringValue, let client = token["client_id"]?.stringValue,
        let family = families[environment.lowercased() + " " + client.lowercased()]
      else { continue }
      token["family_id"] = .string(family)
      entries[member.key] = .object(token)
    }
    return .object(entries)
  }

  /// The app metadata to write. MSAL Python finds an app's metadata under the client id as the app spells it
  /// (`appmetadata-<environment>-<client_id>`, case kept), and its sign-out removes the refresh tokens of that
  /// spelling or of the family the metadata names: when the credentials spell one client id in several ways (ADAL
  /// kept each item's own case, in any cloud), its metadata is written once per spelling in each of its clouds, so
  /// that the app finds its family's refresh tokens and signs every user out whichever it uses. (Written once, an app
  /// of the other spelling left a user's family refresh token behind, or found none to refresh with.)
  static func appMetadata(of contents: UnifiedCacheContents, for library: MSALLibrary?) -> [UnifiedAppMetadata] {
    guard library == .python else { return Array(contents.appMetadata) }
    var spellings: [String: Set<String>] = [:]
    func note(_ client: String) { spellings[client.lowercased(), default: []].insert(client) }
    for token in contents.refreshTokens { note(token.clientID) }
    for token in contents.accessTokens { note(token.clientID) }
    for token in contents.idTokens { note(token.clientID) }
    for metadata in contents.appMetadata { note(metadata.clientID) }
    return contents.appMetadata.flatMap { metadata in
      let others = (spellings[metadata.clientID.lowercased()] ?? []).subtracting([metadata.clientID]).sorted()
      return [metadata]
        + others.map { spelling in
          var copy = metadata
          copy.clientID = spelling
          return copy
        }
    }
  }
}

/// Builds one section's entries under the target library's keys (or the keys they were read with), leaves out
/// the entries the library cannot load, and decides between entries it would keep only one of. For msal-node, the
/// Accounts of one user in several tenants are first merged into one, with its tenant profiles.
private struct SectionBuilder {
  let library: MSALLibrary?
  var diagnostics: [Diagnostic] = []

  /// An entry to write: its key and entity, and the host it was read under (another for one `MSALLibrary.stored`
  /// moved to its cloud's cache host).
  private typealias Entry = (key: String, entity: AnyUnifiedEntity, readAt: String)

  mutating func section(_ entities: [AnyUnifiedEntity]) -> JSONValue {
    // First one entry per slot (what the library keeps one of: `LibraryKeys.slot`), then one per key, in case
    // two slots' entries were keyed alike after all.
    var slots: [String] = []
    var bySlot: [String: Entry] = [:]
    var entities = entities
    /// Entities moved to their cloud's cache host before the loop below (msal-node's Accounts), with the host
    /// they were read under.
    var movedFrom: [AnyUnifiedEntity: String] = [:]
    if library == .node {
      // msal-node keeps one Account per home account and cache host, listing its tenants (NodeTenantProfiles):
      // the Accounts go under the cache host first, those read there first in line, so that of two of one tenant
      // the one msal-node wrote there is the entry.
      if case .account? = entities.first {
        let stored = entities.map { (read: $0, entity: MSALLibrary.node.stored($0)) }
        let (atHost, others) = (stored.filter { $0.read == $0.entity }, stored.filter { $0.read != $0.entity })
        movedFrom = Dictionary(others.map { ($0.entity, $0.read.environment) }, uniquingKeysWith: { first, _ in first })
        entities = (atHost + others).map(\.entity)
      }
      let merged = NodeTenantProfiles.merge(entities)
      entities = merged.entities
      diagnostics += merged.notes
    }
    for read in entities {
      let entity = library?.stored(read) ?? read
      var key = library.map { LibraryKeys.key(for: entity, in: $0) } ?? entity.writtenForm.key ?? entity.canonicalKey
      if let library, case .accessToken(let token) = entity,
        let leftOut = CacheExport.unloadable(
          token, for: library, at: SourceLocation(keyPath: "\(entity.kind.sectionName).\(key)"))
      {
        diagnostics.append(leftOut)
        continue
      }
      if library == nil, bySlot[key] != nil { key = entity.canonicalKey }
      let slot = library.map { LibraryKeys.slot(for: entity, in: $0) } ?? key
      let entry = (key: key, entity: entity, readAt: movedFrom[read] ?? read.environment)
      if let previous = bySlot[slot] {
        bySlot[slot] = decide(entry, previous, slot: slot)
      } else {
        slots.append(slot)
        bySlot[slot] = entry
      }
    }
    var keys: [String] = []
    var byKey: [String: Entry] = [:]
    for entry in slots.compactMap({ bySlot[$0] }) {
      if let previous = byKey[entry.key] {
        byKey[entry.key] = decide(entry, previous, slot: entry.key)
      } else {
        keys.append(entry.key)
        byKey[entry.key] = entry
      }
    }
    if library == .dotnet { keys = foldFamilyClientsTokens(keys, &byKey) }
    return .object(
      JSONObject(
        keys.compactMap { key in
          byKey[key].map { JSONMember(key, .object(UnifiedEntityJSON.object(for: $0.entity, library: library))) }
        }))
  }

  /// MSAL.NET saves a family client's token response as the family refresh token alone
  /// (`TokenCache.ITokenCacheInternal.cs`: an `MsalRefreshTokenCacheItem` with the `FamilyId`, keyed
  /// `…-refreshtoken-1--`), and redeems it for every member of the family. An app refresh token of the same user,
  /// cloud and client beside it that holds the same token (ADAL stored the two as one) is an entry MSAL.NET never
  /// writes: a refresh replaces the family token and leaves the app entry with the redeemed token. It is written
  /// once, as the family token, with a note (`export.same-token`), as the Python export does.
  private mutating func foldFamilyClientsTokens(_ keys: [String], _ byKey: inout [String: Entry]) -> [String] {
    var family: [[String]: String] = [:]
    for key in keys {
      guard case .refreshToken(let token)? = byKey[key]?.entity, token.isFamilyToken else { continue }
      family[Self.owner(token)] = family[Self.owner(token)] ?? key
    }
    guard !family.isEmpty else { return keys }
    return keys.filter { key in
      guard let entry = byKey[key], case .refreshToken(let token) = entry.entity, !token.isFamilyToken,
        let familyKey = family[Self.owner(token)], let kept = byKey[familyKey]
      else { return true }
      let name = library?.displayName ?? "the file"
      diagnostics.append(
        Diagnostic(
          .note, code: CacheExport.sameTokenCode,
          "\(name) saves a family client's refresh token as the family refresh token alone, and the app refresh "
            + "token of client '\(token.clientID)' is the same token (\(token.secret.fingerprint)): wrote it once, "
            + "as the family refresh token",
          at: SourceLocation(keyPath: "\(kept.entity.kind.sectionName).\(familyKey)")))
      byKey[key] = nil
      return false
    }
  }

  /// A refresh token's user, cloud, client and secret: an app token and a family token alike in these are one.
  private static func owner(_ token: UnifiedRefreshToken) -> [String] {
    [token.homeAccountID.lowercased(), token.environment.lowercased(), token.clientID.lowercased(), token.secret.value]
  }

  /// Of `candidate` and `current`, which the library would keep only one of (`slot`), the one `prefers` keeps;
  /// what the other was is said in a diagnostic. For a library that writes under its cloud's cache host, an entry
  /// read there wins over one moved there from another alias: the library itself wrote it there, so it is the
  /// newer.
  private mutating func decide(_ candidate: Entry, _ current: Entry, slot: String) -> Entry {
    let (candidateAtHost, currentAtHost) = (Self.isAtHost(candidate), Self.isAtHost(current))
    let keepNew =
      candidateAtHost != currentAtHost
      ? candidateAtHost : Self.prefers(candidate.entity, over: current.entity)
    let (kept, left) = keepNew ? (candidate, current) : (current, candidate)
    diagnostics.append(sameKey(slot, kept: kept, left: left))
    return kept
  }

  /// Whether the entry was read under the host it is written under.
  private static func isAtHost(_ entry: Entry) -> Bool { entry.entity.environment == entry.readAt }

  /// Of two refresh tokens MSAL Python keeps one of (an app's own and the family token it received), the family
  /// token, which every app of the family can redeem; otherwise the first in canonical order.
  private static func prefers(_ candidate: AnyUnifiedEntity, over current: AnyUnifiedEntity) -> Bool {
    if case .refreshToken(let new) = candidate, case .refreshToken(let old) = current {
      return new.isFamilyToken && !old.isFamilyToken
    }
    return false
  }

  /// A warning that names what was left out; a note when nothing was: ADAL stores the family refresh token and the
  /// app's own as one token, and the family token written under the app's key is the token the app would redeem.
  /// `slot` is the key both share, or for MSAL Python's refresh tokens of one client, the key without the target.
  private func sameKey(_ slot: String, kept: Entry, left: Entry) -> Diagnostic {
    let name = library?.displayName ?? "the file"
    let place = SourceLocation(keyPath: "\(kept.entity.kind.sectionName).\(kept.key)")
    let alike =
      kept.key == left.key
      ? "keys two \(kept.entity.kind.rawValue) entries alike ('\(slot)')"
      : "keeps one refresh token per account and client ('\(slot)')"
    if case .refreshToken(let written) = kept.entity, case .refreshToken(let other) = left.entity,
      written.secret == other.secret
    {
      let what = written.isFamilyToken ? "the family refresh token" : "the app refresh token"
      let alike =
        kept.key == left.key && written.isFamilyToken && !other.isFamilyToken
        ? "keys the family and the app refresh token alike ('\(slot)')" : alike
      return Diagnostic(
        .note, code: CacheExport.sameTokenCode,
        "\(name) \(alike), and both are one token (\(written.secret.fingerprint)): wrote it once, as \(what)",
        at: place)
    }
    // One access or id token under one key, read under two aliases of its cloud or with fields one writer left out
    // (`token_type`): the token is its secret, and the file holds it.
    if kept.key == left.key, let secret = kept.entity.secret, secret == left.entity.secret {
      return Diagnostic(
        .note, code: CacheExport.sameTokenCode,
        "\(name) \(alike), and both are one token (\(secret.fingerprint)): wrote it once", at: place)
    }
    return CacheExport.storedAsOne(
      "\(name) \(alike)", kept: kept.entity, left: left.entity, leftReadAt: Self.isAtHost(left) ? nil : left.readAt,
      library: library,
      at: place)
  }

}
