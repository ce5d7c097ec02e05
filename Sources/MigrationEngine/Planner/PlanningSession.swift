import ADALCache
import Adal2MSALSupport
import Foundation
import UnifiedCache

/// A migration planned a part at a time, so that a large run never holds all of its items or entries.
///
/// Each `plan(adal:msal:)` plans one part: its users, their entities reconciled with the target, their skips.
/// A user must not span parts; `InputPartitions` groups inputs so that it never does. What ties users
/// together is kept here and planned by `finish`: the app metadata (one entry per client and environment,
/// over every user), the unknown-environment warnings (the first item per host over every part), and the
/// MSAL entities that belong to no account. `MigrationPlanner` is one part and `finish`, merged.
package struct PlanningSession: Sendable {
  package let options: MigrationOptions
  /// The clock reading every part decides expiry against (read once per run).
  package let plannedAt: Date
  private let existing: UnifiedCacheContents
  /// The target's accounts in key order, listed once for every part.
  private let existingAccounts: [UnifiedAccount]
  private var apps = AppMetadataCollector()
  /// The first item (in plan order) per host in no known alias group.
  private var unknownHosts: [String: SourceLocation] = [:]

  /// - Parameter existing: what the target store holds now (empty for a new store).
  package init(options: MigrationOptions = MigrationOptions(), existing: UnifiedCacheContents = UnifiedCacheContents())
  {
    self.options = options
    self.plannedAt = options.clock.now
    self.existing = existing
    existingAccounts = existing.accounts.entities
  }

  /// Whether a part plans `entity` (an MSAL input's): the entities of an account, which name its home account
  /// id. App metadata and entities without a home account id are shared by the run and planned by `finish`.
  package static func isPlannedWithAccount(_ entity: AnyUnifiedEntity) -> Bool {
    entity.kind != .appMetadata && !(entity.homeAccountID ?? "").isEmpty
  }

  /// Plans one part: the ADAL items of `adal` and the entities of `msal` that belong to an account
  /// (`isPlannedWithAccount`; the others, with the part's migrated clients, go to `finish`). The plan lists no inputs. `adal` is consumed: pass
  /// `consume` to let the decoded items go as soon as they are mapped.
  package mutating func plan(adal: consuming [ADALInput], msal: [MSALInput] = []) -> MigrationPlan {
    var skips: [PlanEntry] = []
    var diagnostics: [Diagnostic] = []
    var items: [SourcedItem] = []
    var authorities = ItemAuthorities()
    // Each item's authority and cloud (looked up in tables, so here), then the rest of it on all cores.
    var pending: [PendingItem?] = []
    pending.reserveCapacity(adal.reduce(0) { $0 + $1.items.count })
    for position in adal.indices {
      let file = adal[position].file
      diagnostics += adal[position].diagnostics.map { $0.withFile(file) }
      // Moved out of the input, not copied: a copy of an item is a retain of each of its fields, and letting
      // the input go then released them all again. Taken from the end, each into its own slot.
      var fileItems: [ADALTokenItem] = []
      swap(&fileItems, &adal[position].items)  // no second reference, even for a moment: popped, not copied
      pending += repeatElement(nil, count: fileItems.count)
      var slot = pending.count
      while let item = fileItems.popLast() {
        slot -= 1
        let (authority, cloud) = authorities.resolve(item.authority)
        pending[slot] = PendingItem(item: item, file: file, authority: authority, cloud: cloud)
      }
    }
    adal = []  // the items live on in `pending` only, so that dropping those frees them
    // Moved through, never copied: a copy of an item is a retain of each of its fields, and letting the original
    // go released them all again (about 2% of the 40k-item dry run's CPU samples, most of them on one core).
    var made = pending.orderedParallelMapTaking(minimumChunk: 512) { Optional(PendingItem.made($0)) }
    items.reserveCapacity(made.count)
    for index in made.indices {
      switch made[index].take() {
      case .sourced(let sourced): items.append(sourced)
      case .skip(let entry): skips.append(entry)
      case nil: preconditionFailure("every item is sourced or skipped")
      }
    }
    made = []  // every slot is empty now: its 40,000 slots of an item's size (at 40k items) go before planning
    items = SourcedItem.sortedInPlanOrder(items)
    for index in items.indices { items[index].ordinal = index }
    if !authorities.unknownEnvironments.isEmpty { noteUnknownEnvironments(items, authorities.unknownEnvironments) }

    let (msalInputs, knownAccounts) = known(msal, diagnostics: &diagnostics)
    var identities = IdentityResolver(existing: ExistingAccountIndex(knownAccounts)).resolve(items)
    diagnostics += identities.diagnostics
    var mapping = EntityMapper(options: options, now: plannedAt, existingAccounts: knownAccounts)
      .map(consume items, identities: identities)  // frees the items as it maps them
    diagnostics += mapping.diagnostics
    apps.merge(mapping.apps)
    // The users are taken out (the only reference to them then, sorted in place) and the rest of the
    // identities let go on another core: an identity per item and a list per user, freed on this one before.
    var planUsers: [PlanUser] = []
    swap(&planUsers, &identities.users)
    releaseInBackground(consume identities)

    // The users are put in plan order on the other core while this one reconciles and sorts the entries.
    let users = BackgroundValue { [planUsers = Handoff(consume planUsers)] in
      // Most users' sources are sorted: then the list is not copied (a `map` copied every user).
      var users = planUsers.take()
      for index in users.indices where !users[index].sources.isSorted(by: PlanSource.precedes) {
        users[index].sources.sort(by: PlanSource.precedes)
      }
      PlanOrder.sortUsers(&users)
      return users
    }
    // The skips are put in plan order on the other core while this one reconciles: the entries are then two
    // runs in order, which the plan's sort (a stable sort that finds runs) joins in one pass, where sorting
    // 14,500 skips (at 40k items) was most of the sort at the serial end of planning. The plan's sort makes the
    // same order either way. Moved, here and back (`appendMoving`), never copied: a copy of an entry retained
    // each of its fields, and the copies' originals were freed on this core.
    skips.appendMoving(&mapping.skips)
    let skipCount = skips.count
    let unsorted = Handoff(consume skips)
    let sortedSkips = BackgroundValue {
      var skips = unsorted.take()
      Self.sortSources(&skips)
      PlanOrder.sortEntries(&skips)
      return Handoff(consume skips)
    }
    var reconciler = Reconciler(store: existing, prefer: options.prefer)
    reconciler.reserveCapacity(mapping.proposals.count + skipCount)
    offer(msalInputs, to: &reconciler, knownAccounts: knownAccounts, where: Self.isPlannedWithAccount)
    // ADAL proposals are offered in (kind, key, first source) order. Their indices are sorted against a small
    // key array, and a source's description is made only for equal keys: a decorated copy of every proposal,
    // and a sorted copy of that, were two more arrays of 150,000 proposals at 100,000 items.
    Self.offerInKeyOrder(mapping.proposals, to: &reconciler)
    // The reconciled entries hold what is left of them; the rest is freed on another core, not on this one
    // while it sorts the entries (about 10 ms of the 40k-item planning's serial end).
    let offered = mapping.proposals
    mapping.proposals = []
    releaseInBackground(consume offered)

    // Built in place: each concatenation and `map` was one more copy of every entry.
    var entries = (consume reconciler).entries
    var skipsInOrder = sortedSkips.value.take()
    entries.appendMoving(&skipsInOrder)
    return plan(entries: &entries, diagnostics: diagnostics, inputs: [], users: { users.value })
  }

  /// The rest of the run, once every part is planned: the app metadata of every client that migrated in any
  /// part, the entities of `msal` (pass those of the MSAL inputs that no part planned), and the unknown-environment warnings. The plan lists `inputs`, every input of the run.
  package mutating func finish(msal: [MSALInput] = [], inputs: [PlanInput] = []) -> MigrationPlan {
    var diagnostics = unknownHosts.keys.sorted().compactMap { host in
      unknownHosts[host].map {
        Diagnostic(
          .warning, code: "engine.unknown-environment",
          "\(host) is in no known cloud alias group: its items form their own cloud", at: $0)
      }
    }
    let (msalInputs, knownAccounts) = known(msal, diagnostics: &diagnostics)
    var reconciler = Reconciler(store: existing, prefer: options.prefer)
    offer(msalInputs, to: &reconciler, knownAccounts: knownAccounts) { _ in true }
    Self.offerInKeyOrder(apps.proposals(), to: &reconciler)
    var entries = (consume reconciler).entries
    return plan(entries: &entries, diagnostics: diagnostics, inputs: inputs, users: { [] })
  }

  /// - Parameter users: the plan's users, in plan order (`PlanOrder.sortUsers`), asked for last.
  private func plan(
    entries: inout [PlanEntry], diagnostics: [Diagnostic], inputs: [PlanInput], users: () -> [PlanUser]
  ) -> MigrationPlan {
    Self.sortSources(&entries)
    var diagnostics = diagnostics
    if let library = options.targetLibrary { diagnostics += Self.sameKey(entries, in: library) }
    PlanOrder.sortEntries(&entries)
    let sorted = entries
    entries = []  // the plan holds the only reference, so that it is never copied on write
    return MigrationPlan(
      entries: sorted,
      diagnostics: diagnostics.sorted(by: PlanOrder.diagnostics),
      inputs: inputs.sorted { ($0.path, $0.role.rawValue) < ($1.path, $1.role.rawValue) },
      plannedAt: plannedAt,
      users: users(), targetLibrary: options.targetLibrary)
  }

  /// Sorts each entry's sources (`PlanSource.precedes`), which decide its place in plan order. Most entries
  /// have one source, or sorted ones: sorting those anyway made each unique, a copy of every list an entry
  /// shares (with a user, or a proposal).
  private static func sortSources(_ entries: inout [PlanEntry]) {
    for index in entries.indices where !entries[index].sources.isSorted(by: PlanSource.precedes) {
      entries[index].sources.sort(by: PlanSource.precedes)
    }
  }

  /// What the export for `library` will leave out because that library keys two of the entities the cache
  /// will hold alike (`export.same-key`), so that a dry run shows it. A user never spans two parts, and
  /// such entities belong to one user.
  private static func sameKey(_ entries: [PlanEntry], in library: MSALLibrary) -> [Diagnostic] {
    var kept = UnifiedCacheContents()
    for entry in entries where entry.action.writes || entry.action == .unchanged {
      if let entity = entry.entity { kept.upsert(entity) }
    }
    return UnifiedCacheJSONWriter.jsonObject(kept, for: library).1
  }

  /// The MSAL inputs in file order (their diagnostics added to `diagnostics`), and every account known
  /// before the ADAL items: the target's and the inputs'.
  private func known(_ msal: [MSALInput], diagnostics: inout [Diagnostic]) -> ([MSALInput], [UnifiedAccount]) {
    let inputs = msal.sorted { $0.file < $1.file }
    for input in inputs { diagnostics += input.diagnostics.map { $0.withFile(input.file) } }
    return (inputs, existingAccounts + inputs.flatMap { $0.contents.accounts.entities })
  }

  /// Keeps, per unknown host, the first item in plan order over all parts (parts hold different files, so
  /// file and item index decide).
  /// `unknown`: the environments of `items` that are in no known alias group (looked up once per environment).
  private mutating func noteUnknownEnvironments(_ items: [SourcedItem], _ unknown: Set<String>) {
    for sourced in items where !sourced.isADFS && unknown.contains(sourced.environment) {
      let location = sourced.location
      if let known = unknownHosts[sourced.environment], !Self.precedes(location, known) { continue }
      unknownHosts[sourced.environment] = location
    }
  }

  private static func precedes(_ lhs: SourceLocation, _ rhs: SourceLocation) -> Bool {
    let (leftFile, rightFile) = (lhs.file ?? "", rhs.file ?? "")
    if leftFile != rightFile { return leftFile < rightFile }
    return (lhs.itemIndex.map { max(0, $0) } ?? Int.max) < (rhs.itemIndex.map { max(0, $0) } ?? Int.max)
  }

  private func offer(
    _ inputs: [MSALInput], to reconciler: inout Reconciler, knownAccounts: [UnifiedAccount],
    where include: (AnyUnifiedEntity) -> Bool
  ) {
    let usernames = Self.usernamesByHome(knownAccounts)
    let current = Set(options.currentCaches.compactMap(FileIdentity.init))
    for input in inputs {
      let isCurrentCache = !current.isEmpty && FileIdentity(input.file).map(current.contains) == true
      for entity in input.contents.allEntities where include(entity) {
        let home = entity.homeAccountID.flatMap { $0.isEmpty ? nil : $0 }
        let source = PlanSource(file: input.file, label: "MSAL \(entity.kind.rawValue)")
        let username = home.flatMap { usernames[$0.lowercased()] }
        if case .accessToken(let token) = entity, let (code, reason) = policySkip(of: token) {
          reconciler.append(
            skip: PlanEntry(
              action: .skip, kind: .accessToken, canonicalKey: token.canonicalKey, reasonCode: code, reason: reason,
              sources: [source],
              identityRule: .unifiedInput, username: username, homeAccountID: home))
          continue
        }
        let proposal = Proposal(
          entity: entity, sources: [source], rule: .unifiedInput, username: username, homeAccountID: home,
          reasonCode: "msal.input", reason: "entity from an MSAL input")
        reconciler.offer(proposal, fromADAL: false, isCurrentCache: isCurrentCache)
      }
    }
  }

  /// Why an MSAL input's access token is not migrated, by the policy its ADAL peers follow
  /// (`EntityMapper.mapAccessTokens`): access tokens turned off, or expired at the run's clock. Nil: migrated. A
  /// token without an expiry its library reads is the library's own, and migrates.
  private func policySkip(of token: UnifiedAccessToken) -> (code: String, reason: String)? {
    if options.skipAccessTokens { return EntityMapper.accessTokensTurnedOff }
    guard let expiresOn = token.expiresOn, expiresOn <= plannedAt else { return nil }
    return (
      Self.expiredMSALAccessTokenCode,
      ReportDate.string(expiresOn, after: "access token for ", token.target, " expired at ")
    )
  }

  /// The skip code of an MSAL input's access token expired at the run's clock (a policy skip, as ADAL's).
  static let expiredMSALAccessTokenCode = "msal.expired-access-token"

  /// Offers `proposals` in (kind, key, first source) order. The indices are put in kind order first (stably),
  /// then each kind's are sorted by key, the kinds on all cores: a user's proposals come kind after kind and
  /// users in key order, so each kind's keys arrive nearly sorted, which a stable sort takes in one pass (the
  /// same order as one sort by kind and key). A source's description is made only for equal keys.
  private static func offerInKeyOrder(_ proposals: [Proposal], to reconciler: inout Reconciler) {
    var byKind: [[Int]] = Array(repeating: [], count: UnifiedEntityKind.allCases.count)
    for index in proposals.indices { byKind[proposals[index].kind.planOrder].append(index) }
    // Read in place: taken from the array, each comparison retained and released both proposals.
    let sortedByKind = proposals.withUnsafeBufferPointer { buffer in
      nonisolated(unsafe) let proposals = buffer  // read by the kinds' sorts, never written while they run
      return byKind.orderedParallelMap(minimumChunk: 1) { indices in
        indices.sorted { left, right in
          let (lhs, rhs) = (proposals[left], proposals[right])
          if lhs.canonicalKey != rhs.canonicalKey { return lhs.canonicalKey < rhs.canonicalKey }
          return (lhs.sources.first?.description ?? "") < (rhs.sources.first?.description ?? "")
        }
      }
    }
    var offerOrder: [Int] = []
    offerOrder.reserveCapacity(proposals.count)
    for indices in sortedByKind { offerOrder += indices }
    reconciler.offer(proposals, inSlotOrder: offerOrder)
  }

  private static func usernamesByHome(_ accounts: [UnifiedAccount]) -> [String: String] {
    var out: [String: String] = [:]
    for account in accounts {
      guard let name = account.username, !name.isEmpty else { continue }
      let key = account.homeAccountID.lowercased()
      out[key] = min(out[key] ?? name, name)
    }
    return out
  }
}

/// Each item's authority and cloud, parsed and looked up once per distinct authority text of a part: a dump
/// holds few (one per tenant and cloud its users sign in to), and per item `ADALAuthority(_:)` went
/// through the table all threads share (a lock and a hash) and the cloud through a second hash, on the one
/// core that feeds the rest of planning.
struct ItemAuthorities {
  typealias Resolved = (authority: ADALAuthority?, cloud: String)
  /// As many texts as `ADALAuthority`'s own table keeps: beyond that (hostile input, a distinct authority per
  /// item) each text is looked up there as before.
  static let capacity = 4_096

  /// The environments of the texts seen that are in no known alias group.
  private(set) var unknownEnvironments: Set<String> = []
  private var clouds: [String: String] = [:]
  private var known: [String: Resolved] = [:]
  /// The text before and what it resolved to: an item's neighbours in a dump often share its authority, and
  /// comparing texts is cheaper than hashing one. Not optional (binding an optional pair copied it, a retain
  /// of each string): before any text, the empty text, which is no authority.
  private var lastText = ""
  private var lastResolved: Resolved = (nil, "")

  /// The authority of `text` (nil when it is not a URL with a host) and its cloud (empty without authority).
  mutating func resolve(_ text: String) -> Resolved {
    if text == lastText { return lastResolved }
    let resolved = known[text] ?? parse(text)
    (lastText, lastResolved) = (text, resolved)
    return resolved
  }

  private mutating func parse(_ text: String) -> Resolved {
    let authority = ADALAuthority(text)
    let cloud = authority.map {
      SourcedItem.cloud(of: $0.environment, clouds: &clouds, unknown: &unknownEnvironments)
    }
    let resolved = (authority, cloud ?? "")
    if known.count < Self.capacity { known[text] = resolved }
    return resolved
  }
}

/// An input item on its way to the planner (`PlanningSession.plan`): read, with its authority (nil when the
/// archived one is not a URL with a host) and cloud, both looked up in tables; the rest is made on all cores.
private struct PendingItem: Sendable {
  /// Optional so that `made` moves it out (`take()`): bound from an enum case, the item was copied (a retain
  /// of each of its fields) and the original destroyed (about 3% of the 40k-item planning's CPU samples).
  var item: ADALTokenItem?
  var file: String
  var authority: ADALAuthority?
  var cloud: String

  /// The item made a `SourcedItem`, or a skip: one without an environment, or a tombstone.
  static func made(_ pending: consuming PendingItem) -> MadeItem {
    guard let item = pending.item.take() else { preconditionFailure("an item is made once") }
    guard let authority = pending.authority else {
      let source = PlanSource(file: pending.file, itemIndex: item.source.itemIndex, label: "ADAL \(item.kind)")
      return .skip(
        PlanEntry(
          action: .skip, reasonCode: "adal.bad-authority",
          reason: "the authority is not a URL with a host: no environment", sources: [source]))
    }
    let isTombstone = item.kind == .tombstone
    let sourced = SourcedItem(consume item, file: pending.file, authority: authority, cloud: pending.cloud)
    guard isTombstone else { return .sourced(sourced) }
    return .skip(
      .skip(
        CollectionOfOne(sourced), code: "adal.tombstone",
        reason: "a sign-out tombstone (<tombstone> refresh token), not a token", kind: .refreshToken))
  }
}

/// What `PendingItem.made` makes of an item.
private enum MadeItem: Sendable {
  case sourced(SourcedItem)
  case skip(PlanEntry)
}

extension Diagnostic {
  func withFile(_ file: String) -> Diagnostic {
    var copy = self
    copy.location = (copy.location ?? SourceLocation()).inFile(file)
    return copy
  }
}
