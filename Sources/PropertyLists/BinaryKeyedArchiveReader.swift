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
  ///
  /// - Parameter pruning: coder keys of the object the root's coder key `field` holds, for a caller that reads
  ///   that object's fields by name and never these: their values are checked as every other value is (the
  ///   result is nil where it would be), but not built, and the keys are left out of that object (and only
  ///   there, wherever else the object is referenced). An ADAL item's `userInformation.allClaims` is most of its
  ///   objects.
  public func read(_ data: Data, pruning: (field: String, keys: [String])? = nil) -> KeyedArchive? {
    guard data.count <= limits.maxInputBytes, limits.maxDepth >= Self.minimumDepthLimit,
      data.starts(with: Self.magic)
    else { return nil }
    return data.withUnsafeBytes { raw in
      guard let parser = try? BinaryPropertyListParser(bytes: raw, input: data, limits: limits) else { return nil }
      return parser.readSimpleKeyedArchive(pruning: pruning)
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
  func readSimpleKeyedArchive(pruning: (field: String, keys: [String])? = nil) -> KeyedArchive? {
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
    var resolver = SimpleArchiveResolver(references: references, limits: limits, pruning: pruning)
    guard rootUID < UInt64(references.count),
      let resolved = resolver.resolve(Int(rootUID), depth: 0, mode: .buildRoot, in: self),
      resolved.nodes <= resolver.maxNodes, let root = resolved.value
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
///
/// A value is built, or only checked (under a pruned coder key): a check makes every test a build makes, on the
/// kind of each value in place of the value, and counts the same nodes.
struct SimpleArchiveResolver {
  /// `$objects`: the property list object of each archived object.
  let references: [Int]
  let maxNodes: Int
  /// The root's coder key whose object has keys pruned, and those keys (`BinaryKeyedArchiveReader.read`).
  let prunedField: [UInt8]?
  let prunedKeys: [[UInt8]]
  private var resolved: [Resolved?]
  private var inProgress: [Bool]
  private var classNames: [String?]

  /// What a value is, where a check needs that and not the value.
  enum Kind { case null, bool, integer, real, string, data, date, array, set, dictionary, object }

  /// How an object is resolved: only checked, built, built as the root, or built with the pruned keys left out.
  enum Mode { case check, build, buildRoot, buildPruned }

  /// A resolved object: its value (nil when it was only checked; without the pruned keys when `pruned`), its
  /// kind, and its node count as `KeyedArchiveResolver` counts it.
  struct Resolved {
    var value: ArchiveValue?
    var kind: Kind
    var nodes: Int
    var pruned = false
  }

  init(references: [Int], limits: InputLimits, pruning: (field: String, keys: [String])? = nil) {
    self.references = references
    prunedField = pruning.map { Array($0.field.utf8) }
    prunedKeys = pruning?.keys.map { Array($0.utf8) } ?? []
    resolved = Array(repeating: nil, count: references.count)
    inProgress = Array(repeating: false, count: references.count)
    classNames = Array(repeating: nil, count: references.count)
    let (expansion, overflow) = limits.maxExpansionFactor.multipliedReportingOverflow(by: max(references.count, 1))
    maxNodes = min(limits.maxObjects, overflow ? Int.max : expansion)
  }

  func rootClassName(_ uid: Int) -> String? { classNames[uid] }

  /// `$objects[uid]`, resolved once in each form it is needed in (a value only checked is built when it is
  /// needed built; an object built with keys pruned is built whole where it is needed whole).
  mutating func resolve(
    _ uid: Int, depth: Int, mode: Mode, in parser: BinaryPropertyListParser
  ) -> Resolved? {
    guard uid < references.count else { return nil }
    if let known = resolved[uid], mode == .check || (known.value != nil && known.pruned == (mode == .buildPruned)) {
      return known
    }
    guard !inProgress[uid], depth <= BinaryKeyedArchiveReader.maxObjectDepth,
      let shape = parser.shallow(references[uid])
    else { return nil }
    inProgress[uid] = true
    defer { inProgress[uid] = false }
    let result: Resolved?
    switch shape {
    case .dictionary(let fields): result = instance(uid, fields: fields, depth: depth, mode: mode, in: parser)
    case .scalar(let value):
      if uid == 0, case .string(let text) = value, text == "$null" {
        result = Resolved(value: .null, kind: .null, nodes: 1)
      } else {
        result = Resolved(value: mode == .check ? nil : Self.plain(value), kind: Self.kind(value), nodes: 1)
      }
    case .uid, .array: result = nil
    }
    guard let result, result.nodes <= maxNodes else { return nil }
    resolved[uid] = result
    return result
  }

  /// A class instance: every UID of its coder keys resolved first (as the general resolver does, whether the
  /// class uses them or not), then the Foundation value classes made plain values, others `ArchivedObject`s.
  private mutating func instance(
    _ uid: Int, fields: BinaryPropertyListParser.ContainerSpan, depth: Int, mode: Mode,
    in parser: BinaryPropertyListParser
  ) -> Resolved? {
    let building = mode != .check
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
      let pruned = mode == .buildPruned && prunedKeys.contains { Self.equal($0, keyBytes) }
      let childMode: Mode =
        !building || pruned
        ? .check
        : mode == .buildRoot && prunedField.map { Self.equal($0, keyBytes) } == true
          ? .buildPruned : .build
      let build = childMode != .check
      switch shape {
      case .uid(let child):
        guard let value = resolve(Int(child), depth: depth + 1, mode: childMode, in: parser) else { return nil }
        entries.append(Field(key: key, resolved: value, written: .reference, pruned: pruned))
      case .scalar(let value):
        let resolved = Resolved(value: build ? Self.plain(value) : nil, kind: Self.kind(value), nodes: 1)
        entries.append(Field(key: key, resolved: resolved, written: .inline, pruned: pruned))
      case .array(let elements):
        guard let (values, count, nodes) = list(elements, depth: depth + 1, building: build, in: parser) else {
          return nil
        }
        let resolved = Resolved(value: values.map(ArchiveValue.array), kind: .array, nodes: nodes)
        entries.append(Field(key: key, resolved: resolved, written: .list, count: count, pruned: pruned))
      case .dictionary: return nil
      }
    }
    guard let className else { return nil }
    classNames[uid] = className
    // Every Foundation value class is named NS…: the others (an ADAL item's own classes) skip the lookups.
    if className.utf8.starts(with: "NS".utf8) {
      func field(_ name: String) -> Field? { entries.first { $0.key == name } }
      if KeyedArchiveResolver.stringClasses.contains(className) {
        guard let text = field("NS.string"), text.written != .list, text.resolved.kind == .string else { return nil }
        return Resolved(value: text.resolved.value, kind: .string, nodes: 1)
      }
      if className == "NSDate" {
        guard let time = field("NS.time"), time.written == .inline,
          time.resolved.kind == .real || time.resolved.kind == .integer
        else { return nil }
        var date: ArchiveValue?
        switch time.resolved.value {
        case .real(let seconds)?: date = .date(Date(timeIntervalSinceReferenceDate: seconds))
        case .integer(let seconds)?: date = .date(Date(timeIntervalSinceReferenceDate: Double(seconds)))
        default: date = nil  // only checked
        }
        return Resolved(value: date, kind: .date, nodes: 1)
      }
      if KeyedArchiveResolver.dataClasses.contains(className) {
        guard let bytes = field("NS.data"), bytes.written != .list, bytes.resolved.kind == .data else { return nil }
        return Resolved(value: bytes.resolved.value, kind: .data, nodes: 1)
      }
      if className == "NSNull" { return Resolved(value: .null, kind: .null, nodes: 1) }
      if KeyedArchiveResolver.dictionaryClasses.contains(className) {
        guard let keys = field("NS.keys"), keys.written == .list, let values = field("NS.objects"),
          values.written == .list, keys.count == values.count
        else { return nil }
        var dictionary: ArchiveValue?
        if case .array(let keyValues)? = keys.resolved.value, case .array(let objectValues)? = values.resolved.value {
          dictionary = .dictionary(zip(keyValues, objectValues).map { ArchiveDictionaryEntry(key: $0, value: $1) })
        }
        return Resolved(value: dictionary, kind: .dictionary, nodes: keys.resolved.nodes + values.resolved.nodes)
      }
      let isSet = KeyedArchiveResolver.setClasses.contains(className)
      if isSet || KeyedArchiveResolver.arrayClasses.contains(className) {
        guard let elements = field("NS.objects"), elements.written == .list else { return nil }
        var collection: ArchiveValue?
        if case .array(let values)? = elements.resolved.value { collection = isSet ? .set(values) : .array(values) }
        return Resolved(value: collection, kind: isSet ? .set : .array, nodes: elements.resolved.nodes)
      }
    }
    var nodes = 1
    for entry in entries {
      nodes += entry.resolved.nodes
      guard nodes <= maxNodes else { return nil }
    }
    guard building else { return Resolved(value: nil, kind: .object, nodes: nodes) }
    let object = ArchivedObject(
      className: className,
      fields: entries.compactMap { entry in entry.pruned ? nil : entry.resolved.value.map { (entry.key, $0) } },
      objectIndex: uid)
    return Resolved(value: .object(object), kind: .object, nodes: nodes, pruned: mode == .buildPruned)
  }

  /// An inline array of a coder key (`NS.keys`, `NS.objects`): UIDs and scalars, no nested containers. Its
  /// values (nil when only checked), its element count and its node count.
  private mutating func list(
    _ elements: BinaryPropertyListParser.ContainerSpan, depth: Int, building: Bool,
    in parser: BinaryPropertyListParser
  ) -> ([ArchiveValue]?, Int, Int)? {
    var values: [ArchiveValue] = []
    if building { values.reserveCapacity(elements.count) }
    var nodes = 1
    for position in 0..<elements.count {
      guard let index = try? parser.reference(at: elements.start + position * parser.trailer.objectRefSize),
        let shape = parser.shallow(index)
      else { return nil }
      switch shape {
      case .uid(let child):
        guard let resolved = resolve(Int(child), depth: depth + 1, mode: building ? .build : .check, in: parser)
        else {
          return nil
        }
        if let value = resolved.value, building { values.append(value) }
        nodes += resolved.nodes
      case .scalar(let value):
        if building { values.append(Self.plain(value)) }
        nodes += 1
      case .array, .dictionary: return nil
      }
      guard nodes <= maxNodes else { return nil }
    }
    return (building ? values : nil, elements.count, nodes)
  }

  private static func equal(_ name: [UInt8], _ key: UnsafeRawBufferPointer) -> Bool {
    name.withUnsafeBytes { BinaryPropertyListParser.equalBytes($0, key) }
  }

  /// A coder key, resolved, and how it was written.
  private struct Field {
    enum Written { case reference, inline, list }
    var key: String
    var resolved: Resolved
    var written: Written
    /// For lists: the number of elements.
    var count = 0
    /// Left out of the object (`pruning`).
    var pruned: Bool
  }

  /// `$classname` of the class object `uid` names, when it is an ASCII string.
  private static func className(_ uid: UInt64, references: [Int], in parser: BinaryPropertyListParser) -> String? {
    guard uid < UInt64(references.count), let classObject = parser.dictionary(references[Int(uid)]),
      let nameIndex = classObject.value(for: "$classname", in: parser), let name = parser.asciiBytes(nameIndex)
    else { return nil }
    return String(decoding: name, as: UTF8.self)
  }

  /// The kind of the value `plain` makes of a scalar.
  private static func kind(_ value: PropertyListValue) -> Kind {
    switch value {
    case .null, .uid, .array, .set, .dictionary: .null  // the last four not reached: `shallow` gives them apart
    case .bool: .bool
    case .integer: .integer
    case .real: .real
    case .date: .date
    case .data: .data
    case .string: .string
    }
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
