import ADALCache
import Adal2MSALSupport
import Foundation
import UnifiedCache

/// Plans a migration: resolves every ADAL user's identity, maps the items to unified entities and compares
/// them with the existing cache (the target store plus the MSAL inputs). Pure: reads nothing, writes nothing,
/// and gives the same plan for the same inputs in any order.
public struct MigrationPlanner: Sendable {
  public var options: MigrationOptions

  public init(options: MigrationOptions = MigrationOptions()) { self.options = options }

  /// - Parameters:
  ///   - adal: the ADAL items per input file.
  ///   - msal: unified caches to migrate along (their entities not in `existing` are `add`s).
  ///   - existing: what the target store holds now.
  ///   - inputs: the input files' digests, recorded in the plan as given (sorted).
  ///
  /// `adal` is consumed: a caller that gives up its copy (`consume`) lets the decoded items be freed as soon
  /// as they are mapped, before the plan's entries are gathered, which lowers the run's peak memory.
  public func plan(
    adal: consuming [ADALInput], msal: [MSALInput] = [], existing: UnifiedCacheContents = UnifiedCacheContents(),
    inputs: [PlanInput] = []
  ) -> MigrationPlan {
    let now = options.clock.now
    var skips: [PlanEntry] = []
    var diagnostics: [Diagnostic] = []
    var items: [SourcedItem] = []
    var clouds: [String: String] = [:]
    for input in adal {
      diagnostics += input.diagnostics.map { $0.withFile(input.file) }
      for item in input.items {
        guard let sourced = SourcedItem(item, file: input.file, clouds: &clouds) else {
          let source = PlanSource(file: input.file, itemIndex: item.source.itemIndex, label: "ADAL \(item.kind)")
          skips.append(
            PlanEntry(
              action: .skip, reasonCode: "adal.bad-authority",
              reason: "the authority is not a URL with a host: no environment", sources: [source]))
          continue
        }
        if item.kind == .tombstone {
          skips.append(
            .skip(
              [sourced], code: "adal.tombstone",
              reason: "a sign-out tombstone (<tombstone> refresh token), not a token", kind: .refreshToken))
          continue
        }
        items.append(sourced)
      }
    }
    adal = []  // the items live on in `items` only, so that dropping those frees them
    items = SourcedItem.sortedInPlanOrder(items)
    for index in items.indices { items[index].ordinal = index }
    diagnostics += unknownEnvironments(items)

    let msalInputs = msal.sorted { $0.file < $1.file }
    for input in msalInputs { diagnostics += input.diagnostics.map { $0.withFile(input.file) } }
    let knownAccounts = existing.accounts.entities + msalInputs.flatMap { $0.contents.accounts.entities }
    let identities = IdentityResolver(existing: ExistingAccountIndex(knownAccounts)).resolve(items)
    diagnostics += identities.diagnostics
    var mapping = EntityMapper(options: options, now: now, existingAccounts: knownAccounts)
      .map(consume items, identities: identities)  // frees the items as it maps them
    diagnostics += mapping.diagnostics

    var reconciler = Reconciler(store: existing, prefer: options.prefer)
    let usernames = Self.usernamesByHome(knownAccounts)
    for input in msalInputs {
      for entity in input.contents.allEntities {
        let home = entity.homeAccountID.flatMap { $0.isEmpty ? nil : $0 }
        let proposal = Proposal(
          entity: entity, sources: [PlanSource(file: input.file, label: "MSAL \(entity.kind.rawValue)")],
          rule: .unifiedInput, username: home.flatMap { usernames[$0.lowercased()] }, homeAccountID: home,
          reasonCode: "msal.input", reason: "entity from an MSAL input")
        reconciler.offer(proposal, fromADAL: false)
      }
    }
    // ADAL proposals are offered in (kind, key, first source) order. Their indices are sorted against a small
    // key array, and a source's description is made only for equal keys: a decorated copy of every proposal,
    // and a sorted copy of that, were two more arrays of 150,000 proposals at 100,000 items.
    let keys = mapping.proposals.map { (order: $0.entity.kind.planOrder, key: $0.canonicalKey) }
    let offerOrder = mapping.proposals.indices.sorted { left, right in
      if keys[left] != keys[right] { return keys[left] < keys[right] }
      return (mapping.proposals[left].sources.first?.description ?? "")
        < (mapping.proposals[right].sources.first?.description ?? "")
    }
    for index in offerOrder { reconciler.offer(mapping.proposals[index], fromADAL: true) }
    mapping.proposals = []  // the reconciled entries hold what is left of them

    // Built in place: each concatenation and `map` was one more copy of every entry.
    var entries = (consume reconciler).entries
    entries += skips
    entries += mapping.skips
    for index in entries.indices { entries[index].sources.sort(by: PlanSource.precedes) }
    return MigrationPlan(
      entries: PlanOrder.sortedEntries(entries),
      diagnostics: diagnostics.sorted(by: PlanOrder.diagnostics),
      inputs: inputs.sorted { ($0.path, $0.role.rawValue) < ($1.path, $1.role.rawValue) },
      plannedAt: now,
      users: PlanOrder.sorted(
        identities.users.map { user in
          var user = user
          user.sources.sort(by: PlanSource.precedes)
          return user
        }, by: PlanOrder.users))
  }

  /// A warning per host in no known alias group (ADFS hosts aside): reported, never guessed into a cloud.
  private func unknownEnvironments(_ items: [SourcedItem]) -> [Diagnostic] {
    var first: [String: SourcedItem] = [:]
    for sourced in items where !sourced.isADFS && CloudGroups.knownGroup(of: sourced.environment) == nil {
      if first[sourced.environment] == nil { first[sourced.environment] = sourced }
    }
    return first.keys.sorted().compactMap { host in
      first[host].map {
        Diagnostic(
          .warning, code: "engine.unknown-environment",
          "\(host) is in no known cloud alias group: its items form their own cloud", at: $0.location)
      }
    }
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

extension Diagnostic {
  func withFile(_ file: String) -> Diagnostic {
    var copy = self
    copy.location = (copy.location ?? SourceLocation()).inFile(file)
    return copy
  }
}
