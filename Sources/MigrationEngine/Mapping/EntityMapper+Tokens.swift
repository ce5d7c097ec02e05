import ADALCache
import Adal2MSALSupport
import Foundation
import UnifiedCache

extension EntityMapper {
  /// Refresh tokens per app and per family; returns the client each FRT item was given (by ordinal).
  func mapRefreshTokens(
    _ group: UserGroup, into result: inout MappingResult, apps: inout AppMetadataCollector
  ) -> [Int: String] {
    for (_, selected) in RefreshTokenSelection.perApp(group.items) {
      appendRefreshToken(selected, group, into: &result, apps: &apps)
    }
    for sourced in group.items where !RefreshTokenSelection.isFamilyItem(sourced.item) {
      if let family = RefreshTokenSelection.familyID(of: sourced.item), sourced.item.kind.hasRefreshToken {
        apps.note(
          client: sourced.item.clientID, environment: group.environment, family: family, source: sourced.planSource)
      }
    }
    var frtClients: [Int: String] = [:]
    let families = Set(group.items.compactMap { RefreshTokenSelection.familyID(of: $0.item) })
    for family in families.sorted() {
      // Walked, not gathered: only the assigned ones are kept.
      let frts = group.items.lazy.filter {
        RefreshTokenSelection.isFamilyItem($0.item) && RefreshTokenSelection.familyID(of: $0.item) == family
      }
      let hasFRTs = !frts.isEmpty
      var assigned: [SourcedItem] = []
      for frt in frts {
        if let client = RefreshTokenSelection.owningClient(of: frt, siblings: group.items, fallback: options.clientID) {
          frtClients[frt.ordinal] = client
          assigned.append(frt)
        } else {
          result.skips.append(
            .skip(
              CollectionOfOne(frt), code: "adal.family-token-without-client",
              reason: "family refresh token \(frt.item.clientID) with no sibling item naming its app and no "
                + "client id option (--client-id)", kind: .refreshToken, in: group))
        }
      }
      // The app items are the candidates only when there is no FRT: gathered then only.
      let candidates =
        !hasFRTs
        ? group.items.filter {
          !RefreshTokenSelection.isFamilyItem($0.item) && $0.item.kind.hasRefreshToken
            && RefreshTokenSelection.familyID(of: $0.item) == family
        } : assigned
      let ranked = RefreshTokenSelection.ordered(candidates)
      guard let winner = ranked.first else { continue }
      // Losing FRTs are reported; losing app items (a fallback without any FRT) still make their app's token.
      let losers = hasFRTs ? Array(ranked.dropFirst()) : []
      let client = frtClients[winner.ordinal] ?? winner.item.clientID
      appendRefreshToken(
        .init(winner: winner, losers: losers, clientID: client, familyID: family), group, into: &result,
        apps: &apps)
    }
    return frtClients
  }

  private func appendRefreshToken(
    _ selected: RefreshTokenSelection.Selected, _ group: UserGroup, into result: inout MappingResult,
    apps: inout AppMetadataCollector
  ) {
    guard let secret = selected.winner.item.refreshToken else { return }
    let token = UnifiedRefreshToken(
      homeAccountID: group.identity.homeAccountID, environment: group.environment, clientID: selected.clientID,
      secret: UnifiedSecret(secret.value, digestPrefix: secret.digestPrefix), familyID: selected.familyID)
    let kind = String(describing: selected.winner.item.kind)
    let duplicates = selected.losers.isEmpty ? "" : " (\(selected.losers.count) duplicate(s) set aside)"
    let reason =
      selected.familyID.map { String(joining: "family ", $0, " refresh token from the ADAL ", kind, duplicates) }
      ?? String(joining: "refresh token of ", selected.clientID, " from the ADAL ", kind, duplicates)
    result.proposals.append(
      proposal(
        .refreshToken(token), group, CollectionOfOne(selected.winner), code: "adal.refresh-token", reason: reason))
    for loser in selected.losers {
      result.skips.append(
        .skip(
          CollectionOfOne(loser), code: "adal.duplicate-refresh-token",
          reason: "duplicate refresh token: \(selected.winner.planSource) is kept (family > multi-resource > "
            + "single-resource, then newest)", kind: .refreshToken, in: group))
    }
    apps.note(
      client: selected.clientID, environment: group.environment, family: selected.familyID,
      source: selected.winner.planSource)
  }

  func mapAccessTokens(_ group: UserGroup, into result: inout MappingResult, apps: inout AppMetadataCollector) {
    var candidates: [AccessTokenCandidate] = []
    // The tokens apart from their candidates, by position, each taken once: sorted with the candidates, and read
    // out of them, each token was copied (a retain and a release of each of its fields) at every move and read.
    var tokens: [UnifiedAccessToken?] = []
    for sourced in group.items where sourced.item.accessToken != nil {
      func skip(_ code: String, _ reason: String) {
        result.skips.append(
          .skip(CollectionOfOne(sourced), code: code, reason: reason, kind: .accessToken, in: group))
      }
      guard !options.skipAccessTokens else {
        skip(Self.accessTokensTurnedOff.code, Self.accessTokensTurnedOff.reason)
        continue
      }
      guard let secret = sourced.item.accessToken, let resource = sourced.item.resource, !resource.isEmpty else {
        skip("adal.access-token-without-resource", "access token without a resource")
        continue
      }
      guard let expiresOn = sourced.item.expiresOn else {
        skip("adal.access-token-without-expiry", "access token without an expiry date")
        continue
      }
      guard expiresOn > now else {
        skip(
          "adal.expired-access-token",
          ReportDate.string(expiresOn, after: "access token for ", resource, " expired at "))
        continue
      }
      guard let realm = sourced.isADFS ? "adfs" : (tenantID(sourced) ?? sourced.tid ?? homeTenant(of: group)) else {
        skip("adal.access-token-without-tenant", "access token from a common authority without an id token tid")
        continue
      }
      let (target, isScopeList) = Self.target(ofResource: resource)
      if isScopeList {
        result.diagnostics.append(
          Diagnostic(
            .warning, code: Self.scopeListResourceCode,
            "the access token's resource is a list of scopes ('\(resource)'), which a writer stored where a resource "
              + "belongs: written with these scopes as its target, not the resource with /.default; check that the "
              + "app asks for them", at: sourced.location))
      }
      let token = UnifiedAccessToken(
        homeAccountID: group.identity.homeAccountID, environment: group.environment, clientID: sourced.item.clientID,
        realm: realm, target: target,
        secret: UnifiedSecret(secret.value, digestPrefix: secret.digestPrefix),
        cachedAt: Self.cachedAt(of: sourced.item, expiresOn: expiresOn, now: now), expiresOn: expiresOn,
        extendedExpiresOn: sourced.item.extendedExpiresOn,
        tokenType: sourced.item.accessTokenType.flatMap { $0.isEmpty ? nil : $0 } ?? "Bearer")
      if candidates.isEmpty {
        candidates.reserveCapacity(group.items.count)
        tokens.reserveCapacity(group.items.count)
      }
      candidates.append(
        AccessTokenCandidate(
          key: token.canonicalKey, position: candidates.count, item: sourced, expiresOn: token.expiresOn,
          digestPrefix: token.secret.digestPrefix))
      tokens.append(token)
    }
    // In key order, the best first within a key: one sort of one list, where a table of a list per key (most
    // keys have one token) and a sorted copy of each were three allocations a token.
    candidates.sort(by: AccessTokenCandidate.precedes)
    var start = candidates.startIndex
    while start < candidates.endIndex {
      var end = start + 1
      while end < candidates.endIndex, candidates[end].key == candidates[start].key { end += 1 }
      let ranked = candidates[start..<end]
      start = end
      let winner = ranked[ranked.startIndex].item
      // Taken once: a candidate wins at most one key.
      let token = tokens[ranked[ranked.startIndex].position].take()!
      // The key as a table would keep it: the first token's spelling of it.
      let key = ranked.min { $0.position < $1.position }?.key ?? token.canonicalKey
      let reason = String(
        joining: "access token for ", winner.item.resource ?? "", " as ", token.target, ", unverified offline")
      let client = token.clientID
      result.proposals.append(
        proposal(
          .accessToken(consume token), group, CollectionOfOne(winner), code: "adal.access-token", reason: reason,
          canonicalKey: key))
      for loser in ranked.dropFirst().map(\.item) {
        result.skips.append(
          .skip(
            CollectionOfOne(loser), code: "adal.duplicate-access-token",
            reason: "duplicate access token: \(winner.planSource) expires later and is kept", kind: .accessToken,
            in: group))
      }
      apps.note(client: client, environment: group.environment, family: nil, source: winner.planSource)
    }
  }

  /// The skip of every access token, ADAL's and an MSAL input's, under `MigrationOptions.skipAccessTokens`.
  static let accessTokensTurnedOff = (
    code: "option.skip-access-tokens", reason: "access tokens are not migrated (option)"
  )

  /// The code of the warning that names an access token whose resource is a list of scopes.
  static let scopeListResourceCode = "adal.scope-list-resource"

  /// An access token's `target`: its resource verbatim + `/.default`. A resource that holds white space is no
  /// resource but scopes a writer stored in its place (MSAL.NET's early write-back did, #13): its scopes, one space
  /// apart, are the target, since `/.default` after the last one would name a scope nobody asks for.
  static func target(ofResource resource: String) -> (target: String, isScopeList: Bool) {
    guard resource.utf8.contains(where: { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) else {
      return (resource + "/.default", false)
    }
    return (resource.split(whereSeparator: \.isWhitespace).joined(separator: " "), true)
  }

  func mapIdTokens(
    _ group: UserGroup, frtClients: [Int: String], into result: inout MappingResult,
    apps: inout AppMetadataCollector
  ) {
    // The client an item's id token is written for: an FRT item's is the app it was given.
    func client(of sourced: SourcedItem) -> String? {
      RefreshTokenSelection.isFamilyItem(sourced.item) ? frtClients[sourced.ordinal] : sourced.item.clientID
    }
    let byKey = group.items.grouped { sourced -> IdTokenSlot? in
      guard sourced.item.idToken != nil, let client = client(of: sourced),
        let realm = sourced.isADFS ? "adfs" : sourced.tid?.lowercasedSharingStorage()
      else { return nil }
      return IdTokenSlot(client: client.lowercasedSharingStorage(), realm: realm)
    } key: {
      "\($0.client)|\($0.realm)"
    }
    for (_, members) in byKey {
      let best = members.lazy.filter { $0.item.idTokenClaims?.isJWT == true }.newest
      guard let best, let secret = best.item.idToken, let client = client(of: best) else {
        result.skips.append(
          .skip(
            members, code: "adal.id-token-not-jwt",
            reason: "the id token is a bare payload segment (ADAL 1.x), not a JWT: not forged into one",
            kind: .idToken, in: group))
        continue
      }
      let realm = best.isADFS ? "adfs" : (best.tid?.lowercasedSharingStorage() ?? "")
      let token = UnifiedIdToken(
        homeAccountID: group.identity.homeAccountID, environment: group.environment, clientID: client, realm: realm,
        secret: UnifiedSecret(secret.value, digestPrefix: secret.digestPrefix))
      result.proposals.append(
        proposal(
          .idToken(token), group, members, code: "adal.id-token",
          reason: String(joining: "id token of ", client, " (newest of ", String(members.count), " item(s))")))
      apps.note(client: client, environment: group.environment, family: nil, source: best.planSource)
    }
  }
}

/// An access token `mapAccessTokens` may write: its canonical key, its item, its place among the candidates (and
/// its token's in `mapAccessTokens`' list of tokens) and what ranks it.
private struct AccessTokenCandidate {
  var key: String
  var position: Int
  var item: SourcedItem
  /// The token's `expiresOn` and its secret's `digestPrefix`: what ranks it.
  var expiresOn: Date?
  var digestPrefix: UInt64

  /// Key order, then best first: the latest expiry, then the smallest secret fingerprint, then the earliest
  /// item (a total order, so the ranking does not depend on the order the candidates came in).
  static func precedes(_ lhs: Self, _ rhs: Self) -> Bool {
    if lhs.key != rhs.key { return lhs.key < rhs.key }
    let (left, right) = (lhs.expiresOn ?? .distantPast, rhs.expiresOn ?? .distantPast)
    if left != right { return left > right }
    // The digest prefixes order as the fingerprints' texts do (fixed-width hex), without making them.
    if lhs.digestPrefix != rhs.digestPrefix { return lhs.digestPrefix < rhs.digestPrefix }
    return lhs.item.ordinal < rhs.item.ordinal
  }
}

/// What groups an item's id token with others (`mapIdTokens`): its client, lowercased, and realm.
private struct IdTokenSlot: Equatable {
  var client: String
  var realm: String
}

/// Collects one AppMetadata per migrated client and environment, with the client's family id and the items
/// that made the client migrate.
struct AppMetadataCollector: Sendable {
  private struct App: Sendable {
    var client: String
    var environment: String
    var family: String?
    /// Possibly with repeats: a list is appended to (and merged) without hashing every source, and the
    /// proposal sorts it and drops the repeats (a set of sources was hashed again at every merge).
    var sources: [PlanSource]

    mutating func note(client: String, family: String?, sources: [PlanSource]) {
      note(client: client, family: family)
      self.sources += sources
    }

    mutating func note(client: String, family: String?, source: PlanSource) {
      note(client: client, family: family)
      sources.append(source)
    }

    private mutating func note(client: String, family: String?) {
      self.client = min(self.client, client)
      // The smaller of the two that are there, without an array per note (one per migrating item).
      if let family { self.family = self.family.map { Swift.min($0, family) } ?? family }
    }
  }

  private var byKey: [String: App] = [:]
  /// The app last noted, with the client and environment its key was made of: a user's notes nearly all name
  /// one client in one environment, and each key made was a string or two, and each lookup a hash of it.
  /// (An index stays valid until a key is added, and keys are added only where this is set again.)
  private var last: (client: String, environment: String, index: [String: App].Index)?
  /// The room an app's list of sources is made with (`init(sourcesPerApp:)`).
  private let sourcesPerApp: Int

  /// - Parameter sourcesPerApp: about how many sources each app will be noted with (a user's items): each
  ///   list is then made once, not grown note by note (about 30,000 allocations at 40,000 items). At most 16
  ///   are reserved: a user of many items and many apps would otherwise reserve their product.
  init(sourcesPerApp: Int = 0) { self.sourcesPerApp = min(sourcesPerApp, 16) }

  /// Notes that `source` makes `client` migrate in `environment`. One source, not a list: a list of one was
  /// an allocation per migrating item.
  mutating func note(client: String, environment: String, family: String?, source: PlanSource) {
    let index: [String: App].Index
    // The same bytes make the same key (`==` would also accept canonically equivalent spellings).
    if let last, last.client.hasSameUTF8(as: client), last.environment.hasSameUTF8(as: environment) {
      index = last.index
    } else {
      let key = UnifiedCacheKey.appMetadata(environment: environment, clientID: client)
      if let found = byKey.index(forKey: key) {
        index = found
      } else {
        var sources: [PlanSource] = []
        sources.reserveCapacity(sourcesPerApp)
        byKey[key] = App(client: client, environment: environment, family: nil, sources: sources)
        index = byKey.index(forKey: key)!
      }
      last = (client, environment, index)
    }
    byKey.values[index].note(client: client, family: family, source: source)
  }

  /// `other`'s apps under the keys it made for them: merging makes no key again.
  mutating func merge(_ other: AppMetadataCollector) {
    last = nil  // a key added below moves the apps
    for (key, app) in other.byKey {
      guard let index = byKey.index(forKey: key) else {
        byKey[key] = app  // what noting it into an empty app makes, with its list shared rather than copied
        continue
      }
      byKey.values[index].note(client: app.client, family: app.family, sources: app.sources)
    }
  }

  /// One proposal per app, in key order. Made on all cores: an app's sources are those of every user of the
  /// client (tens of thousands), sorted once the whole run is planned, with nothing else left to do.
  func proposals() -> [Proposal] {
    let apps = byKey.sorted { $0.key < $1.key }.map(\.value)
    return apps.orderedParallelMap(minimumChunk: 1) { app in
      let entity = UnifiedAppMetadata(clientID: app.client, environment: app.environment, familyID: app.family)
      let family = app.family.map { "family \($0)" } ?? "no family"
      return Proposal(
        entity: .appMetadata(entity), sources: Self.distinctInOrder(app.sources), rule: nil, username: nil,
        homeAccountID: nil, reasonCode: "adal.app-metadata", reason: "app metadata of a migrated client (\(family))")
    }
  }

  /// `sources` without repeats, sorted (`PlanSource.precedes`). Repeats end up side by side, unless a source
  /// without an item index and one with index -1 of the same file (which `precedes` leaves unordered) sit
  /// between them: then a set finds them.
  ///
  /// An app's sources are those of every user of its client (40,000 at 40,000 items): they are sorted as
  /// positions against a small key per source (the file's rank among the files, the item index), which
  /// decides as `precedes` does, so the stable sort makes the same order; comparing and moving the sources
  /// themselves retained and released their strings at every step.
  static func distinctInOrder(_ sources: [PlanSource]) -> [PlanSource] {
    sources.withUnsafeBufferPointer { sources in
      let keys = SourceKey.keys(of: sources)
      func precedes(_ left: Int, _ right: Int) -> Bool {
        let (lhs, rhs) = (keys[left], keys[right])
        if lhs.file != rhs.file { return lhs.file < rhs.file }
        if lhs.hasIndex != rhs.hasIndex || lhs.index != rhs.index { return lhs.index < rhs.index }
        return sources[left].label < sources[right].label
      }
      func equal(_ left: Int, _ right: Int) -> Bool {
        let (lhs, rhs) = (keys[left], keys[right])
        return lhs.file == rhs.file && lhs.hasIndex == rhs.hasIndex && lhs.index == rhs.index
          && sources[left].label == sources[right].label
      }
      var out: [PlanSource] = []
      out.reserveCapacity(sources.count)
      var unordered = false
      var last: Int?
      for position in sources.indices.sorted(by: precedes) {
        if let last {
          if equal(last, position) { continue }
          if !precedes(last, position) { unordered = true }
        }
        out.append(sources[position])
        last = position
      }
      guard unordered else { return out }
      var seen: Set<PlanSource> = []
      return out.filter { seen.insert($0).inserted }
    }
  }

  /// A source's place as `PlanSource.precedes` reads it, without its strings: the file as its rank among the
  /// sources' files (in `<` order), the item index (-1 without one, as `precedes` orders it) and whether it
  /// has one (an index of -1 and none differ, though neither precedes the other).
  private struct SourceKey {
    var file: Int
    var index: Int
    var hasIndex: Bool

    static func keys(of sources: UnsafeBufferPointer<PlanSource>) -> [SourceKey] {
      // Nearly every source names the file of the one before it (one dump): compared first, before hashing.
      var files: [String] = []
      var ranks: [String: Int] = [:]
      var previous: (file: String, rank: Int)?
      var keys = sources.indices.map { position in
        let file = sources[position].file
        let rank: Int
        if let previous, previous.file == file {
          rank = previous.rank
        } else {
          rank = ranks[file, default: files.count]
          if rank == files.count {
            files.append(file)
            ranks[file] = rank
          }
          previous = (file, rank)
        }
        let index = sources[position].itemIndex
        return SourceKey(file: rank, index: index ?? -1, hasIndex: index != nil)
      }
      // The ranks so far are in order of appearance: made the places of the files in `<` order.
      var place = [Int](repeating: 0, count: files.count)
      for (order, rank) in files.indices.sorted(by: { files[$0] < files[$1] }).enumerated() { place[rank] = order }
      for position in keys.indices { keys[position].file = place[keys[position].file] }
      return keys
    }
  }
}
