import Adal2MSALSupport
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
  /// Array and set elements, dictionary values.
  var elements: [PropertyListValue] = []
  /// Dictionaries: the shared key table once known, else the keys as read.
  var keyTable: PropertyListKeys?
  var keys: [String] = []
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

extension BinaryPropertyListParser {
  /// First pass: validates every container's references and counts how often each object is referenced, so
  /// that only shared objects are remembered while reading.
  mutating func countReferences() throws(PropertyListError) {
    var sharedCount = 0
    var dictionaryCount = 0
    for index in 0..<trailer.objectCount {
      let offset = try objectOffset(index)
      let marker = try byte(offset)
      let high = marker >> 4
      guard high == 0xA || high == 0xC || high == 0xD else { continue }
      if high == 0xD { dictionaryCount += 1 }
      let (count, start) = try readCount(at: offset, low: Int(marker & 0x0F))
      let (references, overflow1) = count.multipliedReportingOverflow(by: high == 0xD ? 2 : 1)
      let (size, overflow2) = references.multipliedReportingOverflow(by: trailer.objectRefSize)
      guard !overflow1, !overflow2 else { throw .at(offset: offset, "container count \(count) is too large") }
      try requireBytes(start, size, "container of \(Wording.counted(count, "entry", "entries"))")
      var position = start
      for _ in 0..<references {
        let child = try reference(at: position)
        if referenceCounts[child] < 2 {
          referenceCounts[child] += 1
          if referenceCounts[child] == 2 { sharedCount += 1 }
        }
        position += trailer.objectRefSize
      }
    }
    // Sized once: a keychain dump reads an archive per item, and growing these tables from empty in each
    // (rehashing every entry as they doubled) cost more than filling them.
    shared.reserveCapacity(sharedCount)
    sharing.reserveKeyTables(dictionaryCount)
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
        value: value, nodes: 1, height: 0, isCommon: isShared || BinaryValueSharing.isCached(value))
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
    try requireBytes(start, size, "container of \(Wording.counted(count, "entry", "entries"))")
    var frame = BinaryContainerFrame(kind: kind, index: index, offset: offset, depth: depth, count: count, start: start)
    frame.elements.reserveCapacity(count)
    if kind == .dictionary { try startDictionary(&frame) }
    inProgress[index] = true
    stack.append(frame)
    return nil
  }

  /// Adds a child to its container, checking the depth of shared children, the blow-up limit and the key type.
  private mutating func accept(
    _ read: BinaryReadObject, at position: Int, into frame: inout BinaryContainerFrame
  ) throws(PropertyListError) {
    let value = read.value
    let childHeight = read.height
    guard frame.depth + 1 + childHeight <= limits.maxDepth else {
      throw .at(offset: position, "containers nested deeper than the limit of \(limits.maxDepth)")
    }
    frame.height = max(frame.height, childHeight + 1)
    frame.allCommon = frame.allCommon && read.isCommon
    try addNodes(read.nodes, at: position, to: &frame)
    let entry = frame.next - 1  // the reference just read
    guard frame.kind == .dictionary, entry < frame.count else {
      frame.elements.append(value)
      return
    }
    guard case .string(let key) = value else {
      throw .at(offset: position, "dictionary key is \(Wording.indefinite(value.kindName)), expected a string")
    }
    frame.keys.append(key.value)  // keys are decoded: short, and shared through key tables
    if entry == frame.count - 1 { finishKeys(&frame) }
  }

  private func addNodes(
    _ nodes: Int, at position: Int, to frame: inout BinaryContainerFrame
  ) throws(PropertyListError) {
    let (total, overflow) = frame.nodes.addingReportingOverflow(nodes)
    guard !overflow, total <= maxNodes else {
      throw .at(
        offset: position,
        "shared references expand to more than \(maxNodes) values (limit: \(limits.maxExpansionFactor) per object, "
          + "at most \(limits.maxObjects))")
    }
    frame.nodes = total
  }

  /// A dictionary's keys: the table of an earlier dictionary with the same key references (its keys are then
  /// not read again, only counted as they would be), or read one by one.
  private mutating func startDictionary(_ frame: inout BinaryContainerFrame) throws(PropertyListError) {
    guard frame.count > 0 else {
      frame.keyTable = .empty
      return
    }
    guard let known = sharing.keys(referencedBy: keyReferences(frame)) else {
      frame.keys.reserveCapacity(frame.count)
      return
    }
    for key in 0..<frame.count {
      try addNodes(1, at: frame.start + key * trailer.objectRefSize, to: &frame)  // a string is one node
    }
    frame.allCommon = known.allCommon
    frame.keyTable = known.table
    frame.next = frame.count
  }

  /// All keys read: a table for them, shared with later dictionaries of the same key references. Duplicate
  /// keys get no table (`finish` merges them).
  private mutating func finishKeys(_ frame: inout BinaryContainerFrame) {
    guard PropertyListKeys.areDistinct(frame.keys) else { return }
    let table = PropertyListKeys(distinct: frame.keys)
    sharing.remember(.init(table: table, allCommon: frame.allCommon), referencedBy: keyReferences(frame))
    frame.keyTable = table
    frame.keys = []
  }

  /// The bytes of a dictionary's key references (bounds-checked by `begin`).
  private func keyReferences(_ frame: BinaryContainerFrame) -> KeyReferenceBytes {
    let end = frame.start + frame.count * trailer.objectRefSize
    return KeyReferenceBytes(bytes: UnsafeRawBufferPointer(rebasing: bytes[frame.start..<end]))
  }

  /// The finished container, remembered for later references.
  private mutating func finish(_ frame: BinaryContainerFrame) -> BinaryReadObject {
    let value: PropertyListValue
    switch frame.kind {
    case .array: value = .array(frame.elements)
    case .set: value = .set(frame.elements)
    case .dictionary:
      if let table = frame.keyTable {
        value = .dictionary(PropertyListDictionary(keys: table, values: frame.elements))
      } else {  // duplicate keys: the last one wins
        value = .dictionary(PropertyListDictionary(zip(frame.keys, frame.elements).map { (key: $0, value: $1) }))
      }
    }
    inProgress[frame.index] = false
    let isShared = referenceCounts[frame.index] > 1
    var read = BinaryReadObject(value: value, nodes: frame.nodes, height: frame.height, isCommon: isShared)
    if frame.allCommon, frame.nodes <= BinaryValueSharing.maxInternedNodes {
      read.value = sharing.intern(value)
      read.isCommon = true
    }
    if isShared { shared[frame.index] = read }
    return read
  }

  /// Reads the object reference at `position` (already bounds-checked) and checks it against the object count.
  ///
  /// Inlined, with the error made out of line: the walks call it for every reference of every archive.
  @inline(__always)
  func reference(at position: Int) throws(PropertyListError) -> Int {
    let ref = Self.readUnsigned(bytes, at: position, size: trailer.objectRefSize)
    guard ref < UInt64(trailer.objectCount) else { throw referenceError(ref, at: position) }
    return Int(ref)
  }

  @inline(never)
  private func referenceError(_ ref: UInt64, at position: Int) -> PropertyListError {
    .at(offset: position, "object reference \(ref) out of range (\(trailer.objectCount) objects)")
  }
}
