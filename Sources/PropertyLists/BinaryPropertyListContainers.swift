import Foundation

/// A container being read: its references are walked one at a time, without recursion, so that nesting is
/// bounded by `InputLimits.maxDepth` alone and never by the thread's stack.
struct BinaryContainerFrame {
  enum Kind { case array, set, dictionary }
  var kind: Kind
  var index: Int
  var offset: Int
  var depth: Int
  /// Entries (pairs for dictionaries) and where their references start.
  var count: Int
  var start: Int
  /// The next reference to read: for dictionaries, keys first then values.
  var next = 0
  var elements: [PropertyListValue] = []
  /// Dictionaries: keys as read, then their values filled in place.
  var entries: [(key: String, value: PropertyListValue)] = []
  var nodes = 1
  var height = 1
  var allCommon = true

  var referenceCount: Int { kind == .dictionary ? count * 2 : count }
}

/// A value read, with its expanded node count and container height (0 for scalars).
struct BinaryReadObject {
  var value: PropertyListValue
  var nodes: Int
  var height: Int
  /// Whether other places may hold the same value (a shared object, a cached scalar, an interned container):
  /// containers made only of such values are worth interning.
  var isCommon = false
}

/// Shared boxes for booleans, small UIDs and integers and small containers (keyed archives repeat them
/// constantly).
struct SmallScalarCache {
  static let trueValue = PropertyListValue.bool(true)
  static let falseValue = PropertyListValue.bool(false)
  static let size = 1024
  private var uids: [PropertyListValue?] = []
  private var integers: [PropertyListValue?] = []

  mutating func uid(_ value: UInt64) -> PropertyListValue {
    guard value < UInt64(Self.size) else { return .uid(value) }
    if uids.isEmpty { uids = Array(repeating: nil, count: Self.size) }
    if let cached = uids[Int(value)] { return cached }
    let made = PropertyListValue.uid(value)
    uids[Int(value)] = made
    return made
  }

  /// Small containers with equal content (the class descriptions every archived item repeats) share one
  /// value.
  private var containers: Set<PropertyListValue> = []
  static let maxInternedNodes = 8

  mutating func intern(_ value: PropertyListValue) -> PropertyListValue {
    containers.insert(value).memberAfterInsert
  }

  /// Whether a scalar's box is shared by `uid(_:)`, `integer(_:)` or the boolean constants.
  static func isCached(_ value: PropertyListValue) -> Bool {
    switch value {
    case .bool, .null: true
    case .uid(let uid): uid < UInt64(size)
    case .integer(let number): number >= 0 && number < Int128(size)
    default: false
    }
  }

  mutating func integer(_ value: Int128) -> PropertyListValue {
    guard value >= 0, value < Int128(Self.size) else { return .integer(value) }
    if integers.isEmpty { integers = Array(repeating: nil, count: Self.size) }
    if let cached = integers[Int(value)] { return cached }
    let made = PropertyListValue.integer(value)
    integers[Int(value)] = made
    return made
  }
}

extension BinaryPropertyListParser {
  /// First pass: validates every container's references and counts how often each object is referenced, so
  /// that only shared objects are remembered while reading.
  mutating func countReferences() throws(PropertyListError) {
    for index in 0..<trailer.objectCount {
      let offset = try objectOffset(index)
      let marker = try byte(offset)
      let high = marker >> 4
      guard high == 0xA || high == 0xC || high == 0xD else { continue }
      let (count, start) = try readCount(at: offset, low: Int(marker & 0x0F))
      let (references, overflow1) = count.multipliedReportingOverflow(by: high == 0xD ? 2 : 1)
      let (size, overflow2) = references.multipliedReportingOverflow(by: trailer.objectRefSize)
      guard !overflow1, !overflow2 else { throw .at(offset: offset, "container count \(count) is too large") }
      try requireBytes(start, size, "container of \(count) entries")
      var position = start
      for _ in 0..<references {
        let child = try reference(at: position)
        if referenceCounts[child] < 2 { referenceCounts[child] += 1 }
        position += trailer.objectRefSize
      }
    }
  }

  /// Reads the object tree rooted at `root` iteratively.
  mutating func readTree(_ root: Int, referencedAt: Int) throws(PropertyListError) -> PropertyListValue {
    var stack: [BinaryContainerFrame] = []
    if let read = try begin(root, depth: 0, referencedAt: referencedAt, stack: &stack) { return read.value }
    while let last = stack.indices.last {
      if stack[last].next < stack[last].referenceCount {
        let position = stack[last].start + stack[last].next * trailer.objectRefSize
        stack[last].next += 1
        let child = try reference(at: position)
        if let read = try begin(child, depth: stack[last].depth + 1, referencedAt: position, stack: &stack) {
          try accept(read, at: position, into: &stack[last])
        }
        continue
      }
      let frame = stack.removeLast()
      let read = finish(frame)
      guard let parent = stack.indices.last else { return read.value }
      let position = stack[parent].start + (stack[parent].next - 1) * trailer.objectRefSize
      try accept(read, at: position, into: &stack[parent])
    }
    throw .at(offset: referencedAt, "internal error: empty object tree")
  }

  /// Returns an object already read or a scalar; pushes a frame for a container (and returns nil).
  private mutating func begin(
    _ index: Int, depth: Int, referencedAt: Int, stack: inout [BinaryContainerFrame]
  ) throws(PropertyListError) -> BinaryReadObject? {
    if referenceCounts[index] > 1, let read = shared[index] { return read }
    if inProgress[index] {
      throw .at(offset: referencedAt, "object \(index) contains itself (reference cycle)")
    }
    let offset = try objectOffset(index)
    let marker = try byte(offset)
    let kind: BinaryContainerFrame.Kind
    switch marker >> 4 {
    case 0xA: kind = .array
    case 0xC: kind = .set
    case 0xD: kind = .dictionary
    default:
      let (value, _, _) = try decodeScalar(at: offset)
      let isShared = referenceCounts[index] > 1
      let read = BinaryReadObject(
        value: value, nodes: 1, height: 0, isCommon: isShared || SmallScalarCache.isCached(value))
      if isShared { shared[index] = read }
      return read
    }
    guard depth < limits.maxDepth else {
      throw .at(offset: offset, "containers nested deeper than the limit of \(limits.maxDepth)")
    }
    let (count, start) = try readCount(at: offset, low: Int(marker & 0x0F))
    // Checked before any allocation: the references must lie in the object area.
    let (references, overflow1) = count.multipliedReportingOverflow(by: kind == .dictionary ? 2 : 1)
    let (size, overflow2) = references.multipliedReportingOverflow(by: trailer.objectRefSize)
    guard !overflow1, !overflow2 else { throw .at(offset: offset, "container count \(count) is too large") }
    try requireBytes(start, size, "container of \(count) entries")
    var frame = BinaryContainerFrame(kind: kind, index: index, offset: offset, depth: depth, count: count, start: start)
    if kind == .dictionary { frame.entries.reserveCapacity(count) } else { frame.elements.reserveCapacity(count) }
    inProgress[index] = true
    stack.append(frame)
    return nil
  }

  /// Adds a child to its container, checking the depth of shared children, the blow-up limit and the key type.
  private func accept(
    _ read: BinaryReadObject, at position: Int, into frame: inout BinaryContainerFrame
  ) throws(PropertyListError) {
    let value = read.value
    let childHeight = read.height
    guard frame.depth + 1 + childHeight <= limits.maxDepth else {
      throw .at(offset: position, "containers nested deeper than the limit of \(limits.maxDepth)")
    }
    frame.height = max(frame.height, childHeight + 1)
    frame.allCommon = frame.allCommon && read.isCommon
    let (total, overflow) = frame.nodes.addingReportingOverflow(read.nodes)
    guard !overflow, total <= maxNodes else {
      throw .at(
        offset: position,
        "shared references expand to more than \(maxNodes) values (limit: \(limits.maxExpansionFactor) per object, "
          + "at most \(limits.maxObjects))")
    }
    frame.nodes = total
    guard frame.kind == .dictionary else {
      frame.elements.append(value)
      return
    }
    let entry = frame.next - 1  // the reference just read
    if entry < frame.count {
      guard case .string(let key) = value else {
        throw .at(offset: position, "dictionary key is a \(value.kindName), expected a string")
      }
      frame.entries.append((key, .null))
    } else {
      frame.entries[entry - frame.count].value = value
    }
  }

  /// The finished container, remembered for later references.
  private mutating func finish(_ frame: BinaryContainerFrame) -> BinaryReadObject {
    let value: PropertyListValue
    switch frame.kind {
    case .array: value = .array(frame.elements)
    case .set: value = .set(frame.elements)
    case .dictionary:
      value = .dictionary(PropertyListDictionary(parsedEntries: frame.entries))
    }
    inProgress[frame.index] = false
    let isShared = referenceCounts[frame.index] > 1
    var read = BinaryReadObject(value: value, nodes: frame.nodes, height: frame.height, isCommon: isShared)
    if frame.allCommon, frame.nodes <= SmallScalarCache.maxInternedNodes {
      read.value = smallScalars.intern(value)
      read.isCommon = true
    }
    if isShared { shared[frame.index] = read }
    return read
  }

  /// Reads the object reference at `position` (already bounds-checked) and checks it against the object count.
  func reference(at position: Int) throws(PropertyListError) -> Int {
    let ref = Self.readUnsigned(bytes, at: position, size: trailer.objectRefSize)
    guard ref < UInt64(trailer.objectCount) else {
      throw .at(offset: position, "object reference \(ref) out of range (\(trailer.objectCount) objects)")
    }
    return Int(ref)
  }
}
