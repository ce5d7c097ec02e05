import Foundation

/// Arrays, sets and dictionaries of the binary reader: object references, depth and blow-up limits.
extension BinaryPropertyListParser {
  /// Reads the object reference at `position` (already bounds-checked) and checks it against the object count.
  func reference(at position: Int) throws(PropertyListError) -> Int {
    let ref = Self.readUnsigned(bytes, at: position, size: trailer.objectRefSize)
    guard ref < UInt64(trailer.objectCount) else {
      throw .at(offset: position, "object reference \(ref) out of range (\(trailer.objectCount) objects)")
    }
    return Int(ref)
  }

  /// Checks the reference table of a container of `count` references starting at `start`.
  func requireReferences(_ start: Int, _ count: Int, _ offset: Int, _ what: String) throws(PropertyListError) {
    let (size, overflow) = count.multipliedReportingOverflow(by: trailer.objectRefSize)
    guard !overflow else { throw .at(offset: offset, "\(what) count \(count) is too large") }
    // A container cannot have more entries than the file has objects' worth of references (checked before
    // any allocation).
    try requireBytes(start, size, "\(what) of \(count) references")
  }

  func checkDepth(_ depth: Int, _ offset: Int) throws(PropertyListError) {
    guard depth < limits.maxDepth else {
      throw .at(offset: offset, "containers nested deeper than the limit of \(limits.maxDepth)")
    }
  }

  /// Reads a referenced child and adds its expanded size to `nodes`, failing past the blow-up limit.
  mutating func readChild(
    at position: Int, depth: Int, nodes: inout Int, height: inout Int
  ) throws(PropertyListError) -> PropertyListValue {
    let index = try reference(at: position)
    let value = try readObject(index, depth: depth + 1, referencedAt: position)
    // A shared child read first at a shallower place must still fit below this one.
    let childHeight = Int(heights[index])
    guard depth + 1 + childHeight <= limits.maxDepth else {
      throw .at(offset: position, "containers nested deeper than the limit of \(limits.maxDepth)")
    }
    height = max(height, childHeight + 1)
    let (total, overflow) = nodes.addingReportingOverflow(nodeCounts[index])
    guard !overflow, total <= maxNodes else {
      throw .at(
        offset: position,
        "shared references expand to more than \(maxNodes) values (limit: \(limits.maxExpansionFactor) per object, "
          + "at most \(limits.maxObjects))")
    }
    nodes = total
    return value
  }

  mutating func readElements(
    offset: Int, count: Int, start: Int, depth: Int
  ) throws(PropertyListError) -> ([PropertyListValue], Int, Int) {
    try checkDepth(depth, offset)
    try requireReferences(start, count, offset, "array")
    var elements: [PropertyListValue] = []
    elements.reserveCapacity(count)
    var nodes = 1
    var height = 1
    for position in stride(from: start, to: start + count * trailer.objectRefSize, by: trailer.objectRefSize) {
      elements.append(try readChild(at: position, depth: depth, nodes: &nodes, height: &height))
    }
    return (elements, nodes, height)
  }

  mutating func readDictionary(
    offset: Int, count: Int, start: Int, depth: Int
  ) throws(PropertyListError) -> (PropertyListValue, Int, Int) {
    try checkDepth(depth, offset)
    let (references, overflow) = count.multipliedReportingOverflow(by: 2)
    guard !overflow else { throw .at(offset: offset, "dictionary count \(count) is too large") }
    try requireReferences(start, references, offset, "dictionary")
    let valuesStart = start + count * trailer.objectRefSize
    var entries: [(key: String, value: PropertyListValue)] = []
    entries.reserveCapacity(count)
    var nodes = 1
    var height = 1
    for entry in 0..<count {
      let keyPosition = start + entry * trailer.objectRefSize
      let key = try readChild(at: keyPosition, depth: depth, nodes: &nodes, height: &height)
      guard case .string(let name) = key else {
        throw .at(offset: keyPosition, "dictionary key is a \(key.kindName), expected a string")
      }
      let value = try readChild(at: valuesStart + entry * trailer.objectRefSize, depth: depth, nodes: &nodes, height: &height)
      entries.append((name, value))
    }
    return (.dictionary(PropertyListDictionary(entries)), nodes, height)
  }
}
