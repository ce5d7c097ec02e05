import ADALCache
import Adal2MSALSupport
import Foundation

/// An ADAL item with what the planner needs around it: its input file, its place in a deterministic order,
/// its cloud and how recent it is.
///
/// The planner copies, sorts and groups items many times: everything but `ordinal` sits in one shared,
/// immutable box, so a copy is one reference count and the derived fields are computed once.
struct SourcedItem: Sendable {
  private let core: Core
  /// Position in the planner's sorted order; all tie-breaks that are not content based end here.
  var ordinal: Int = 0

  private final class Core: Sendable {
    let item: ADALTokenItem
    let file: String
    let environment: String
    let cloud: String
    let isADFS: Bool
    let tenant: String?
    let recency: Date
    let refreshDigest: UInt64?
    let displayableUsername: String?
    let oid: String?
    let tid: String?
    let planSource: PlanSource
    let archivedHomeAccountID: String?
    let clientInfoHomeAccountID: String?

    /// `item` is moved in (its fields are read first).
    init(item: consuming ADALTokenItem, file: String, authority: ADALAuthority, cloud: String) {
      self.file = file
      environment = authority.environment
      self.cloud = cloud
      tenant = authority.tenant
      isADFS = authority.tenant?.lowercasedSharingStorage() == "adfs"
      // Pairwise, not a loop over an array of the three: that array was an allocation per item.
      func later(_ current: Date?, _ date: Date?) -> Date? {
        guard let current else { return date }
        guard let date else { return current }
        return current < date ? date : current
      }
      self.recency = later(later(item.expiresOn, item.cachedAt), item.source.modified) ?? .distantPast
      refreshDigest = item.refreshToken?.digestPrefix
      oid = item.idTokenClaims?.oid
      tid = item.idTokenClaims?.tid
      displayableUsername = SourcedItem.displayableUsername(item)
      // One interpolation: appending the resource to a label made first was a second string per token.
      let label =
        if let resource = item.resource, item.accessToken != nil { "ADAL \(item.kind) \(resource)" } else {
          "ADAL \(item.kind)"
        }
      planSource = PlanSource(file: file, itemIndex: item.source.itemIndex, label: label)
      archivedHomeAccountID = IdentityEvidence.archivedHomeAccountID(item)
      clientInfoHomeAccountID = IdentityEvidence.clientInfoHomeAccountID(item)
      self.item = consume item
    }
  }

  /// nil when the authority is not a URL with a host (no environment). `clouds` memoizes the alias group of
  /// each environment over a run; `unknown` collects the environments in no known alias group.
  init?(_ item: consuming ADALTokenItem, file: String, clouds: inout [String: String], unknown: inout Set<String>) {
    guard let authority = ADALAuthority(item.authority) else { return nil }
    let cloud = Self.cloud(of: authority.environment, clouds: &clouds, unknown: &unknown)
    self.init(item, file: file, authority: authority, cloud: cloud)
  }

  /// An item whose authority (`ADALAuthority(item.authority)`) and cloud (`cloud(of:clouds:unknown:)`) are
  /// known.
  init(_ item: consuming ADALTokenItem, file: String, authority: ADALAuthority, cloud: String) {
    core = Core(item: consume item, file: file, authority: authority, cloud: cloud)
  }

  /// The cloud of `environment`, remembered in `clouds`; an environment in no known alias group is added to
  /// `unknown`.
  static func cloud(of environment: String, clouds: inout [String: String], unknown: inout Set<String>) -> String {
    if let known = clouds[environment] { return known }
    let group = CloudGroups.lookUp(environment)
    clouds[environment] = group.name
    if !group.isKnown { unknown.insert(environment) }
    return group.name
  }

  /// Borrowed, not copied: the item is large, and the planner reads its fields many times.
  var item: ADALTokenItem {
    _read { yield core.item }
  }
  var file: String { core.file }
  /// The environment (host) of the archived authority.
  var environment: String { core.environment }
  /// The cloud: the alias group name of `environment` (the host itself when it is in no known group).
  var cloud: String { core.cloud }
  /// The archived authority's tenant (`ADALTokenItem.tenant`, computed once).
  var tenant: String? { core.tenant }
  var isADFS: Bool { core.isADFS }
  /// The newest of the item's dates (`expiresOn`, `cachedAt`, the keychain `mdat`): "newest" for duplicates.
  var recency: Date { core.recency }
  /// The refresh token's fingerprint as its digest prefix (nil without one), which orders and compares as the
  /// fingerprint's text does (`sha256:` and its fixed-width hex; none, the empty text, first), without the
  /// text: that was a string per item.
  var refreshDigest: UInt64? { core.refreshDigest }
  /// The name shown as the account's username: a displayable claim (`preferred_username`, `upn`, `email`,
  /// `unique_name`, pain point 6), else the user id ADAL kept. Original case.
  var displayableUsername: String? { core.displayableUsername }
  /// `displayableUsername` lowercased: what user names are matched on. Made when asked (an allocation when the
  /// name has capitals): the identity resolver lowercases a user's names once per spelling.
  var normalizedUsername: String? { displayableUsername?.lowercasedSharingStorage() }
  /// What the item says about its home account id by itself (`IdentityEvidence`, rules 1 and 2), read once:
  /// user clusters and identity resolution both ask.
  var archivedHomeAccountID: String? { core.archivedHomeAccountID }
  var clientInfoHomeAccountID: String? { core.clientInfoHomeAccountID }
  /// The id token's `oid` and `tid` claims (claims are looked up by a scan, so these are read once).
  var oid: String? { core.oid }
  var tid: String? { core.tid }

  fileprivate static func displayableUsername(_ item: ADALTokenItem) -> String? {
    if let claims = item.idTokenClaims,
      let name = claims.preferredUsername ?? claims.upn ?? claims.email ?? claims.uniqueName
    {
      return name
    }
    return item.userID
  }

  /// The item as plan entries name it (`ADAL AT https://graph.windows.net`): made once, shared by every entry
  /// that lists the item (a label per entry was one more string per source).
  var planSource: PlanSource { core.planSource }

  var location: SourceLocation { SourceLocation(file: file, itemIndex: item.source.itemIndex) }

  /// `items` in a content-based order: file, item index, then the item's own fields, so shuffled inputs sort
  /// the same. File and index decide nearly every pair, so the fields' key (`sortKey`) is made only for a
  /// pair they leave tied: made for every item up front, the keys were ~800 bytes an item while sorting
  /// (800 MB at a million items, on top of all the decoded inputs).
  static func sortedInPlanOrder(_ items: [SourcedItem]) -> [SourcedItem] {
    // The index as `sortKey` orders it: negative ones as 0, a missing one last.
    let positions = items.map { (file: $0.file, index: $0.item.source.itemIndex.map { Swift.max(0, $0) }) }
    func precedes(_ left: Int, _ right: Int) -> Bool {
      let (lhs, rhs) = (positions[left], positions[right])
      if lhs.file != rhs.file { return lhs.file < rhs.file }
      switch (lhs.index, rhs.index) {
      case (let lhsIndex?, let rhsIndex?) where lhsIndex != rhsIndex: return lhsIndex < rhsIndex
      case (.some, .none): return true
      case (.none, .some): return false
      default: return items[left].sortKey.lexicographicallyPrecedes(items[right].sortKey)
      }
    }
    // Items come in file order, each file's in index order: then the (stable) sort would keep them as they are.
    if items.indices.dropFirst().allSatisfy({ !precedes($0, $0 - 1) }) { return items }
    return items.indices.sorted(by: precedes).map { items[$0] }
  }

  private var sortKey: [String] {
    let index = item.source.itemIndex.map { PlanOrder.sortable($0) } ?? "~"
    return [
      file, index, item.kind.description, item.clientID, item.authority, item.resource ?? "",
      item.refreshToken?.fingerprint ?? "",
      item.accessToken?.fingerprint ?? "", item.idToken?.fingerprint ?? "",
      item.expiresOn.map { String($0.timeIntervalSince1970) } ?? "",
    ]
  }

}

extension Sequence where Element == SourcedItem {
  /// The newest item: latest `recency`, then the earliest in the planner's order. On a `lazy.filter` of items,
  /// the newest of those, without an array of them.
  var newest: SourcedItem? {
    self.min { lhs, rhs in
      lhs.recency != rhs.recency ? lhs.recency > rhs.recency : lhs.ordinal < rhs.ordinal
    }
  }
}

extension Array where Element == SourcedItem {
  /// The items that have `parts` grouped by `key(parts)`, in key order, each group in the items' order and
  /// named by its first item's parts.
  ///
  /// A user's items mostly form one group (one realm, one client): when all their `parts` are equal, which
  /// makes their keys equal, no key is made and the group is the items themselves, with no table and no array.
  func grouped<Parts: Equatable>(
    by parts: (SourcedItem) -> Parts?, key: (Parts) -> String
  ) -> [(parts: Parts, members: [SourcedItem])] {
    var shared: Parts?
    var allHaveParts = true
    var oneGroup = true
    for sourced in self {
      guard let own = parts(sourced) else {
        allHaveParts = false
        continue
      }
      if let shared, shared != own {
        oneGroup = false
        break
      }
      shared = shared ?? own
    }
    if oneGroup {
      guard let shared else { return [] }
      return [(shared, allHaveParts ? self : filter { parts($0) != nil })]
    }
    var byKey: [String: (parts: Parts, members: [SourcedItem])] = [:]
    for sourced in self {
      guard let own = parts(sourced) else { continue }
      byKey[key(own), default: (own, [])].members.append(sourced)
    }
    return byKey.sorted { $0.key < $1.key }.map(\.value)
  }
}
