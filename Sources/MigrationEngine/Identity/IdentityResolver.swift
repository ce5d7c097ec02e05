import ADALCache
import Adal2MSALSupport
import Foundation

/// The identity one ADAL item was given.
struct ResolvedIdentity: Sendable, Hashable {
  var homeAccountID: String
  var rule: IdentityRule
  /// `MSSTS`, or `ADFS` for ADFS authorities.
  var authorityType: String
}

/// Why an item got no identity: a skip (guest, no evidence) or a conflict (several candidates).
struct UnresolvedIdentity: Sendable, Hashable {
  var action: PlanAction
  var code: String
  var reason: String
}

/// Identity resolution (docs/mapping.md, "1. Identity", rules 1-6) for every user of a set of ADAL items.
struct IdentityResolver: Sendable {
  let existing: ExistingAccountIndex

  struct Outcome: Sendable, Equatable {
    /// Each item's identity, by ordinal (nil for an item without one). An array, not a table: the planner
    /// looks every item up, and a table's lookup hashed the ordinal and copied the identity out (a retain of
    /// its strings), to read its rule.
    var resolved: [ResolvedIdentity?] = []
    var unresolved: [Int: UnresolvedIdentity] = [:]
    var users: [PlanUser] = []
    var diagnostics: [Diagnostic] = []
    /// The users' items (`UserClusters.of`): indices into the items, each cluster sorted, in cluster order.
    /// A cluster's items are all resolved, to one identity, or none is.
    var clusters: [[Int]] = []
  }

  /// Clusters resolve independently (each reads only its own items and the existing accounts), so they are
  /// resolved on all cores and their outcomes joined in cluster order: the same outcome as one loop.
  /// `minimumChunk`: the fewest clusters a core resolves (tests make it 1).
  func resolve(_ items: [SourcedItem], minimumChunk: Int = 64) -> Outcome {
    let clusters = UserClusters.of(items)
    var pieces = clusters.orderedParallelMap(minimumChunk: minimumChunk) { cluster in
      var piece = Piece()
      resolve(cluster: cluster.map { items[$0] }, into: &piece)
      return piece
    }
    var outcome = Outcome()
    outcome.resolved = Array(repeating: nil, count: (items.lazy.map(\.ordinal).max() ?? -1) + 1)
    outcome.users.reserveCapacity(pieces.count)  // a cluster is one user
    // Moved out of the pieces, not copied: a copy of a user or an identity retained each of its strings, and
    // letting the pieces go released them again, on the core that goes on to map the users.
    for index in pieces.indices {
      // A cluster's ordinals are distinct: the order they are popped in does not matter.
      while let (ordinal, identity) = pieces[index].resolved.popLast() { outcome.resolved[ordinal] = identity }
      outcome.unresolved.merge(pieces[index].unresolved) { $1 }
      outcome.users.appendMoving(&pieces[index].users)
      outcome.diagnostics.appendMoving(&pieces[index].diagnostics)
    }
    // Let go on another core: freed here, the pieces released every user and identity they held, on the core
    // that goes on to map them (about 14M instructions at 40k items).
    releaseInBackground(consume pieces)
    outcome.clusters = clusters
    return outcome
  }

  /// What one cluster resolved to: an `Outcome`'s parts, with its items' identities as a list (a cluster's
  /// ordinals are few and spread over the whole run).
  private struct Piece: Sendable {
    var resolved: [(ordinal: Int, identity: ResolvedIdentity)] = []
    var unresolved: [Int: UnresolvedIdentity] = [:]
    var users: [PlanUser] = []
    var diagnostics: [Diagnostic] = []
  }

  private func resolve(cluster: [SourcedItem], into outcome: inout Piece) {
    let newest = cluster.newest
    let cloud = cluster.first?.cloud ?? ""
    var lowercaser = NameLowercaser()
    var names = Set<String>(minimumCapacity: cluster.count)
    for sourced in cluster { if let name = sourced.displayableUsername { names.insert(lowercaser(name)) } }
    let username = newest?.displayableUsername ?? cluster.compactMap(\.displayableUsername).sorted().first
    let lowercasedUsername = username.map { lowercaser($0) }
    let others = names.lazy.filter { $0 != lowercasedUsername }.sorted()
    var user = PlanUser(
      username: username, otherUsernames: others, cloud: cloud, status: .resolved, reasonCode: "identity.resolved",
      reason: "", sources: cluster.map(\.planSource))

    func fail(_ action: PlanAction, _ code: String, _ reason: String, candidates: [String] = []) {
      user.status = action == .conflict ? .conflict : .skipped
      user.reasonCode = code
      user.reason = reason
      user.candidates = candidates
      outcome.unresolved.reserveCapacity(outcome.unresolved.count + cluster.count)
      for sourced in cluster {
        outcome.unresolved[sourced.ordinal] = UnresolvedIdentity(action: action, code: code, reason: reason)
      }
      outcome.users.append(user)
    }
    func succeed(_ home: String, _ rules: [Int: IdentityRule], _ authorityType: String, _ reason: String) {
      outcome.resolved.reserveCapacity(outcome.resolved.count + cluster.count)
      for sourced in cluster {
        let rule = rules[sourced.ordinal] ?? .siblingItem
        outcome.resolved.append(
          (sourced.ordinal, ResolvedIdentity(homeAccountID: home, rule: rule, authorityType: authorityType)))
      }
      user.homeAccountID = home
      user.rule = IdentityRule.allCases.first { rule in rules.values.contains(rule) } ?? .siblingItem
      user.reason = reason
      outcome.users.append(user)
      if !others.isEmpty, let username {
        outcome.diagnostics.append(
          Diagnostic(
            .note, code: "identity.username-changed",
            "user \(home) appears as \(([username] + others).joined(separator: ", ")); the newest item's "
              + "username \(username) is used", at: newest?.location))
      }
    }
    let authorityType = cluster.contains(where: \.isADFS) ? "ADFS" : "MSSTS"

    // Rules 1 and 2: what the items say by themselves.
    var ownRules: [Int: IdentityRule] = [:]
    var candidates: [String: String] = [:]  // lowercased -> spelling
    func addCandidate(_ home: String) {
      let key = home.lowercasedSharingStorage()
      candidates[key] = min(candidates[key] ?? home, home)
    }
    for sourced in cluster {
      let (rule, home): (IdentityRule, String)
      if let archived = sourced.archivedHomeAccountID {
        (rule, home) = (.archivedHomeAccountID, archived)
        // An item whose client_info names another user than its archived id gives two candidates: none guessed.
        if let clientInfo = sourced.clientInfoHomeAccountID { addCandidate(clientInfo) }
      } else if let clientInfo = sourced.clientInfoHomeAccountID {
        (rule, home) = (.clientInfo, clientInfo)
      } else {
        continue
      }
      // Sized once, at the first rule: grown item by item, the table was resized up to three times.
      if ownRules.isEmpty { ownRules.reserveCapacity(cluster.count) }
      ownRules[sourced.ordinal] = rule
      addCandidate(home)
    }
    // Rule 3: an existing unified account with the user's name in this cloud.
    var byUsername: [Int: [String]] = [:]
    for sourced in cluster {
      if let displayable = sourced.displayableUsername {
        let name = lowercaser(displayable)
        let homes = existing.homeAccountIDs(username: name, cloud: cloud)
        if !homes.isEmpty { byUsername[sourced.ordinal] = homes }
      }
    }
    if candidates.isEmpty {
      for sourced in cluster {
        for home in byUsername[sourced.ordinal] ?? [] { addCandidate(home) }
        if byUsername[sourced.ordinal]?.isEmpty == false { ownRules[sourced.ordinal] = .existingAccountByUsername }
      }
      if let other = Self.otherMemberOfTheTenant(of: candidates.values, in: cluster) {
        let list = (candidates.values + [other.home]).sorted()
        return fail(
          .conflict, "identity.conflict",
          "an existing account with the username \(username ?? "") has home account id "
            + "\(candidates.values.sorted().joined(separator: ", ")), but the item's id token shows another user of "
            + "that tenant (oid \(other.oid)): none is guessed", candidates: list)
      }
    }
    if candidates.count > 1 {
      let list = candidates.values.sorted()
      return fail(
        .conflict, "identity.conflict",
        "several candidate home account ids for one user: \(list.joined(separator: ", ")); none is guessed",
        candidates: list)
    }
    if let home = candidates.values.first {
      // Rule 3 also counts for an item whose name points at exactly this account (rules 1-2 came first).
      for sourced in cluster where ownRules[sourced.ordinal] == nil {
        if byUsername[sourced.ordinal] == [home] { ownRules[sourced.ordinal] = .existingAccountByUsername }
      }
      for sourced in cluster {
        if let homes = byUsername[sourced.ordinal], !homes.contains(where: { $0.lowercased() == home.lowercased() }) {
          outcome.diagnostics.append(
            Diagnostic(
              .note, code: "identity.username-points-elsewhere",
              "an existing account with the username \(sourced.displayableUsername ?? "") has home account id "
                + "\(homes.joined(separator: ", ")), but the ADAL item says \(home); the item's own id is used",
              at: sourced.location))
          break
        }
      }
      return succeed(home, ownRules, authorityType, "")
    }
    resolveOffline(cluster: cluster, authorityType: authorityType, fail: fail, succeed: succeed)
  }

  /// The first id token of `cluster` that shows a member of the tenant of one of `homes` (`uid.utid`, found by the
  /// username) under another object id: another user who shares the name. In its home tenant a member's `oid`
  /// is its `uid`; a guest's tenant is another one, so rule 3 still finds a guest's home account.
  private static func otherMemberOfTheTenant(
    of homes: some Collection<String>, in cluster: [SourcedItem]
  ) -> (oid: String, home: String)? {
    for sourced in cluster {
      guard let claims = sourced.item.idTokenClaims, case .member(let oid, let tid) = TenantMembership(claims)
      else { continue }
      for home in homes {
        guard let dot = home.lastIndex(of: "."), home[home.index(after: dot)...].lowercased() == tid else { continue }
        if home[..<dot].lowercased() != oid.lowercased() { return (oid, "\(oid).\(tid)") }
      }
    }
    return nil
  }

  /// `rule` for every item of `cluster`, by ordinal (the table sized once).
  private static func rules(_ cluster: [SourcedItem], _ rule: IdentityRule) -> [Int: IdentityRule] {
    var rules: [Int: IdentityRule] = [:]
    rules.reserveCapacity(cluster.count)
    for sourced in cluster { rules[sourced.ordinal] = rule }
    return rules
  }

  /// Rules 6 (ADFS `sub`) and 5 (`oid.tid` for members): nothing but the id tokens to go on.
  private func resolveOffline(
    cluster: [SourcedItem], authorityType: String,
    fail: (PlanAction, String, String, [String]) -> Void,
    succeed: (String, [Int: IdentityRule], String, String) -> Void
  ) {
    guard cluster.contains(where: { $0.item.idTokenClaims != nil }) else {
      if authorityType == "ADFS" {
        return fail(
          .skip, "identity.adfs-no-id-token",
          "an ADFS item without an id token: no sub for home_account_id and no existing account to match", [])
      }
      return fail(
        .skip, "identity.no-id-token",
        "no home account id, no client_info, no existing account with this username and no id token: "
          + "the identity cannot be found offline", [])
    }
    if authorityType == "ADFS" {
      let subs = Set(cluster.compactMap { $0.item.idTokenClaims?.sub })
      guard let sub = subs.first else {
        return fail(.skip, "identity.adfs-no-sub", "ADFS id token without a sub claim", [])
      }
      if subs.count > 1 {
        let list = subs.sorted()
        return fail(
          .conflict, "identity.conflict", "several ADFS subjects for one user: \(list.joined(separator: ", "))", list)
      }
      return succeed(sub, Self.rules(cluster, .adfsSubject), "ADFS", "ADFS: home_account_id is the id token's sub")
    }
    var derived: Set<String> = []
    var guestReason: String?
    var unknownReason: String?
    // The items of one user mostly share one id token: its membership is read, and counted, once (an item
    // whose token was seen adds nothing new to the ids or reasons).
    var seenTokens: [String] = []
    for sourced in cluster {
      guard let claims = sourced.item.idTokenClaims else { continue }
      if let token = sourced.item.idToken?.value {
        if seenTokens.contains(token) { continue }
        seenTokens.append(token)
      }
      switch TenantMembership(claims) {
      case .member(let oid, let tid): derived.insert("\(oid).\(tid)")
      case .guest(let reason): guestReason = guestReason ?? reason
      case .unknown(let reason): unknownReason = unknownReason ?? reason
      }
    }
    if let guestReason {
      return fail(.skip, "identity.guest", guestReason, [])
    }
    if derived.count > 1 {
      let list = derived.sorted()
      return fail(
        .conflict, "identity.conflict", "the id tokens derive several ids: \(list.joined(separator: ", "))", list)
    }
    guard let home = derived.first else {
      return fail(.skip, "identity.home-tenant-unknown", unknownReason ?? "home tenant not shown", [])
    }
    succeed(
      home, Self.rules(cluster, .derivedFromIDToken), "MSSTS",
      "derived: oid.tid from an id token that shows a member of its tenant (unverified)")
  }
}

/// Lowercases the names of one user's items (what names are matched on), each run of one spelling once: a
/// user's items mostly carry the same name, and a lowercasing per item was an allocation each (names are
/// rarely all lowercase). Only the last spelling is kept, so a user of many names costs what it did.
private struct NameLowercaser {
  private var last: (name: String, lowercased: String)?

  mutating func callAsFunction(_ name: String) -> String {
    if let last, last.name.hasSameUTF8(as: name) { return last.lowercased }
    let lowercased = name.lowercasedSharingStorage()
    last = (name, lowercased)
    return lowercased
  }
}
