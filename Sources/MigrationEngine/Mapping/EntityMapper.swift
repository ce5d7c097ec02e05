import ADALCache
import Adal2MSALSupport
import Foundation
import UnifiedCache

/// Maps resolved ADAL items to unified entities (Account, RefreshToken, AccessToken, IdToken, AppMetadata).
struct EntityMapper {
  let options: MigrationOptions
  let now: Date
  /// Target store plus MSAL inputs, by lowercased home account id: an account's environment there is reused
  /// for its ADAL entities.
  let existingAccounts: [String: [UnifiedAccount]]

  init(options: MigrationOptions, now: Date, existingAccounts: [UnifiedAccount]) {
    self.options = options
    self.now = now
    self.existingAccounts = Dictionary(grouping: existingAccounts) { $0.homeAccountID.lowercased() }
  }

  /// The items of one resolved user in one cloud, with the environment its entities are written under.
  struct UserGroup {
    var identity: ResolvedIdentity
    var items: [SourcedItem]
    var environment: String
    /// The best rule over the user's items (for entries that do not come from items).
    var rule: IdentityRule
    /// Every item's identity, by ordinal (`IdentityResolver.Outcome.resolved`, shared by the groups): the rule
    /// each item got. (A table of the group's rules was one more allocation, and a hash per item, per user.)
    var resolved: [ResolvedIdentity?]
    /// The newest item's displayable username: every entity of the user records it.
    var username: String?

    /// The rule an entity made from `items` (the group's) records: the first, in docs/mapping.md's order, that
    /// fired for them.
    func rule(of items: some Sequence<SourcedItem>) -> IdentityRule {
      Self.firstRule(of: items, in: resolved) ?? rule
    }

    /// The first rule, in docs/mapping.md's order, that `resolved` gives `items`; nil when it gives them none. A
    /// loop, not `compactMap(...).min`: that was an array per entity.
    static func firstRule(of items: some Sequence<SourcedItem>, in resolved: [ResolvedIdentity?]) -> IdentityRule? {
      var first: IdentityRule?
      for sourced in items {
        if let rule = resolved[sourced.ordinal]?.rule, first.map({ rule.order < $0.order }) ?? true { first = rule }
      }
      return first
    }
  }

  /// Maps every resolved user's items (app metadata is collected in `apps`, not proposed). `items` is consumed: each user's decoded items are let go as soon as
  /// the user is mapped (see below).
  func map(_ items: consuming [SourcedItem], identities: IdentityResolver.Outcome) -> MappingResult {
    var result = MappingResult()
    // Read in place: a `for` over the users copied each (a retain of each of its fields).
    for index in identities.users.indices where identities.users[index].status != .resolved {
      let status = identities.users[index].status
      result.skips.append(
        PlanEntry(
          action: status == .conflict ? .conflict : .skip, reasonCode: identities.users[index].reasonCode,
          reason: identities.users[index].reason, sources: identities.users[index].sources,
          username: identities.users[index].username))
    }
    // Users map independently (a group only appends to its own result, and app metadata merges
    // commutatively), so groups are mapped on all cores and their results joined in group order: the same
    // result as one loop, and the largest single-core share of planning before.
    var groups = userMembers(items, identities)
    items = []  // the groups hold the only references to the items now
    // Mapped in batches, each batch's items let go once mapped: the decoded inputs shrink as the proposals
    // grow, instead of both being whole at the planner's peak (a million items: 5.3 GB before, see
    // CHANGELOG.md, benchmark history, "Memory").
    var parts: [(result: MappingResult, apps: AppMetadataCollector)] = []
    parts.reserveCapacity(groups.count)
    for start in stride(from: 0, to: groups.count, by: Self.groupsPerBatch) {
      let range = start..<min(groups.count, start + Self.groupsPerBatch)
      var batch: [[SourcedItem]?] = groups[range].map { $0 }
      for index in range { groups[index] = [] }
      // Each group is made and let go by the worker that maps it: its items are freed on all cores.
      var mapped = batch.orderedParallelMapTaking(minimumChunk: 64) {
        members -> (result: MappingResult, apps: AppMetadataCollector) in
        userGroup(members, identities).map(mapUser) ?? (MappingResult(), AppMetadataCollector())
      }
      parts.appendMoving(&mapped)
    }
    // The apps are merged on the other core while this one joins the proposals; moved out of the parts (a copy
    // of each retained its table, released again with the parts).
    var partApps: [AppMetadataCollector] = []
    partApps.reserveCapacity(parts.count)
    for index in parts.indices {
      var apps = AppMetadataCollector()
      swap(&apps, &parts[index].apps)
      partApps.append(apps)
    }
    let apps = BackgroundValue { [partApps = Handoff(consume partApps)] in
      let partApps = partApps.take()
      var merged = AppMetadataCollector()
      for index in partApps.indices { merged.merge(partApps[index]) }
      // Freed apart from the merge, which the planner waits for (freed here, 10 ms of the 40k-item plan's one core).
      releaseInBackground(consume partApps)
      return merged
    }
    // Joined into arrays sized once (grown by doubling, the proposals were there up to three times over at
    // the planner's peak), the parts' elements moved, not copied: a copy of a skip retained each of its fields,
    // and letting the parts go released them all again, on the core that goes on to reconcile. The emptied
    // parts are let go on another core.
    result.proposals.reserveCapacity(parts.reduce(0) { $0 + $1.result.proposals.count })
    result.skips.reserveCapacity(result.skips.count + parts.reduce(0) { $0 + $1.result.skips.count })
    for index in parts.indices {
      result.proposals.appendMoving(&parts[index].result.proposals)
      result.skips.appendMoving(&parts[index].result.skips)
      result.diagnostics.appendMoving(&parts[index].result.diagnostics)
    }
    releaseInBackground(consume parts)
    result.apps = apps.value
    return result
  }

  /// Enough users to keep every core busy, few enough that their items are a small part of the inputs.
  static let groupsPerBatch = 4_096

  /// One user's entities: refresh and access tokens, then (if any token migrates) the account and id tokens.
  private func mapUser(_ group: UserGroup) -> (result: MappingResult, apps: AppMetadataCollector) {
    var result = MappingResult()
    var tokens = MappingResult()
    var apps = AppMetadataCollector(sourcesPerApp: group.items.count)
    let frtClients = mapRefreshTokens(group, into: &tokens, apps: &apps)
    mapAccessTokens(group, into: &tokens, apps: &apps)
    result.skips += tokens.skips
    result.diagnostics += tokens.diagnostics
    guard !tokens.proposals.isEmpty else {
      // Nothing to sign in with: an Account alone would look signed in and is not written.
      result.skips.append(
        PlanEntry(
          action: .skip, kind: .account, reasonCode: "adal.no-token-migrates",
          reason: "no refresh or access token of this user migrates, so no account or id token is written",
          sources: group.items.map(\.planSource), identityRule: group.rule,
          username: group.username, homeAccountID: group.identity.homeAccountID))
      return (result, AppMetadataCollector())
    }
    mapAccounts(group, into: &result)
    result.proposals += tokens.proposals
    mapIdTokens(group, frtClients: frtClients, into: &result, apps: &apps)
    return (result, apps)
  }

  /// The items by resolved user and cloud (`items` as `identities` resolved them, by ordinal), in the order of
  /// `home|cloud`; each group's items in plan order. A cluster's items share one identity and one cloud, so
  /// the key is made per cluster (per item, it was a string and a lookup for each), on all cores. The rest of
  /// each group (`userGroup`) is made on all cores, by the worker that maps it.
  private func userMembers(_ items: [SourcedItem], _ identities: IdentityResolver.Outcome) -> [[SourcedItem]] {
    let keys = identities.clusters.orderedParallelMap(minimumChunk: 1_024) { cluster -> String? in
      guard let first = cluster.first, let identity = identities.resolved[items[first].ordinal] else { return nil }
      return "\(identity.homeAccountID.lowercasedSharingStorage())|\(items[first].cloud)"
    }
    var byUser: [String: [Int]] = [:]
    byUser.reserveCapacity(identities.clusters.count)  // sized once: it was resized a dozen times
    // A user's first cluster is kept as it is (appended to an empty list, it was copied); one lookup a cluster.
    func join(_ cluster: [Int], to list: inout [Int]) {
      if list.isEmpty { list = cluster } else { list += cluster }
    }
    for (cluster, key) in zip(identities.clusters, keys) {
      guard let key else { continue }
      join(cluster, to: &byUser[key, default: []])
    }
    var groups: [[SourcedItem]] = []
    groups.reserveCapacity(byUser.count)
    for (_, indices) in byUser.sorted(by: { $0.key < $1.key }) {
      var indices = indices
      if !indices.isSorted(by: <) { indices.sort() }  // several clusters of one user: back in plan order
      groups.append(indices.map { items[$0] })
    }
    return groups
  }

  /// The group of one user's items (`userMembers`): its identity (the newest item's), rules and environment.
  private func userGroup(_ members: [SourcedItem], _ identities: IdentityResolver.Outcome) -> UserGroup? {
    guard let newest = members.newest, let identity = identities.resolved[newest.ordinal] else { return nil }
    let rule = UserGroup.firstRule(of: members, in: identities.resolved) ?? identity.rule
    // A new store and no MSAL inputs: no account to look up (the key is a lowercased copy per user).
    let aligned =
      existingAccounts.isEmpty
      ? nil
      : existingAccounts[identity.homeAccountID.lowercased(), default: []].filter {
        CloudGroups.group(of: $0.environment) == newest.cloud
      }.map(\.environment).min()
    return UserGroup(
      identity: identity, items: members, environment: aligned ?? newest.environment, rule: rule,
      resolved: identities.resolved, username: newest.displayableUsername)
  }

  /// `sources` is any collection: an entity made from one item (a token) passes `CollectionOfOne(item)`, with no
  /// array of the item.
  /// - Parameter canonicalKey: `entity.canonicalKey`, when the caller made it already.
  func proposal(
    _ entity: AnyUnifiedEntity, _ group: UserGroup, _ sources: some Collection<SourcedItem>, code: String,
    reason: String, canonicalKey: String? = nil
  ) -> Proposal {
    Proposal(
      entity: entity, sources: sources.map(\.planSource), rule: group.rule(of: sources), username: group.username,
      homeAccountID: group.identity.homeAccountID, reasonCode: code, reason: reason, canonicalKey: canonicalKey)
  }

  /// The realm of an id token's tenant: `adfs` for ADFS, else `tid`, else a tenanted authority's tenant.
  private func realm(of sourced: SourcedItem) -> String? {
    if sourced.isADFS { return "adfs" }
    if let tid = sourced.tid { return tid.lowercasedSharingStorage() }
    return tenantedAuthority(sourced)
  }

  /// The home tenant of a user of Azure AD (`MSSTS`): the tenant that issues what the user asked of `common` or
  /// `organizations` (what MSAL.NET and ObjC take as an access token's realm from the response's id token `tid`),
  /// for an item that holds no id token (Azure CLI's and ADAL Python's entries). Nil for ADFS.
  func homeTenant(of group: UserGroup) -> String? {
    guard group.identity.authorityType == "MSSTS" else { return nil }
    return UnifiedAccount.homeTenant(of: group.identity.homeAccountID)
  }

  /// The authority's tenant when it is a tenant id, not a domain name (`contoso.onmicrosoft.com`): a token's realm
  /// is the tenant id, which MSAL Python finds by discovery and MSAL.NET and ObjC take from the response's `tid`,
  /// so a domain-named tenant gives way to the id token's `tid`.
  func tenantID(_ sourced: SourcedItem) -> String? {
    guard let tenant = tenantedAuthority(sourced), !tenant.utf8.contains(UInt8(ascii: ".")) else { return nil }
    return tenant
  }

  /// When an access token was cached: ADAL 2.7+ archives it; before, the keychain item's modification date says
  /// when ADAL last wrote the item, else the clock. (A run again over the same dump keeps the stored token's time:
  /// `EntityMerge`.)
  static func cachedAt(of item: ADALTokenItem, expiresOn: Date, now: Date) -> Date {
    if let cachedAt = item.cachedAt { return cachedAt }
    if let modified = item.source.modified, modified <= expiresOn, modified <= now { return modified }
    return now
  }

  func tenantedAuthority(_ sourced: SourcedItem) -> String? {
    guard let tenant = sourced.tenant, !tenant.isEmpty else { return nil }
    return ["common", "organizations", "consumers"].contains(tenant.lowercasedSharingStorage()) ? nil : tenant
  }

  private func mapAccounts(_ group: UserGroup, into result: inout MappingResult) {
    let byRealm = group.items.grouped(by: realm(of:)) { $0 }
    if byRealm.isEmpty {
      result.diagnostics.append(
        Diagnostic(
          .warning, code: "engine.account-without-tenant",
          "no Account written for \(group.identity.homeAccountID): no id token or tenanted authority gives its tenant",
          at: group.items.first?.location))
    }
    for (realm, members) in byRealm {
      guard let best = members.lazy.filter({ $0.item.idTokenClaims != nil }).newest ?? members.newest else { continue }
      let claims = best.item.idTokenClaims
      let account = UnifiedAccount(
        homeAccountID: group.identity.homeAccountID, environment: group.environment, realm: realm,
        localAccountID: best.oid ?? claims?.sub, username: best.displayableUsername ?? "",
        authorityType: group.identity.authorityType, name: claims?.name, givenName: claims?.givenName,
        familyName: claims?.familyName)
      result.proposals.append(
        proposal(
          .account(account), group, members, code: "adal.account",
          reason: String(
            joining: "account of ", String(members.count), " ADAL item(s); identity rule ",
            group.rule(of: members).rawValue)))
    }
  }
}
