import Adal2MSALSupport
import UnifiedCache

/// Assigns every plan entry to one report section: the user whose home account id it carries, the
/// unresolved user whose items it reports, or "other".
enum ReportSections {
  struct Section {
    var user: PlanUser
    /// Indices into the plan's entries (copying entries into sections was most of the grouping's cost).
    var entries: [Int]
    /// What places the section in the report: the user it was made for, or the entry of an account only the
    /// MSAL inputs know (those sections follow every user's).
    var origin: Origin
  }

  enum Origin: Sendable {
    /// A position in the plan's users.
    case user(Int)
    /// A position in the plan's entries.
    case entry(Int)
  }

  static func group(_ plan: MigrationPlan) -> (users: [Section], others: [Int]) {
    // Users are read in place (`plan.users[position]`) and tables sized up front: at 100,000 items the copies
    // and the rehashing were most of this serial part of the report.
    var sections: [Section] = []
    sections.reserveCapacity(plan.users.count)
    var byHome: [String: Int] = [:]
    byHome.reserveCapacity(plan.users.count)
    for position in plan.users.indices {
      if plan.users[position].status == .resolved,
        let home = plan.users[position].homeAccountID?.lowercasedSharingStorage()
      {
        if let index = byHome[home] {
          // The same account met in several clusters (one per tenant): one section, the first rule in order.
          merge(plan.users[position], into: &sections[index].user)
          continue
        }
        byHome[home] = sections.count
      }
      sections.append(Section(user: plan.users[position], entries: [], origin: .user(position)))
    }
    // First matching section for each way an entry can be filed (indexes, not scans: a large plan has
    // many sections).
    struct UnresolvedKey: Hashable {
      var sources: [PlanSource]
      var reasonCode: String
    }
    var unresolved: [UnresolvedKey: Int] = [:]
    var resolvedByName: [String: Int] = [:]
    resolvedByName.reserveCapacity(plan.users.count)
    func register(at position: Int) {
      if sections[position].user.status != .resolved {
        let key = UnresolvedKey(
          sources: sections[position].user.sources, reasonCode: sections[position].user.reasonCode)
        if unresolved[key] == nil { unresolved[key] = position }
        return
      }
      func file(_ name: String) {
        let key = name.lowercasedSharingStorage()
        if resolvedByName[key] == nil { resolvedByName[key] = position }
      }
      if let name = sections[position].user.username { file(name) }
      for name in sections[position].user.otherUsernames { file(name) }
    }
    for position in sections.indices { register(at: position) }
    var others: [Int] = []
    // Fields are read in place (`entries[position].x`): binding each entry to a local copied all of it.
    let entries = plan.entries
    // The lookups in the tables as they stand now are made on all cores (hashing is most of the work). The
    // loop below only adds sections for accounts no user has, so a home found here files the entry the same;
    // an entry whose home is not found is looked up again, in order, before its unresolved-user section.
    let (initialHomes, initialUnresolved) = (byHome, unresolved)
    // Plain values, no strings: at 150,000 entries, copying and freeing a lowercased home per entry was a
    // fifth of the serial loop below. The rare entry not filed by its home lowercases it again there.
    struct Found: Sendable {
      var section: Int?
      var isHomeSection: Bool
    }
    let found = Array(entries.indices).orderedParallelMap(minimumChunk: 4096) { (position: Int) -> Found in
      if let home = entries[position].homeAccountID?.lowercasedSharingStorage(), let index = initialHomes[home] {
        return Found(section: index, isHomeSection: true)
      }
      let key = UnresolvedKey(sources: entries[position].sources, reasonCode: entries[position].reasonCode)
      return Found(section: initialUnresolved[key], isHomeSection: false)
    }
    // Each section's list sized for the entries found for it above: grown one by one, a section of six entries
    // was three allocations.
    var expected = [Int](repeating: 0, count: sections.count)
    for position in found.indices { if let section = found[position].section { expected[section] += 1 } }
    for index in sections.indices where expected[index] > 0 { sections[index].entries.reserveCapacity(expected[index]) }
    for position in entries.indices {
      let (section, isHomeSection) = (found[position].section, found[position].isHomeSection)
      let home = isHomeSection ? nil : entries[position].homeAccountID?.lowercasedSharingStorage()
      if let index = isHomeSection ? section : home.flatMap({ byHome[$0] }) ?? section {
        sections[index].entries.append(position)
      } else if entries[position].homeAccountID == nil,
        let name = entries[position].username?.lowercasedSharingStorage(),
        let index = resolvedByName[name]
      {
        // An item skipped before identity resolution (a tombstone): filed under the user it names.
        sections[index].entries.append(position)
      } else if let key = home, let home = entries[position].homeAccountID, !home.isEmpty {
        // An account only the MSAL inputs know.
        byHome[key] = sections.count
        let user = PlanUser(
          username: entries[position].username,
          cloud: EnvironmentAliases.group(forHost: entries[position].entity?.environment ?? "").name,
          status: .resolved, homeAccountID: home, rule: .unifiedInput, reasonCode: "identity.unified-input",
          reason: "an account of the MSAL inputs")
        sections.append(Section(user: user, entries: [position], origin: .entry(position)))
        register(at: sections.count - 1)
      } else {
        others.append(position)
      }
    }
    return (sections, others)
  }

  /// Folds `user` (a later cluster of the same account) into `merged`: its other names, the earlier identity
  /// rule in docs/mapping.md's order, and its sources.
  private static func merge(_ user: PlanUser, into merged: inout PlanUser) {
    merged.otherUsernames = Array(
      Set(merged.otherUsernames + user.otherUsernames + [user.username].compactMap { $0 })
        .subtracting([merged.username].compactMap { $0 })
    ).sorted()
    if let rule = user.rule, let old = merged.rule, rule.order < old.order { merged.rule = rule }
    merged.sources = (merged.sources + user.sources).sorted(by: PlanSource.precedes)
  }
}

extension IdentityRule {
  /// The rule's place in docs/mapping.md's order (archived home account id first).
  var order: Int { IdentityRule.allCases.firstIndex(of: self) ?? Int.max }
}
