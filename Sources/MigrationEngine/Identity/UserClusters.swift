import Adal2MSALSupport
import Foundation

/// Groups ADAL items into users, per cloud: items with the same `oid`, the same archived home account id or
/// the same `client_info` are one user (pain points 12 and 17: one user across formats and UPN changes). An
/// item without an `oid` (no id token) joins the one user whose items carry its user name in that cloud, or
/// forms a user with the other items of that name. Items that name nobody stay alone.
enum UserClusters {
  /// Clusters of indices into `items`, each sorted, ordered by their first index.
  static func of(_ items: [SourcedItem]) -> [[Int]] {
    // Every item's keys, made and hashed on all cores: linking then hashes only their hashes.
    let memos = (0..<activeCores).map { _ in LastKeys() }
    let keys = items.orderedParallelMap(minimumChunk: 1_024, lanes: memos) { IdKeys($1, last: $0) }
    var sets = DisjointSets(count: items.count)
    var firstByKey: [HashedKey: Int] = [:]
    firstByKey.reserveCapacity(items.count)
    func link(_ key: HashedKey, _ index: Int) {
      if let first = firstByKey[key] { sets.union(first, index) } else { firstByKey[key] = index }
    }
    for (index, item) in keys.enumerated() {
      if let oid = item.oid { link(oid, index) }
      if let home = item.archivedHome { link(home, index) }
      if let home = item.clientInfoHome { link(home, index) }
    }
    releaseInBackground(consume keys)
    // Items without an oid: by user name, attached to the single oid-user of that name if there is one.
    // Names tie only such items: their keys are made when there is one (most runs have none).
    if items.contains(where: { $0.oid == nil && $0.displayableUsername != nil }) {
      let names = items.orderedParallelMap(minimumChunk: 1_024) { NameKeys($0) }
      // Per name, that user's root, or `nil` once a second one shows (a set per name was an allocation each).
      var oidRootByName: [HashedKey: Int?] = [:]
      for (index, item) in names.enumerated() where items[index].oid != nil {
        guard let name = item.name else { continue }
        let root = sets.find(index)
        if let known = oidRootByName[name] {
          if known != root { oidRootByName[name] = .some(nil) }
        } else {
          oidRootByName[name] = root
        }
      }
      for (index, item) in names.enumerated() where items[index].oid == nil {
        guard let name = item.name, let nameLink = item.nameLink else { continue }
        link(nameLink, index)
        if let root = oidRootByName[name] ?? nil { sets.union(root, index) }
      }
      releaseInBackground(consume names)
    }
    // A set's root is its smallest index (`DisjointSets` unions by index): listed by root, in index order,
    // the clusters come sorted and in the order of their first index, with no table and no sort.
    // Each cluster's list is sized once, from a count of its items (grown by appending, most took three).
    let roots = items.indices.map { sets.find($0) }
    var sizes = [Int](repeating: 0, count: items.count)
    for root in roots { sizes[root] += 1 }
    var byRoot = [[Int]](repeating: [], count: items.count)
    for (index, root) in roots.enumerated() {
      if byRoot[root].isEmpty { byRoot[root].reserveCapacity(sizes[root]) }
      byRoot[root].append(index)
    }
    return byRoot.filter { !$0.isEmpty }
  }

  /// What ties one item to others by id: `oid|cloud|oid` and `home|cloud|home` (archived, then `client_info`;
  /// ids lowercased). Fields, not a list of homes: a list was one more allocation per item.
  private struct IdKeys: Sendable {
    var oid: HashedKey?
    var archivedHome: HashedKey?
    var clientInfoHome: HashedKey?

    init(_ sourced: SourcedItem, last: LastKeys) {
      let cloud = sourced.cloud
      // Ids are nearly always lowercase already: then lowercasing them allocates nothing.
      if let oid = sourced.oid {
        self.oid = last.oid.key("oid", cloud: cloud, id: oid.lowercasedSharingStorage())
      }
      let archived = sourced.archivedHomeAccountID?.lowercasedSharingStorage()
      if let archived { archivedHome = last.home.key("home", cloud: cloud, id: archived) }
      // Mostly the archived id again: the same bytes make the same key, which links nothing more.
      if let home = sourced.clientInfoHomeAccountID?.lowercasedSharingStorage(),
        archived.map({ !$0.hasSameUTF8(as: home) }) ?? true
      {
        clientInfoHome = last.home.key("home", cloud: cloud, id: home)
      }
    }
  }

  /// One worker's last keys of each kind. A user's items mostly come one after another with the same ids:
  /// an item whose cloud and id are the bytes of the last key's takes that key (its text is the same), rather
  /// than a new string and its hash for every key of every item.
  private final class LastKeys: @unchecked Sendable {  // mutable: a lane serves one worker at a time
    var oid = LastKey()
    var home = LastKey()
  }

  /// The last key made of one kind (`oid`, `home`): `kind|cloud|id`.
  private struct LastKey {
    private var last: (cloud: String, id: String, key: HashedKey)?

    mutating func key(_ kind: String, cloud: String, id: String) -> HashedKey {
      if let last, last.id.hasSameUTF8(as: id), last.cloud.hasSameUTF8(as: cloud) { return last.key }
      let key = HashedKey(String(joining: kind, "|", cloud, "|", id))
      last = (cloud, id, key)
      return key
    }
  }

  /// What ties an item to others by name: its name in its cloud (`cloud|name`) and, for an item without an
  /// oid, `name|cloud|name`.
  private struct NameKeys: Sendable {
    var name: HashedKey?
    var nameLink: HashedKey?

    init(_ sourced: SourcedItem) {
      guard let name = sourced.normalizedUsername else { return }
      let key = "\(sourced.cloud)|\(name)"
      self.name = HashedKey(key)
      if sourced.oid == nil { nameLink = HashedKey("name|\(key)") }
    }
  }
}

/// A string with its hash computed once (where it is made, on any core): a table of them hashes an `Int`
/// per lookup, and compares the strings only when the hashes match.
struct HashedKey: Hashable, Sendable {
  let text: String
  private let hashCode: Int

  init(_ text: String) {
    self.text = text
    hashCode = text.hashValue
  }

  static func == (lhs: HashedKey, rhs: HashedKey) -> Bool { lhs.hashCode == rhs.hashCode && lhs.text == rhs.text }
  func hash(into hasher: inout Hasher) { hasher.combine(hashCode) }
}

/// Union-find over `0..<count` (path halving, union by index so the result does not depend on call order).
struct DisjointSets {
  private var parent: [Int]

  init(count: Int) { parent = Array(0..<count) }

  mutating func find(_ index: Int) -> Int {
    var node = index
    while parent[node] != node {
      parent[node] = parent[parent[node]]
      node = parent[node]
    }
    return node
  }

  mutating func union(_ lhs: Int, _ rhs: Int) {
    let (left, right) = (find(lhs), find(rhs))
    guard left != right else { return }
    if left < right { parent[right] = left } else { parent[left] = right }
  }
}
