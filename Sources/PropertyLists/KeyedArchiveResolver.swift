import Adal2MSALSupport
import Foundation

/// Resolves `$objects` entries by UID, once each (values are immutable, so shared objects share storage),
/// counting the expanded size of what it builds.
struct KeyedArchiveResolver {
  let objects: [PropertyListValue]
  let limits: InputLimits
  private var resolved: [ArchiveValue?]
  private var nodeCounts: [Int]
  private var heights: [Int]
  private var inProgress: [Bool]
  private let maxNodes: Int

  init(objects: [PropertyListValue], limits: InputLimits) {
    self.objects = objects
    self.limits = limits
    resolved = Array(repeating: nil, count: objects.count)
    nodeCounts = Array(repeating: 0, count: objects.count)
    heights = Array(repeating: 0, count: objects.count)
    inProgress = Array(repeating: false, count: objects.count)
    maxNodes = limits.maxExpandedNodes(objectCount: objects.count)
  }

  private func fail(_ owner: Int?, _ message: String) -> PropertyListError {
    if let owner { return .at(object: owner, message) }
    return PropertyListError(message, at: SourceLocation(keyPath: "$top"))
  }

  /// `total + count`, failing past the blow-up limit.
  func addNodes(_ total: Int, _ count: Int, owner: Int?) throws(PropertyListError) -> Int {
    let (sum, overflow) = total.addingReportingOverflow(count)
    guard !overflow, sum <= maxNodes else {
      throw fail(
        owner,
        "shared references expand to more than \(maxNodes) values (limit: \(limits.maxExpansionFactor) per "
          + "archived object, at most \(limits.maxObjects))")
    }
    return sum
  }

  /// The `$classname` of an instance's class, or nil when `$objects[index]` is not a class instance.
  func className(ofObject index: Int) -> String? {
    guard case .dictionary(let object) = objects[index], case .uid(let classUID)? = object["$class"],
      classUID < objects.count, case .dictionary(let classObject) = objects[Int(classUID)],
      case .string(let name)? = classObject["$classname"]
    else { return nil }
    return name.value
  }

  /// Resolves a coder key's value (or a `$top` entry): UIDs are followed, inline values kept.
  /// Returns the value, its expanded node count and its container height.
  mutating func resolveField(
    _ value: PropertyListValue, owner: Int?, depth: Int
  ) throws(PropertyListError) -> (ArchiveValue, Int, Int) {
    switch value {
    case .uid(let uid):
      guard uid < UInt64(objects.count) else {
        throw fail(owner, "UID \(uid) out of range (\(objects.count) objects)")
      }
      let index = Int(uid)
      let resolvedValue = try resolveObject(index, depth: depth, from: owner)
      guard depth + heights[index] <= limits.maxDepth else {
        throw fail(owner, "objects nested deeper than the limit of \(limits.maxDepth)")
      }
      return (resolvedValue, nodeCounts[index], heights[index])
    case .null: return (.null, 1, 0)
    case .bool(let flag): return (.bool(flag), 1, 0)
    case .integer(let number): return (.integer(number), 1, 0)
    case .real(let number): return (.real(number), 1, 0)
    case .date(let date): return (.date(date), 1, 0)
    case .data(let data): return (.data(data), 1, 0)
    case .string(let string): return (.string(string), 1, 0)
    case .array(let elements), .set(let elements):
      let (values, nodes, height) = try resolveList(elements, owner: owner, depth: depth)
      if case .set = value { return (.set(values), nodes, height) }
      return (.array(values), nodes, height)
    case .dictionary(let dictionary):
      try checkDepth(depth, owner)
      var entries: [ArchiveDictionaryEntry] = []
      var nodes = 1
      var height = 1
      for (key, element) in dictionary {
        let (resolvedValue, count, childHeight) = try resolveField(element, owner: owner, depth: depth + 1)
        nodes = try addNodes(nodes, count + 1, owner: owner)
        height = max(height, childHeight + 1)
        entries.append(ArchiveDictionaryEntry(key: .string(PropertyListString(key)), value: resolvedValue))
      }
      return (.dictionary(entries), nodes, height)
    }
  }

  private func checkDepth(_ depth: Int, _ owner: Int?) throws(PropertyListError) {
    guard depth < limits.maxDepth else {
      throw fail(owner, "objects nested deeper than the limit of \(limits.maxDepth)")
    }
  }

  mutating func resolveList(
    _ elements: [PropertyListValue], owner: Int?, depth: Int
  ) throws(PropertyListError) -> ([ArchiveValue], Int, Int) {
    try checkDepth(depth, owner)
    var values: [ArchiveValue] = []
    values.reserveCapacity(elements.count)
    var nodes = 1
    var height = 1
    for element in elements {
      let (value, count, childHeight) = try resolveField(element, owner: owner, depth: depth + 1)
      nodes = try addNodes(nodes, count, owner: owner)
      height = max(height, childHeight + 1)
      values.append(value)
    }
    return (values, nodes, height)
  }

  /// Resolves `$objects[index]` and everything it references, children first, with an explicit stack (so
  /// that deep archives are bounded by `InputLimits.maxDepth`, not by the thread's stack).
  private mutating func resolveObject(_ index: Int, depth: Int, from owner: Int?) throws(PropertyListError)
    -> ArchiveValue
  {
    if let value = resolved[index] { return value }
    var stack: [(index: Int, depth: Int, children: [UInt64], next: Int)] = []
    try push(index, depth: depth, from: owner, onto: &stack)
    while let last = stack.indices.last {
      if stack[last].next < stack[last].children.count {
        let uid = stack[last].children[stack[last].next]
        stack[last].next += 1
        guard uid < UInt64(objects.count) else {
          throw .at(object: stack[last].index, "UID \(uid) out of range (\(objects.count) objects)")
        }
        if resolved[Int(uid)] == nil {
          try push(Int(uid), depth: stack[last].depth + 1, from: stack[last].index, onto: &stack)
        }
        continue
      }
      let frame = stack.removeLast()
      // Every UID the object holds is resolved by now: decoding only looks them up.
      let (value, nodes, height) = try decodeObject(frame.index, depth: frame.depth)
      inProgress[frame.index] = false
      resolved[frame.index] = value
      nodeCounts[frame.index] = nodes
      heights[frame.index] = height
    }
    guard let value = resolved[index] else { throw .at(object: index, "internal error: object not resolved") }
    return value
  }

  private mutating func push(
    _ index: Int, depth: Int, from owner: Int?,
    onto stack: inout [(index: Int, depth: Int, children: [UInt64], next: Int)]
  ) throws(PropertyListError) {
    if inProgress[index] {
      throw .at(
        object: index,
        "reference cycle: the object is reachable from itself"
          + (owner.map { " (through $objects[\($0)])" } ?? ""))
    }
    guard depth <= limits.maxDepth else {
      throw .at(object: index, "objects nested deeper than the limit of \(limits.maxDepth)")
    }
    var children: [UInt64] = []
    if case .dictionary(let fields) = objects[index] {
      for (key, value) in fields where key != "$class" {
        try Self.collectUIDs(value, into: &children, inline: 0, owner: index)
      }
    } else {
      try Self.collectUIDs(objects[index], into: &children, inline: 0, owner: index)
    }
    inProgress[index] = true
    stack.append((index, depth, children, 0))
  }

  /// Inline containers in a coder key hold UIDs (`NS.keys`, `NS.objects`); NSKeyedArchiver never nests them.
  static let maxInlineDepth = 16

  static func collectUIDs(
    _ value: PropertyListValue, into children: inout [UInt64], inline depth: Int, owner: Int?
  ) throws(PropertyListError) {
    func fail() -> PropertyListError {
      let message = "inline containers nested deeper than \(maxInlineDepth)"
      return owner.map { .at(object: $0, message) } ?? PropertyListError(message, at: SourceLocation(keyPath: "$top"))
    }
    switch value {
    case .uid(let uid): children.append(uid)
    case .array(let elements), .set(let elements):
      guard depth < maxInlineDepth else { throw fail() }
      for element in elements { try collectUIDs(element, into: &children, inline: depth + 1, owner: owner) }
    case .dictionary(let dictionary):
      guard depth < maxInlineDepth else { throw fail() }
      for (_, element) in dictionary { try collectUIDs(element, into: &children, inline: depth + 1, owner: owner) }
    default: break
    }
  }

  private mutating func decodeObject(_ index: Int, depth: Int) throws(PropertyListError) -> (ArchiveValue, Int, Int) {
    let object = objects[index]
    if index == 0, case .string("$null") = object { return (.null, 1, 0) }
    switch object {
    case .dictionary(let fields):
      guard case .uid(let classUID)? = fields["$class"] else {
        throw .at(object: index, "dictionary without a $class UID (a class description used as a value?)")
      }
      guard let className = className(ofObject: index) else {
        throw .at(object: index, "$class UID \(classUID) does not name a class object with a $classname")
      }
      return try decodeInstance(index, className: className, fields: fields, depth: depth)
    case .uid(let uid):
      throw .at(object: index, "a bare UID (\(uid)) is not an archived object")
    default:
      return try resolveField(object, owner: index, depth: depth)
    }
  }
}
