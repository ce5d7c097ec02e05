import ADALCache
import Adal2MSALSupport
import UnifiedCache

/// Groups the inputs of a run into parts that no user spans, for a `PlanningSession` that plans, writes and
/// reports a part at a time.
///
/// Each input (an ADAL file with the MSAL entities its dump holds, or the entities of one account in an
/// MSAL file) gives the identity keys of what it holds: user names, object ids, and every home account id
/// its items could resolve to (archived, `client_info`, `oid.tid`, an ADFS `sub`, and, once the target is
/// known, the existing accounts of its user names). Inputs that share a key are in one part (union-find),
/// so two items that could be one user, or write one cache key, are always planned together. The keys are
/// wider than the planner's clusters (clouds are ignored): a part may hold more than one user, never less.
public struct InputPartitions: Sendable {
  private var keysByInput: [[String]] = []
  private var itemCounts: [Int] = []

  public init() {}

  /// The number of inputs added.
  public var count: Int { keysByInput.count }

  /// Adds an input with its keys (`keys(of:unified:)`, `keys(ofAccount:)`) and its number of ADAL items;
  /// returns its number (inputs are numbered from 0 in the order they are added).
  @discardableResult
  public mutating func add(keys: [String], items: Int) -> Int {
    keysByInput.append(keys)
    itemCounts.append(items)
    return keysByInput.count - 1
  }

  /// The keys of an ADAL file's items and of the MSAL entities its dump holds.
  public static func keys(of input: ADALInput, unified: MSALInput?) -> [String] {
    var keys: Set<String> = []
    for item in input.items {
      if let name = item.userID?.trimmedWhitespaceAndNewlines().lowercased(), !name.isEmpty {
        keys.insert("name|" + name)
      }
      if let home = IdentityEvidence.archivedHomeAccountID(item) { keys.insert("home|" + home.lowercased()) }
      if let home = IdentityEvidence.clientInfoHomeAccountID(item) { keys.insert("home|" + home.lowercased()) }
      guard let claims = item.idTokenClaims else { continue }
      for name in [claims.preferredUsername, claims.upn, claims.email, claims.uniqueName].compactMap({ $0 }) {
        keys.insert("name|" + name.trimmedWhitespaceAndNewlines().lowercased())
      }
      if let oid = claims.oid?.lowercased() {
        keys.insert("oid|" + oid)
        if let tid = claims.tid?.lowercased() { keys.insert("home|\(oid).\(tid)") }
      }
      if let sub = claims.sub?.lowercased() { keys.insert("home|" + sub) }
    }
    if let unified { keys.formUnion(Self.keys(ofAccount: unified.contents.allEntities)) }
    return keys.sorted()
  }

  /// The keys of MSAL entities: their home account ids, and their accounts' user names.
  public static func keys(ofAccount entities: [AnyUnifiedEntity]) -> [String] {
    var keys: Set<String> = []
    for entity in entities {
      if let home = entity.homeAccountID, !home.isEmpty { keys.insert("home|" + home.lowercased()) }
      if case .account(let account) = entity, let name = account.username?.trimmedWhitespaceAndNewlines(), !name.isEmpty
      {
        keys.insert("name|" + name.lowercased())
      }
    }
    return keys.sorted()
  }

  /// The parts: input numbers, each part's in increasing order, parts in the order of their first input.
  /// Consecutive parts are joined while their items stay within `maxItems` (fewer, larger parts plan on all
  /// cores better); a part larger than that stays whole. `existing` (the target) ties user names to the
  /// home account ids of its accounts (identity rule 3).
  public func parts(existing: UnifiedCacheContents, maxItems: Int) -> [[Int]] {
    var homesByName: [String: [String]] = [:]
    for account in existing.accounts.entities {
      guard let name = account.username?.trimmedWhitespaceAndNewlines().lowercased(), !name.isEmpty,
        !account.homeAccountID.isEmpty
      else { continue }
      homesByName["name|" + name, default: []].append("home|" + account.homeAccountID.lowercased())
    }
    var sets = DisjointSets(count: keysByInput.count)
    var firstByKey: [String: Int] = [:]
    func link(_ key: String, _ input: Int) {
      if let first = firstByKey[key] { sets.union(first, input) } else { firstByKey[key] = input }
    }
    for (input, keys) in keysByInput.enumerated() {
      for key in keys {
        link(key, input)
        for home in homesByName[key] ?? [] { link(home, input) }
      }
    }
    // Components in the order of their first input (union by index keeps the smallest as the root).
    var components: [Int: [Int]] = [:]
    var roots: [Int] = []
    for input in keysByInput.indices {
      let root = sets.find(input)
      if components[root] == nil { roots.append(root) }
      components[root, default: []].append(input)
    }
    var parts: [[Int]] = []
    var current: [Int] = []
    var currentItems = 0
    for root in roots {
      let inputs = components[root] ?? []
      let items = inputs.reduce(0) { $0 + itemCounts[$1] }
      if !current.isEmpty, currentItems + items > maxItems {
        parts.append(current)
        (current, currentItems) = ([], 0)
      }
      current += inputs
      currentItems += items
    }
    if !current.isEmpty { parts.append(current) }
    return parts.map { $0.sorted() }
  }
}

extension MSALInput {
  /// The accounts of this input (lowercased home account ids, sorted) with the keys that tie each to other
  /// inputs: one `InputPartitions` input per account, so that an MSAL file's users can be planned apart.
  public var accountKeys: [(home: String, keys: [String])] {
    let byHome = Dictionary(grouping: contents.allEntities.filter(PlanningSession.isPlannedWithAccount)) {
      ($0.homeAccountID ?? "").lowercased()
    }
    return byHome.keys.sorted().map { ($0, InputPartitions.keys(ofAccount: byHome[$0] ?? [])) }
  }

  /// What a part plans of this input: the entities of the accounts `homes` (lowercased home account ids).
  /// The diagnostics are left to `sharedEntities`, so that a run reports them once.
  public func entities(ofAccounts homes: Set<String>) -> MSALInput {
    filtered(keepingDiagnostics: false) {
      PlanningSession.isPlannedWithAccount($0) && homes.contains(($0.homeAccountID ?? "").lowercased())
    }
  }

  /// What `PlanningSession.finish` plans of this input: app metadata and entities of no account.
  public func sharedEntities(keepingDiagnostics: Bool) -> MSALInput {
    filtered(keepingDiagnostics: keepingDiagnostics) { !PlanningSession.isPlannedWithAccount($0) }
  }
}
