import ADALCache
import Adal2MSALSupport
import Foundation

/// An ADAL item with what the planner needs around it: its input file, its place in a deterministic order,
/// its cloud and how recent it is.
struct SourcedItem: Sendable {
  let item: ADALTokenItem
  let file: String
  /// The environment (host) of the archived authority.
  let environment: String
  /// The cloud: the alias group name of `environment` (the host itself when it is in no known group).
  let cloud: String
  /// Position in the planner's sorted order; all tie-breaks that are not content based end here.
  var ordinal: Int = 0
  /// The newest of the item's dates (`expiresOn`, `cachedAt`, the keychain `mdat`): "newest" for duplicates.
  let recency: Date
  /// The refresh token's fingerprint (empty without one).
  let refreshFingerprint: String
  /// A content-based order key: file, item index, then the item's own fields (computed once: it hashes).
  private let sortKey: [String]

  init?(_ item: ADALTokenItem, file: String) {
    guard let environment = item.environment else { return nil }
    self.item = item
    self.file = file
    self.environment = environment
    self.cloud = CloudGroups.group(of: environment)
    recency = [item.expiresOn, item.cachedAt, item.source.modified].compactMap { $0 }.max() ?? .distantPast
    refreshFingerprint = item.refreshToken?.fingerprint ?? ""
    displayableUsername = Self.displayableUsername(item)
    normalizedUsername = displayableUsername?.lowercased()
    let index = item.source.itemIndex.map { PlanOrder.sortable($0) } ?? "~"
    sortKey = [
      file, index, item.kind.description, item.clientID, item.authority, item.resource ?? "", refreshFingerprint,
      item.accessToken?.fingerprint ?? "", item.idToken?.fingerprint ?? "",
      item.expiresOn.map { String($0.timeIntervalSince1970) } ?? "",
    ]
  }

  var isADFS: Bool { item.tenant?.lowercased() == "adfs" }

  /// The name shown as the account's username: a displayable claim (`preferred_username`, `upn`, `email`,
  /// `unique_name`, pain point 6), else the user id ADAL kept. Original case.
  let displayableUsername: String?
  /// `displayableUsername` lowercased: what user names are matched on.
  let normalizedUsername: String?

  private static func displayableUsername(_ item: ADALTokenItem) -> String? {
    if let claims = item.idTokenClaims,
      let name = claims.preferredUsername ?? claims.upn ?? claims.email ?? claims.uniqueName
    {
      return name
    }
    return item.userID
  }

  var planSource: PlanSource {
    var label = "ADAL \(item.kind)"
    if let resource = item.resource, item.accessToken != nil { label += " \(resource)" }
    return PlanSource(file: file, itemIndex: item.source.itemIndex, label: label)
  }

  var location: SourceLocation { SourceLocation(file: file, itemIndex: item.source.itemIndex) }

  /// A content-based order: file, item index, then the item's own fields, so shuffled inputs sort the same.
  static func precedes(_ lhs: SourcedItem, _ rhs: SourcedItem) -> Bool {
    lhs.sortKey.lexicographicallyPrecedes(rhs.sortKey)
  }

}

extension Array where Element == SourcedItem {
  /// The newest item: latest `recency`, then the earliest in the planner's order.
  var newest: SourcedItem? {
    self.min { lhs, rhs in
      lhs.recency != rhs.recency ? lhs.recency > rhs.recency : lhs.ordinal < rhs.ordinal
    }
  }
}
