import Adal2MSALSupport
import UnifiedCache

extension PlanSource {
  /// File, then item index (numerically), then label.
  static func precedes(_ lhs: PlanSource, _ rhs: PlanSource) -> Bool {
    if lhs.file != rhs.file { return lhs.file < rhs.file }
    if lhs.itemIndex != rhs.itemIndex { return (lhs.itemIndex ?? -1) < (rhs.itemIndex ?? -1) }
    return lhs.label < rhs.label
  }
}

extension UnifiedEntityKind {
  /// The order kinds appear in plans and reports: accounts first, then what hangs off them.
  var planOrder: Int {
    switch self {
    case .account: 0
    case .refreshToken: 1
    case .accessToken: 2
    case .idToken: 3
    case .appMetadata: 4
    }
  }
}

extension PlanAction {
  var planOrder: Int {
    switch self {
    case .add: 0
    case .update: 1
    case .unchanged: 2
    case .conflict: 3
    case .skip: 4
    }
  }
}

enum PlanOrder {
  /// `elements` sorted by `areInIncreasingOrder`, moving each element once: sorting large structs in place
  /// copies them O(n log n) times (a retain per reference field each time), sorting their indices does not.
  static func sorted<Element>(_ elements: [Element], by areInIncreasingOrder: (Element, Element) -> Bool) -> [Element] {
    elements.withUnsafeBufferPointer { buffer in
      buffer.indices.sorted { areInIncreasingOrder(buffer[$0], buffer[$1]) }.map { buffer[$0] }
    }
  }

  /// Two arrays sorted by `areInIncreasingOrder` as one sorted array (on ties, `lhs`'s element first).
  static func merge<Element>(_ lhs: [Element], _ rhs: [Element], by areInIncreasingOrder: (Element, Element) -> Bool)
    -> [Element]
  {
    if rhs.isEmpty { return lhs }
    if lhs.isEmpty { return rhs }
    var out: [Element] = []
    out.reserveCapacity(lhs.count + rhs.count)
    var (left, right) = (0, 0)
    while left < lhs.count, right < rhs.count {
      if areInIncreasingOrder(rhs[right], lhs[left]) {
        out.append(rhs[right])
        right += 1
      } else {
        out.append(lhs[left])
        left += 1
      }
    }
    out += lhs[left...]
    out += rhs[right...]
    return out
  }

  /// `entries` in plan order: by kind, key and action (compared once per entry as a `EntryKey`), ties by
  /// `entries(_:_:)`.
  static func sortedEntries(_ entries: [PlanEntry]) -> [PlanEntry] {
    let keys = entries.map {
      EntryKey(kind: $0.kind?.planOrder ?? 9, key: $0.canonicalKey ?? "", action: $0.action.planOrder)
    }
    let order = entries.indices.sorted { left, right in
      keys[left] != keys[right] ? keys[left] < keys[right] : Self.entries(entries[left], entries[right])
    }
    return order.map { entries[$0] }
  }

  private struct EntryKey: Comparable {
    var kind: Int
    var key: String
    var action: Int

    static func < (lhs: EntryKey, rhs: EntryKey) -> Bool {
      (lhs.kind, lhs.key, lhs.action) < (rhs.kind, rhs.key, rhs.action)
    }
  }

  static func entries(_ lhs: PlanEntry, _ rhs: PlanEntry) -> Bool { EntryOrder(lhs) < EntryOrder(rhs) }

  static func diagnostics(_ lhs: Diagnostic, _ rhs: Diagnostic) -> Bool {
    let left = [lhs.location?.file ?? "", sortable(lhs.location?.itemIndex), lhs.code, lhs.message, lhs.description]
    let right = [rhs.location?.file ?? "", sortable(rhs.location?.itemIndex), rhs.code, rhs.message, rhs.description]
    return left.lexicographicallyPrecedes(right)
  }

  /// An index as text that sorts numerically: nil first, then zero-padded non-negative values.
  static func sortable(_ index: Int?) -> String {
    guard let index else { return "" }
    let digits = String(max(0, index))
    return String(repeating: "0", count: max(0, 20 - digits.count)) + digits
  }

  /// Cloud, home account id, lowercased user name (missing ones last), then the first source.
  static func users(_ lhs: PlanUser, _ rhs: PlanUser) -> Bool { UserOrder(lhs) < UserOrder(rhs) }
}

/// A user's place in plan order, as a value (`PlanOrder.users`; kept by `ReportSpool` to order the sections of
/// several plans).
struct UserOrder: Comparable, Sendable {
  var cloud: String
  var home: String
  var name: String
  /// Described only to break a tie: most comparisons never need it.
  var firstSource: PlanSource?

  init(_ user: PlanUser) {
    cloud = user.cloud
    home = user.homeAccountID ?? "~"
    name = user.username?.lowercased() ?? "~"
    firstSource = user.sources.first
  }

  static func < (lhs: UserOrder, rhs: UserOrder) -> Bool {
    if (lhs.cloud, lhs.home, lhs.name) != (rhs.cloud, rhs.home, rhs.name) {
      return (lhs.cloud, lhs.home, lhs.name) < (rhs.cloud, rhs.home, rhs.name)
    }
    return (lhs.firstSource?.description ?? "") < (rhs.firstSource?.description ?? "")
  }
}

/// An entry's place in plan order: kind, key, action, first source, reason code, then the entity's
/// description (`PlanOrder.entries`, for entries their kind, key and action leave tied).
struct EntryOrder: Comparable, Sendable {
  var kind: Int
  var key: String
  var action: Int
  var firstSource: PlanSource?
  var reasonCode: String
  var entity: String

  init(_ entry: PlanEntry) {
    kind = entry.kind?.planOrder ?? 9
    key = entry.canonicalKey ?? ""
    action = entry.action.planOrder
    firstSource = entry.sources.first
    reasonCode = entry.reasonCode
    entity = entry.entity?.entity.description ?? ""
  }

  static func < (lhs: EntryOrder, rhs: EntryOrder) -> Bool {
    if (lhs.kind, lhs.key, lhs.action) != (rhs.kind, rhs.key, rhs.action) {
      return (lhs.kind, lhs.key, lhs.action) < (rhs.kind, rhs.key, rhs.action)
    }
    switch (lhs.firstSource, rhs.firstSource) {
    case (let l?, let r?) where l != r: return PlanSource.precedes(l, r)
    case (nil, _?): return true
    case (_?, nil): return false
    default: break
    }
    if lhs.reasonCode != rhs.reasonCode { return lhs.reasonCode < rhs.reasonCode }
    return lhs.entity < rhs.entity
  }
}
