/// Groups ADAL items into users, per cloud: items with the same `oid`, the same archived home account id or
/// the same `client_info` are one user (pain points 12 and 17: one user across formats and UPN changes). An
/// item without an `oid` (no id token) joins the one user whose items carry its user name in that cloud, or
/// forms a user with the other items of that name. Items that name nobody stay alone.
enum UserClusters {
  /// Clusters of indices into `items`, each sorted, ordered by their first index.
  static func of(_ items: [SourcedItem]) -> [[Int]] {
    var sets = DisjointSets(count: items.count)
    var firstByKey: [String: Int] = [:]
    func link(_ key: String, _ index: Int) {
      if let first = firstByKey[key] { sets.union(first, index) } else { firstByKey[key] = index }
    }
    for (index, sourced) in items.enumerated() {
      let cloud = sourced.cloud
      if let oid = sourced.oid { link("oid|\(cloud)|\(oid.lowercased())", index) }
      if let home = IdentityEvidence.archivedHomeAccountID(sourced.item) {
        link("home|\(cloud)|\(home.lowercased())", index)
      }
      if let home = IdentityEvidence.clientInfoHomeAccountID(sourced.item) {
        link("home|\(cloud)|\(home.lowercased())", index)
      }
    }
    // Items without an oid: by user name, attached to the single oid-user of that name if there is one.
    var oidRootsByName: [String: Set<Int>] = [:]
    for (index, sourced) in items.enumerated() where sourced.oid != nil {
      if let name = sourced.normalizedUsername {
        oidRootsByName["\(sourced.cloud)|\(name)", default: []].insert(sets.find(index))
      }
    }
    for (index, sourced) in items.enumerated() where sourced.oid == nil {
      guard let name = sourced.normalizedUsername else { continue }
      let key = "\(sourced.cloud)|\(name)"
      link("name|\(key)", index)
      if let roots = oidRootsByName[key], roots.count == 1, let root = roots.first { sets.union(root, index) }
    }
    var byRoot: [Int: [Int]] = [:]
    for index in items.indices { byRoot[sets.find(index), default: []].append(index) }
    return byRoot.values.map { $0.sorted() }.sorted { ($0.first ?? 0) < ($1.first ?? 0) }
  }
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
