public import Adal2MSALSupport
public import Foundation

/// Reads a binary `NSKeyedArchiver` archive straight from its bytes into a `KeyedArchive`, without the
/// property list value tree that `PropertyListReader` and `KeyedArchiveReader` build in between: a keychain
/// dump holds one small archive per item, and building, interning and resolving that tree was most of the
/// time spent reading a large dump.
///
/// It handles the shape archivers write (a `$top` with one `root` UID, objects that are class instances,
/// strings, numbers, dates and data, coder keys holding UIDs, scalars or flat arrays of them) and returns nil
/// for anything else, including every input the general readers would reject: the caller then reads the
/// archive with them, which gives the same archive or the error. Where it returns an archive, it is the one
/// the general readers give (`BinaryKeyedArchiveReaderTests` compares them).
public struct BinaryKeyedArchiveReader: Sendable {
  public var limits: InputLimits

  public init(limits: InputLimits = .default) { self.limits = limits }

  /// The archive, or nil when `data` is not a binary keyed archive of the handled shape within the limits.
  public func read(_ data: Data) -> KeyedArchive? {
    guard data.count <= limits.maxInputBytes, limits.maxDepth >= Self.minimumDepthLimit,
      data.starts(with: Self.magic)
    else { return nil }
    return data.withUnsafeBytes { raw in
      guard let parser = try? BinaryPropertyListParser(bytes: raw, input: data, limits: limits) else { return nil }
      return parser.readSimpleKeyedArchive()
    }
  }

  private static let magic: [UInt8] = Array("bplist00".utf8)
  /// Nesting this path accepts, in property list containers and in archived objects; deeper inputs take the
  /// general path. Far below any depth limit it accepts (`minimumDepthLimit`), so that no depth check of the
  /// general readers can fail where this path succeeds.
  static let maxContainerDepth = 6
  static let maxObjectDepth = 16
  static let minimumDepthLimit = 40
  /// Dictionaries with more keys take the general path (duplicate keys are looked for pairwise).
  static let maxKeys = 64
}

extension BinaryPropertyListParser {
  /// See `BinaryKeyedArchiveReader`. Nothing here mutates the parser: calling its other methods from a
  /// mutating one copied the whole parser on each call.
  func readSimpleKeyedArchive() -> KeyedArchive? {
    // What the binary reader checks on everything reachable from the top object, and on every container: the
    // reachable ones are checked by `validateTree`, so the others only when some object was not reached.
    var nodes = 0
    var reached = Array(repeating: false, count: trailer.objectCount)
    var reachedCount = 0
    guard validateTree(trailer.topObject, depth: 0, nodes: &nodes, reached: &reached, reachedCount: &reachedCount)
    else {
      return nil
    }
    if reachedCount < trailer.objectCount {
      var counting = self
      guard (try? counting.countReferences()) != nil else { return nil }
    }
    guard let top = dictionary(trailer.topObject),
      let archiver = top.value(for: "$archiver", in: self), isASCIIString(archiver, equalTo: "NSKeyedArchiver"),
      let version = top.value(for: "$version", in: self), integer(version) == 100_000,
      let objectsIndex = top.value(for: "$objects", in: self), let objects = array(objectsIndex),
      let topEntriesIndex = top.value(for: "$top", in: self), let topEntries = dictionary(topEntriesIndex),
      topEntries.count == 1, let rootIndex = topEntries.value(for: "root", in: self), let rootUID = uid(rootIndex)
    else { return nil }
    var references: [Int] = []
    references.reserveCapacity(objects.count)
    for position in 0..<objects.count {
      guard let child = try? reference(at: objects.start + position * trailer.objectRefSize) else { return nil }
      references.append(child)
    }
    var resolver = SimpleArchiveResolver(references: references, limits: limits)
    guard rootUID < UInt64(references.count),
      let (root, rootNodes) = resolver.resolve(Int(rootUID), depth: 0, in: self), rootNodes <= resolver.maxNodes
    else { return nil }
    return KeyedArchive(top: [("root", root)], root: root, rootClassName: resolver.rootClassName(Int(rootUID)))
  }

  // MARK: The property list

  /// A container's place: `count` references (pairs for dictionaries: keys, then values) from `start`.
  struct ContainerSpan {
    var start: Int
    var count: Int

    /// For dictionaries: the value object of an ASCII key (keys are checked to be distinct ASCII strings).
    func value(for key: String, in parser: BinaryPropertyListParser) -> Int? {
      for position in 0..<count {
        guard let keyIndex = try? parser.reference(at: start + position * parser.trailer.objectRefSize),
          parser.isASCIIString(keyIndex, equalTo: key)
        else { continue }
        return try? parser.reference(at: start + (count + position) * parser.trailer.objectRefSize)
      }
      return nil
    }
  }

  /// Checks what `readTree` would (markers, strings, lengths, references, string keys, the blow-up limit) on
  /// the tree under `index`, and more: nesting up to `maxContainerDepth` (so no cycle either), no sets, dictionary
  /// keys distinct ASCII strings. The objects it reached are marked in `reached` and counted in `reachedCount`.
  func validateTree(_ index: Int, depth: Int, nodes: inout Int, reached: inout [Bool], reachedCount: inout Int) -> Bool
  {
    guard depth <= BinaryKeyedArchiveReader.maxContainerDepth, let offset = try? objectOffset(index),
      let marker = try? byte(offset)
    else { return false }
    // A scalar reached before passed its checks then (any failure ends the walk): archives reference their
    // keys and classes from every object.
    let checkedBefore = reached[index]
    if !checkedBefore {
      reached[index] = true
      reachedCount += 1
    }
    nodes += 1
    guard nodes <= maxNodes else { return false }
    switch marker >> 4 {
    case 0xA, 0xD:
      guard let (count, start) = try? readCount(at: offset, low: Int(marker & 0x0F)) else { return false }
      let isDictionary = marker >> 4 == 0xD
      guard count <= (isDictionary ? BinaryKeyedArchiveReader.maxKeys : Int.max / 16) else { return false }
      let references = isDictionary ? count * 2 : count
      guard (try? requireBytes(start, references * trailer.objectRefSize, "container")) != nil else { return false }
      if isDictionary {
        var keys: [UnsafeRawBufferPointer] = []
        keys.reserveCapacity(count)
        for position in 0..<count {
          guard let keyIndex = try? reference(at: start + position * trailer.objectRefSize),
            validateTree(keyIndex, depth: depth + 1, nodes: &nodes, reached: &reached, reachedCount: &reachedCount),
            let key = asciiBytes(keyIndex),
            !keys.contains(where: { Self.equalBytes($0, key) })
          else { return false }
          keys.append(key)
        }
      }
      for position in (isDictionary ? count : 0)..<references {
        guard let child = try? reference(at: start + position * trailer.objectRefSize),
          validateTree(child, depth: depth + 1, nodes: &nodes, reached: &reached, reachedCount: &reachedCount)
        else { return false }
      }
      return true
    case 0xC: return false
    case 0x4, 0x5, 0x6: return checkedBefore || (try? checkBytes(at: offset, marker: marker)) != nil
    default: return checkedBefore || (try? scalar(at: offset)) != nil
    }
  }

  /// Checks a data or string object as `decodeScalar` does, without making its value (copying data and
  /// slicing the input for each string only to drop them was most of the check's time).
  func checkBytes(at offset: Int, marker: UInt8) throws(PropertyListError) {
    let (count, start) = try readCount(at: offset, low: Int(marker & 0x0F))
    switch marker >> 4 {
    case 0x4:
      try checkLength(count, offset, "data")
      try requireBytes(start, count, "data")
    case 0x5:
      try checkLength(count, offset, "string")
      try requireBytes(start, count, "ASCII string")
      try validateASCII(start, count)
    default:
      let (byteCount, overflow) = count.multipliedReportingOverflow(by: 2)
      guard !overflow else { throw .at(offset: offset, "UTF-16 string length \(count) is too large") }
      try checkLength(byteCount, offset, "string")
      try requireBytes(start, byteCount, "UTF-16 string")
      try validateUTF16(start, count)
    }
  }

  /// Whether two byte runs are equal (`elementsEqual` compared them a byte at a time, through iterators).
  static func equalBytes(_ lhs: UnsafeRawBufferPointer, _ rhs: UnsafeRawBufferPointer) -> Bool {
    guard lhs.count == rhs.count else { return false }
    guard let left = lhs.baseAddress, let right = rhs.baseAddress else { return true }
    return memcmp(left, right, lhs.count) == 0
  }

  func container(_ index: Int, marker expected: UInt8) -> ContainerSpan? {
    guard let offset = try? objectOffset(index), let marker = try? byte(offset), marker >> 4 == expected,
      let (count, start) = try? readCount(at: offset, low: Int(marker & 0x0F))
    else { return nil }
    return ContainerSpan(start: start, count: count)
  }

  func dictionary(_ index: Int) -> ContainerSpan? { container(index, marker: 0xD) }
  func array(_ index: Int) -> ContainerSpan? { container(index, marker: 0xA) }

  /// The bytes of an ASCII string object (validated by `validateTree`).
  func asciiBytes(_ index: Int) -> UnsafeRawBufferPointer? {
    guard let span = container(index, marker: 0x5) else { return nil }
    return UnsafeRawBufferPointer(rebasing: bytes[span.start..<(span.start + span.count)])
  }

  func isASCIIString(_ index: Int, equalTo text: String) -> Bool {
    guard let bytes = asciiBytes(index) else { return false }
    return bytes.elementsEqual(text.utf8)
  }

  func uid(_ index: Int) -> UInt64? {
    guard let offset = try? objectOffset(index), let marker = try? byte(offset), marker >> 4 == 0x8 else { return nil }
    guard case .uid(let value)? = try? scalar(at: offset) else { return nil }
    return value
  }

  func integer(_ index: Int) -> Int128? {
    guard let offset = try? objectOffset(index), let marker = try? byte(offset), marker >> 4 == 0x1 else { return nil }
    return try? readInteger(at: offset)
  }

  /// What `index` is, for the resolver: a UID, a flat array's element objects, a dictionary, or a scalar value.
  enum Shallow {
    case uid(UInt64)
    case array(ContainerSpan)
    case dictionary(ContainerSpan)
    case scalar(PropertyListValue)
  }

  func shallow(_ index: Int) -> Shallow? {
    guard let offset = try? objectOffset(index), let marker = try? byte(offset) else { return nil }
    switch marker >> 4 {
    case 0xA: return array(index).map(Shallow.array)
    case 0xD: return dictionary(index).map(Shallow.dictionary)
    case 0xC: return nil
    default:
      guard let value = try? scalar(at: offset) else { return nil }
      if case .uid(let uid) = value { return .uid(uid) }
      return .scalar(value)
    }
  }
}

/// Resolves `$objects` entries by UID, as `KeyedArchiveResolver` does, for the shape
/// `BinaryKeyedArchiveReader` handles; nil for anything else.
struct SimpleArchiveResolver {
  /// `$objects`: the property list object of each archived object.
  let references: [Int]
  let maxNodes: Int
  private var resolved: [(value: ArchiveValue, nodes: Int)?]
  private var inProgress: [Bool]
  private var classNames: [String?]

  init(references: [Int], limits: InputLimits) {
    self.references = references
    resolved = Array(repeating: nil, count: references.count)
    inProgress = Array(repeating: false, count: references.count)
    classNames = Array(repeating: nil, count: references.count)
    let (expansion, overflow) = limits.maxExpansionFactor.multipliedReportingOverflow(by: max(references.count, 1))
    maxNodes = min(limits.maxObjects, overflow ? Int.max : expansion)
  }

  func rootClassName(_ uid: Int) -> String? { classNames[uid] }

  /// `$objects[uid]`, resolved once, with its node count as `KeyedArchiveResolver` counts it.
  mutating func resolve(
    _ uid: Int, depth: Int, in parser: BinaryPropertyListParser
  ) -> (ArchiveValue, Int)? {
    guard uid < references.count else { return nil }
    if let known = resolved[uid] { return known }
    guard !inProgress[uid], depth <= BinaryKeyedArchiveReader.maxObjectDepth,
      let shape = parser.shallow(references[uid])
    else { return nil }
    inProgress[uid] = true
    defer { inProgress[uid] = false }
    let result: (ArchiveValue, Int)?
    switch shape {
    case .dictionary(let fields): result = instance(uid, fields: fields, depth: depth, in: parser)
    case .scalar(let value):
      if uid == 0, case .string(let text) = value, text == "$null" {
        result = (.null, 1)
      } else {
        result = (Self.plain(value), 1)
      }
    case .uid, .array: result = nil
    }
    guard let result, result.1 <= maxNodes else { return nil }
    resolved[uid] = result
    return result
  }

  /// A class instance: every UID of its coder keys resolved first (as the general resolver does, whether the
  /// class uses them or not), then the Foundation value classes made plain values, others `ArchivedObject`s.
  private mutating func instance(
    _ uid: Int, fields: BinaryPropertyListParser.ContainerSpan, depth: Int, in parser: BinaryPropertyListParser
  ) -> (ArchiveValue, Int)? {
    var entries: [Field] = []
    entries.reserveCapacity(fields.count)
    var className: String?
    let size = parser.trailer.objectRefSize
    for position in 0..<fields.count {
      guard let keyIndex = try? parser.reference(at: fields.start + position * size),
        let keyBytes = parser.asciiBytes(keyIndex),
        let valueIndex = try? parser.reference(at: fields.start + (fields.count + position) * size),
        let shape = parser.shallow(valueIndex)
      else { return nil }
      let key = String(decoding: keyBytes, as: UTF8.self)
      if key == "$class" {
        guard case .uid(let classUID) = shape, let name = Self.className(classUID, references: references, in: parser)
        else { return nil }
        className = name
        continue
      }
      switch shape {
      case .uid(let child):
        guard let (value, nodes) = resolve(Int(child), depth: depth + 1, in: parser) else { return nil }
        entries.append(Field(key: key, value: value, nodes: nodes, written: .reference))
      case .scalar(let value): entries.append(Field(key: key, value: Self.plain(value), nodes: 1, written: .inline))
      case .array(let elements):
        guard let (values, nodes) = list(elements, depth: depth + 1, in: parser) else { return nil }
        entries.append(Field(key: key, value: .array(values), nodes: nodes, written: .list))
      case .dictionary: return nil
      }
    }
    guard let className else { return nil }
    classNames[uid] = className
    // Every Foundation value class is named NS…: the others (an ADAL item's own classes) skip the lookups.
    if className.utf8.starts(with: "NS".utf8) {
      func field(_ name: String) -> Field? { entries.first { $0.key == name } }
      if KeyedArchiveResolver.stringClasses.contains(className) {
        guard let text = field("NS.string"), text.written != .list, case .string = text.value else { return nil }
        return (text.value, 1)
      }
      if className == "NSDate" {
        guard let time = field("NS.time"), time.written == .inline else { return nil }
        switch time.value {
        case .real(let seconds): return (.date(Date(timeIntervalSinceReferenceDate: seconds)), 1)
        case .integer(let seconds): return (.date(Date(timeIntervalSinceReferenceDate: Double(seconds))), 1)
        default: return nil
        }
      }
      if KeyedArchiveResolver.dataClasses.contains(className) {
        guard let bytes = field("NS.data"), bytes.written != .list, case .data = bytes.value else { return nil }
        return (bytes.value, 1)
      }
      if className == "NSNull" { return (.null, 1) }
      if KeyedArchiveResolver.dictionaryClasses.contains(className) {
        guard let keys = field("NS.keys"), keys.written == .list, case .array(let keyValues) = keys.value,
          let values = field("NS.objects"), values.written == .list, case .array(let objectValues) = values.value,
          keyValues.count == objectValues.count
        else { return nil }
        let dictionary = zip(keyValues, objectValues).map { ArchiveDictionaryEntry(key: $0, value: $1) }
        return (.dictionary(dictionary), keys.nodes + values.nodes)
      }
      if KeyedArchiveResolver.arrayClasses.contains(className) || KeyedArchiveResolver.setClasses.contains(className) {
        guard let elements = field("NS.objects"), elements.written == .list, case .array(let values) = elements.value
        else {
          return nil
        }
        return (KeyedArchiveResolver.setClasses.contains(className) ? .set(values) : .array(values), elements.nodes)
      }
    }
    var nodes = 1
    for entry in entries {
      nodes += entry.nodes
      guard nodes <= maxNodes else { return nil }
    }
    let object = ArchivedObject(
      className: className, fields: entries.map { ($0.key, $0.value) }, objectIndex: uid)
    return (.object(object), nodes)
  }

  /// An inline array of a coder key (`NS.keys`, `NS.objects`): UIDs and scalars, no nested containers.
  private mutating func list(
    _ elements: BinaryPropertyListParser.ContainerSpan, depth: Int, in parser: BinaryPropertyListParser
  ) -> ([ArchiveValue], Int)? {
    var values: [ArchiveValue] = []
    values.reserveCapacity(elements.count)
    var nodes = 1
    for position in 0..<elements.count {
      guard let index = try? parser.reference(at: elements.start + position * parser.trailer.objectRefSize),
        let shape = parser.shallow(index)
      else { return nil }
      switch shape {
      case .uid(let child):
        guard let (value, count) = resolve(Int(child), depth: depth + 1, in: parser) else { return nil }
        values.append(value)
        nodes += count
      case .scalar(let value):
        values.append(Self.plain(value))
        nodes += 1
      case .array, .dictionary: return nil
      }
      guard nodes <= maxNodes else { return nil }
    }
    return (values, nodes)
  }

  /// A coder key, resolved, and how it was written.
  private struct Field {
    enum Written { case reference, inline, list }
    var key: String
    var value: ArchiveValue
    var nodes: Int
    var written: Written
  }

  /// `$classname` of the class object `uid` names, when it is an ASCII string.
  private static func className(_ uid: UInt64, references: [Int], in parser: BinaryPropertyListParser) -> String? {
    guard uid < UInt64(references.count), let classObject = parser.dictionary(references[Int(uid)]),
      let nameIndex = classObject.value(for: "$classname", in: parser), let name = parser.asciiBytes(nameIndex)
    else { return nil }
    return String(decoding: name, as: UTF8.self)
  }

  /// A scalar as the general resolver converts it (UIDs are handled by the caller).
  private static func plain(_ value: PropertyListValue) -> ArchiveValue {
    switch value {
    case .null: .null
    case .bool(let flag): .bool(flag)
    case .integer(let number): .integer(number)
    case .real(let number): .real(number)
    case .date(let date): .date(date)
    case .data(let data): .data(data)
    case .string(let string): .string(string)
    case .uid, .array, .set, .dictionary: .null  // not reached: `shallow` gives these apart
    }
  }
}
