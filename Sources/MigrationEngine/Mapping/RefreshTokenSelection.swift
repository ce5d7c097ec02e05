import ADALCache
import Adal2MSALSupport
import Foundation
import UnifiedCache

/// Collapses refresh-token items into unified RefreshToken entities (pain points 8 and 9).
///
/// - Per app: one RefreshToken keyed by the client id, from the user's MRRT and single-resource items of that
///   app in that cloud; the resource never splits it.
/// - Per family: one family RefreshToken (`family_id` kept, keyed by the family id), from the user's FRT
///   (`foci-<id>`) items, or, when there is none, from the app items that carry the family id.
/// Duplicates are decided by: family > multi-resource > single-resource, then newest, then the secret's
/// fingerprint; every losing item is a skip entry that names the winner.
struct RefreshTokenSelection {
  struct Selected {
    var winner: SourcedItem
    var losers: [SourcedItem]
    var clientID: String
    var familyID: String?
  }

  static func rank(_ kind: ADALTokenKind) -> Int {
    switch kind {
    case .familyRefreshToken: 0
    case .multiResourceRefreshToken: 1
    case .singleResourceRefreshAndAccess: 2
    case .accessToken, .tombstone: 3
    }
  }

  /// Orders candidates best first.
  static func ordered(_ items: [SourcedItem]) -> [SourcedItem] {
    // One candidate (most users' case) is in order already: sorting would copy it.
    guard items.count > 1 else { return items }
    return items.sorted { lhs, rhs in
      let (left, right) = (rank(lhs.item.kind), rank(rhs.item.kind))
      if left != right { return left < right }
      if lhs.recency != rhs.recency { return lhs.recency > rhs.recency }
      if lhs.refreshDigest != rhs.refreshDigest {
        // As the fingerprints' texts order: none (the empty text) first.
        guard let left = lhs.refreshDigest else { return true }
        guard let right = rhs.refreshDigest else { return false }
        return left < right
      }
      return lhs.ordinal < rhs.ordinal
    }
  }

  static func familyID(of item: ADALTokenItem) -> String? {
    if case .familyRefreshToken(let family) = item.kind { return family }
    guard let family = item.familyID?.trimmedWhitespace(), !family.isEmpty else { return nil }
    return family
  }

  /// The app items (MRRT, RT+AT) of one user and cloud, per lowercased client id.
  static func perApp(_ items: [SourcedItem]) -> [(client: String, selected: Selected)] {
    let byClient = items.grouped { sourced -> String? in
      let kind = sourced.item.kind
      guard kind == .multiResourceRefreshToken || kind == .singleResourceRefreshAndAccess else { return nil }
      return sourced.item.clientID.lowercasedSharingStorage()
    } key: {
      $0
    }
    return byClient.compactMap { client, members in
      let ranked = ordered(members)
      guard let winner = ranked.first else { return nil }
      return (client, Selected(winner: winner, losers: Array(ranked.dropFirst()), clientID: winner.item.clientID))
    }
  }

  /// The app an FRT belongs to: the sibling app item of the same family whose refresh token is the FRT's
  /// (ADAL writes the FRT as a copy of the app's MRRT), else the newest sibling app item, else `fallback`.
  static func owningClient(of frt: SourcedItem, siblings: [SourcedItem], fallback: String?) -> String? {
    let family = familyID(of: frt.item)
    // Lazily filtered: the newest is found without an array of the members.
    let members = siblings.lazy.filter { familyID(of: $0.item) == family && !isFamilyItem($0.item) }
    if let same = members.filter({ $0.refreshDigest == frt.refreshDigest }).newest {
      return same.item.clientID
    }
    return members.newest?.item.clientID ?? fallback
  }

  static func isFamilyItem(_ item: ADALTokenItem) -> Bool {
    if case .familyRefreshToken = item.kind { return true }
    return false
  }
}
