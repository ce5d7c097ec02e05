import Adal2MSALSupport
import UnifiedCache

extension Array {
  /// Whether sorting by `areInIncreasingOrder` would leave the elements as they are: no element precedes the
  /// one before it (a stable sort keeps such an array unchanged).
  func isSorted(by areInIncreasingOrder: (Element, Element) -> Bool) -> Bool {
    withUnsafeBufferPointer { buffer in
      buffer.indices.dropFirst().allSatisfy { !areInIncreasingOrder(buffer[$0], buffer[$0 - 1]) }
    }
  }
}

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
  /// The order actions appear in plans: add, update, unchanged, conflict, skip (0 to 4).
  package var planOrder: Int {
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
  /// Sorts `users` into plan order (`users(_:_:)`), each user's `UserOrder` made once rather than twice per
  /// comparison (it lowercases the name). The orders are compared in place: read from the array, each
  /// comparison copied two of them (a retain and a release of each of their strings). The users are then
  /// moved into their places (`permute`): a sorted copy retained each of their fields.
  static func sortUsers(_ users: inout [PlanUser]) {
    let order = users.withUnsafeBufferPointer { buffer in
      let orders = buffer.indices.map { UserOrder(buffer[$0]) }
      return orders.withUnsafeBufferPointer { orders in
        buffer.indices.sorted { UserOrder.precedes(orders.baseAddress! + $0, orders.baseAddress! + $1) }
      }
    }
    permute(&users, into: order)
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

  /// `merge(_:_:by:)` into `lhs`, which must be unique: it grows by `rhs` and is merged from the back, each of
  /// its elements that a later `rhs` element passes moved by a swap. A merged copy of a part's 60,000 entries
  /// was a retain and a release of every field of each, on one core, before the report could start.
  static func merge<Element>(
    into lhs: inout [Element], _ rhs: [Element], by areInIncreasingOrder: (Element, Element) -> Bool
  ) {
    guard !rhs.isEmpty else { return }
    var left = lhs.count - 1
    lhs += rhs  // the slots past `left` hold no element of the result yet: each is overwritten or swapped away
    lhs.withUnsafeMutableBufferPointer { merged in
      var slot = merged.count - 1
      // The largest element left goes to `slot`; on ties `rhs`'s, as it follows `lhs`'s.
      for right in rhs.indices.reversed() {
        while left >= 0, areInIncreasingOrder(rhs[right], merged[left]) {
          merged.swapAt(left, slot)
          left -= 1
          slot -= 1
        }
        merged[slot] = rhs[right]
        slot -= 1
      }
    }
  }

  /// Sorts `entries` into plan order: by kind, key, action and first source (compared once per entry as an
  /// `EntryKey`), ties by `entries(_:_:)`. The entries are read in place and then swapped into their places:
  /// a copy of an entry is a retain of each of its fields, and the tie-breaks of thousands of keyless skips
  /// copied two entries per comparison.
  ///
  /// From `parallelFrom` entries, each half is sorted on its own core and the halves merged (the first half's
  /// entry first on ties): the order of one stable sort.
  static func sortEntries(_ entries: inout [PlanEntry], parallelFrom: Int = 4_096) {
    let (order, keys) = entries.withUnsafeBufferPointer { buffer in
      let keys = buffer.indices.map { index in
        EntryKey(
          kind: buffer[index].kind?.planOrder ?? 9, key: buffer[index].canonicalKey ?? "",
          action: buffer[index].action.planOrder, firstSource: buffer[index].sources.first)
      }
      // Read by both halves' sorts, never written while they run; the keys in place (taken from the array,
      // each comparison copied two of them).
      nonisolated(unsafe) let entries = buffer
      let order = keys.withUnsafeBufferPointer { keyBuffer in
        nonisolated(unsafe) let keys = keyBuffer
        let precedes: @Sendable (Int, Int) -> Bool = { left, right in
          switch keys[left].compare(keys[right]) {
          case .some(let precedes): precedes
          case nil: Self.entries(entries[left], entries[right])
          }
        }
        guard keys.count >= max(2, parallelFrom) else { return keys.indices.sorted(by: precedes) }
        let middle = keys.count / 2
        let halves = [0..<middle, middle..<keys.count].orderedParallelMap(minimumChunk: 1) {
          $0.sorted(by: precedes)
        }
        return merge(halves[0], halves[1], by: precedes)
      }
      return (order, keys)
    }
    // The keys (a key and a source per entry) go on another core: freed here, they held the serial end of
    // planning up by several milliseconds at 60,000 entries.
    releaseInBackground(consume keys)
    permute(&entries, into: order)
  }

  /// Reorders `elements` so that position `i` holds the element that was at `order[i]` (a permutation of the
  /// indices), along the permutation's cycles: each element is moved in memory, never copied (`swapAt` copied
  /// both elements, a retain of each of their fields).
  static func permute<Element>(_ elements: inout [Element], into order: [Int]) {
    precondition(order.count == elements.count)
    var placed = [Bool](repeating: false, count: order.count)
    elements.withUnsafeMutableBufferPointer { buffer in
      guard let base = buffer.baseAddress else { return }
      for start in order.indices where !placed[start] {
        placed[start] = true
        if order[start] == start { continue }
        let held = (base + start).move()
        var position = start
        while true {
          let from = order[position]
          if from == start {
            (base + position).initialize(to: held)
            break
          }
          placed[from] = true
          (base + position).moveInitialize(from: base + from, count: 1)
          position = from
        }
      }
    }
  }

  private struct EntryKey: Sendable {
    var kind: Int
    var key: String
    var action: Int
    var firstSource: PlanSource?

    /// Whether `self` precedes `other`, or nil when the key leaves them tied. Field by field: tuples of the
    /// fields copied the keys (a retain and a release each) per comparison.
    func compare(_ other: EntryKey) -> Bool? {
      if kind != other.kind { return kind < other.kind }
      if key != other.key { return key < other.key }
      if action != other.action { return action < other.action }
      switch (firstSource, other.firstSource) {
      case (let lhs?, let rhs?) where lhs != rhs: return PlanSource.precedes(lhs, rhs)
      case (nil, _?): return true
      case (_?, nil): return false
      default: return nil
      }
    }
  }

  /// `EntryOrder(lhs) < EntryOrder(rhs)`, reading kind, key and action in place first: they decide nearly
  /// every pair (merging two plans compares each entry with the other plan's next one).
  static func entries(_ lhs: PlanEntry, _ rhs: PlanEntry) -> Bool {
    let (leftKind, rightKind) = (lhs.kind?.planOrder ?? 9, rhs.kind?.planOrder ?? 9)
    if leftKind != rightKind { return leftKind < rightKind }
    let (leftKey, rightKey) = (lhs.canonicalKey ?? "", rhs.canonicalKey ?? "")
    if leftKey != rightKey { return leftKey < rightKey }
    if lhs.action != rhs.action { return lhs.action.planOrder < rhs.action.planOrder }
    return EntryOrder(lhs) < EntryOrder(rhs)
  }

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
    name = user.username?.lowercasedSharingStorage() ?? "~"
    firstSource = user.sources.first
  }

  static func < (lhs: UserOrder, rhs: UserOrder) -> Bool {
    withUnsafePointer(to: lhs) { lhs in withUnsafePointer(to: rhs) { rhs in precedes(lhs, rhs) } }
  }

  /// `lhs < rhs`, read in place and field by field: orders copied out of an array, or tuples of their
  /// fields, were a retain and a release of each string per comparison (sorting 10,000 users made 60 M
  /// instructions of such copies).
  static func precedes(_ lhs: UnsafePointer<UserOrder>, _ rhs: UnsafePointer<UserOrder>) -> Bool {
    if lhs.pointee.cloud != rhs.pointee.cloud { return lhs.pointee.cloud < rhs.pointee.cloud }
    if lhs.pointee.home != rhs.pointee.home { return lhs.pointee.home < rhs.pointee.home }
    if lhs.pointee.name != rhs.pointee.name { return lhs.pointee.name < rhs.pointee.name }
    return (lhs.pointee.firstSource?.description ?? "") < (rhs.pointee.firstSource?.description ?? "")
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
  /// The entity, described only to break a tie: describing every entity's fields was most of an order's cost.
  var entityBox: EntityBox?

  init(_ entry: PlanEntry) {
    kind = entry.kind?.planOrder ?? 9
    key = entry.canonicalKey ?? ""
    action = entry.action.planOrder
    firstSource = entry.sources.first
    reasonCode = entry.reasonCode
    entityBox = entry.entityBox
  }

  var entity: String { entityBox?.value.entity.description ?? "" }

  static func == (lhs: EntryOrder, rhs: EntryOrder) -> Bool {
    (lhs.kind, lhs.key, lhs.action, lhs.firstSource, lhs.reasonCode) == (
      rhs.kind, rhs.key, rhs.action, rhs.firstSource, rhs.reasonCode
    ) && lhs.entity == rhs.entity
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
