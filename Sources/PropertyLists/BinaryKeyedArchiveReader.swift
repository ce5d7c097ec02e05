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
  /// Class names and coder keys the caller's archives usually spell: a class or a key of a built object spelled
  /// as one of these takes this string, not one made for each archive (the Foundation value classes are known
  /// without it). Only names over 15 bytes matter: shorter strings are stored inline.
  public var names: [String]

  public init(limits: InputLimits = .default, names: [String] = []) {
    self.limits = limits
    self.names = names
  }

  /// The archive, or nil when `data` is not a binary keyed archive of the handled shape within the limits.
  ///
  /// - Parameter pruning: coder keys of the object the root's coder key `field` holds, for a caller that reads
  ///   that object's fields by name and never these: their values are checked as every other value is (the
  ///   result is nil where it would be), but not built, and the keys are left out of that object (and only
  ///   there, wherever else the object is referenced). An ADAL item's `userInformation.allClaims` is most of its
  ///   objects.
  public func read(_ data: Data, pruning: (field: String, keys: [String])? = nil) -> KeyedArchive? {
    var scratch = ArchiveReadScratch()
    return read(data, pruning: pruning, reusing: &scratch)
  }

  /// `read(_:pruning:)` with the tables it fills kept in `scratch` for the next archive, not allocated anew: a
  /// caller that reads many archives (one per keychain item) keeps one per thread.
  package func read(
    _ data: Data, pruning: (field: String, keys: [String])? = nil, reusing scratch: inout ArchiveReadScratch
  ) -> KeyedArchive? {
    guard data.count <= limits.maxInputBytes, limits.maxDepth >= Self.minimumDepthLimit,
      data.starts(with: Self.magic)
    else { return nil }
    return data.withUnsafeBytes { raw in
      guard var parser = try? BinaryPropertyListParser(bytes: raw, input: data, limits: limits, buildsTree: false)
      else { return nil }
      // Taken out of `scratch` while the parser holds it, and given back once the parser lets it go: the one
      // reference left, so that the next archive fills it in place.
      var spans: [ObjectSpan] = []
      swap(&spans, &scratch.spans)
      defer { scratch.spans = spans }
      guard parser.objectSpans(into: &spans) else { return nil }
      parser.spans = spans
      defer { parser.spans = [] }
      return parser.readSimpleKeyedArchive(pruning: pruning, names: names, reusing: &scratch.resolver)
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

/// The tables `BinaryKeyedArchiveReader` fills for an archive, kept for the next one
/// (`BinaryKeyedArchiveReader.read(_:pruning:reusing:)`): they hold nothing of an archive once it is read.
package struct ArchiveReadScratch {
  var spans: [ObjectSpan] = []
  var resolver = SimpleArchiveResolver.Storage()

  package init() {}
}

/// An object's place in a binary property list: its marker and the marker's offset, and for data, strings and
/// containers the payload's start and count (nil when the count cannot be read).
struct ObjectSpan {
  var offset: Int
  var marker: UInt8
  var payload: BinaryPropertyListParser.ContainerSpan?
}

extension BinaryPropertyListParser {
  /// Every object's place, read once for the walks below, which look objects up many times (keys and classes
  /// are referenced from every archived object), into `spans` (emptied first). False where `objectOffset` fails
  /// on any object: the walks would fail then too (`validateTree` on an object it reaches, `countReferences` on
  /// the others).
  func objectSpans(into spans: inout [ObjectSpan]) -> Bool {
    // The offset table read in one loop (`objectOffset` for each entry was a third of the time taken here).
    let entrySize = trailer.offsetIntSize
    let areaEnd = UInt64(trailer.offsetTableStart)
    var entry = trailer.offsetTableStart
    spans.removeAll(keepingCapacity: true)
    spans.reserveCapacity(trailer.objectCount)
    for _ in 0..<trailer.objectCount {
      let value = Self.readUnsigned(bytes, at: entry, size: entrySize)
      entry += entrySize
      guard value >= UInt64(BinaryPropertyListTrailer.headerSize), value < areaEnd else { return false }
      let offset = Int(value)
      let marker = bytes[offset]
      var payload: ContainerSpan?
      switch marker >> 4 {
      case 0x4, 0x5, 0x6, 0xA, 0xC, 0xD:
        if let (count, start) = try? readCount(at: offset, low: Int(marker & 0x0F)) {
          payload = ContainerSpan(start: start, count: count)
        }
      default: break
      }
      spans.append(ObjectSpan(offset: offset, marker: marker, payload: payload))
    }
    return true
  }

  /// See `BinaryKeyedArchiveReader`. Nothing here mutates the parser: calling its other methods from a
  /// mutating one copied the whole parser on each call.
  func readSimpleKeyedArchive(
    pruning: (field: String, keys: [String])? = nil, names: [String] = [],
    reusing storage: inout SimpleArchiveResolver.Storage
  ) -> KeyedArchive? {
    // What the binary reader checks on everything reachable from the top object, and on every container: the
    // reachable ones are checked by `validateTree`, so the others only when some object was not reached.
    var nodes = 0
    var reachedCount = 0
    // On the stack where it fits (Swift allocates large ones on the heap): an archive is read per keychain item.
    let valid = withUnsafeTemporaryAllocation(of: Bool.self, capacity: trailer.objectCount) { reached in
      reached.initialize(repeating: false)
      return validateTree(trailer.topObject, depth: 0, nodes: &nodes, reached: reached, reachedCount: &reachedCount)
    }
    guard valid else { return nil }
    if reachedCount < trailer.objectCount {
      var counting = self
      counting.referenceCounts = Array(repeating: 0, count: trailer.objectCount)
      guard (try? counting.countReferences()) != nil else { return nil }
    }
    guard let top = dictionary(trailer.topObject),
      let archiver = top.value(for: "$archiver", in: self), isASCIIString(archiver, equalTo: "NSKeyedArchiver"),
      let version = top.value(for: "$version", in: self), integer(version) == 100_000,
      let objectsIndex = top.value(for: "$objects", in: self), let objects = array(objectsIndex),
      let topEntriesIndex = top.value(for: "$top", in: self), let topEntries = dictionary(topEntriesIndex),
      topEntries.count == 1, let rootIndex = topEntries.value(for: "root", in: self), let rootUID = uid(rootIndex)
    else { return nil }
    var resolver = SimpleArchiveResolver(
      objects: objects, limits: limits, pruning: pruning, names: names, reusing: &storage)
    defer { resolver.giveBack(to: &storage) }
    guard rootUID < UInt64(objects.count),
      let resolved = resolver.resolve(Int(rootUID), depth: 0, mode: .buildRoot, in: self),
      resolved.nodes <= resolver.maxNodes, let root = resolved.value
    else { return nil }
    return KeyedArchive(top: [("root", root)], root: root, rootClassName: resolver.rootClassName)
  }

  // MARK: The property list

  /// A container's place: `count` references (pairs for dictionaries: keys, then values) from `start`.
  struct ContainerSpan {
    var start: Int
    var count: Int

    /// For dictionaries: the value object of an ASCII key (keys are checked to be distinct ASCII strings).
    func value(for key: StaticString, in parser: BinaryPropertyListParser) -> Int? {
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
  func validateTree(
    _ index: Int, depth: Int, nodes: inout Int, reached: UnsafeMutableBufferPointer<Bool>, reachedCount: inout Int
  ) -> Bool {
    guard depth <= BinaryKeyedArchiveReader.maxContainerDepth else { return false }
    let span = spans[index]
    let marker = span.marker
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
      guard let (start, count) = span.payload.map({ ($0.start, $0.count) }) else { return false }
      let isDictionary = marker >> 4 == 0xD
      guard count <= (isDictionary ? BinaryKeyedArchiveReader.maxKeys : Int.max / 16) else { return false }
      let references = isDictionary ? count * 2 : count
      guard (try? requireBytes(start, references * trailer.objectRefSize, "container")) != nil else { return false }
      if isDictionary {
        // On the stack: a keychain dump has a dictionary per archived object.
        let distinct = withUnsafeTemporaryAllocation(of: UnsafeRawBufferPointer.self, capacity: count) { keys in
          for position in 0..<count {
            guard let keyIndex = try? reference(at: start + position * trailer.objectRefSize),
              validateChild(keyIndex, depth: depth + 1, nodes: &nodes, reached: reached, reachedCount: &reachedCount),
              let key = asciiBytes(keyIndex),
              !keys[..<position].contains(where: { Self.equalBytes($0, key) })
            else { return false }
            keys.initializeElement(at: position, to: key)
          }
          return true
        }
        guard distinct else { return false }
      }
      for position in (isDictionary ? count : 0)..<references {
        guard let child = try? reference(at: start + position * trailer.objectRefSize),
          validateChild(child, depth: depth + 1, nodes: &nodes, reached: reached, reachedCount: &reachedCount)
        else { return false }
      }
      return true
    case 0xC: return false
    default: return checkedBefore || isValidScalar(span)
    }
  }

  /// `validateTree` of a container's element, with a scalar checked here (and only counted when it was checked
  /// before): archives reference their keys and classes from every object, and most elements are scalars, for
  /// which a call of `validateTree`, with the frame its containers need, was most of the walk's cost.
  func validateChild(
    _ index: Int, depth: Int, nodes: inout Int, reached: UnsafeMutableBufferPointer<Bool>, reachedCount: inout Int
  ) -> Bool {
    let span = spans[index]
    guard depth <= BinaryKeyedArchiveReader.maxContainerDepth, Self.isScalar(span.marker) else {
      return validateTree(index, depth: depth, nodes: &nodes, reached: reached, reachedCount: &reachedCount)
    }
    if !reached[index] {
      reached[index] = true
      reachedCount += 1
      guard isValidScalar(span) else { return false }
    }
    nodes += 1
    return nodes <= maxNodes
  }

  /// Checks a scalar object (not an array, a set or a dictionary) as `decodeScalar` would read it.
  func isValidScalar(_ span: ObjectSpan) -> Bool {
    switch span.marker >> 4 {
    case 0x4, 0x5, 0x6: return (try? checkBytes(span)) != nil
    // An integer is read as `scalar(at:)` reads it, without the box its value would take.
    case 0x1: return (try? readInteger(at: span.offset)) != nil
    default: return (try? scalar(at: span.offset)) != nil
    }
  }

  /// Whether a marker is a scalar's (neither an array, a set nor a dictionary).
  static func isScalar(_ marker: UInt8) -> Bool {
    let high = marker >> 4
    return high != 0xA && high != 0xC && high != 0xD
  }

  /// Checks a data or string object as `decodeScalar` does, without making its value (copying data and
  /// slicing the input for each string only to drop them was most of the check's time).
  func checkBytes(_ span: ObjectSpan) throws(PropertyListError) {
    let offset = span.offset
    guard let payload = span.payload else { throw .at(offset: offset, "unreadable length") }
    let (count, start) = (payload.count, payload.start)
    switch span.marker >> 4 {
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

  /// Whether a byte run holds the UTF-8 of `text`.
  static func equalBytes(_ bytes: UnsafeRawBufferPointer, _ text: StaticString) -> Bool {
    text.withUTF8Buffer { equalBytes(bytes, UnsafeRawBufferPointer($0)) }
  }

  /// The payload of object `index` when its marker's high nibble is `expected`.
  func container(_ index: Int, marker expected: UInt8) -> ContainerSpan? {
    let span = spans[index]
    guard span.marker >> 4 == expected else { return nil }
    return span.payload
  }

  func dictionary(_ index: Int) -> ContainerSpan? { container(index, marker: 0xD) }
  func array(_ index: Int) -> ContainerSpan? { container(index, marker: 0xA) }

  /// The bytes of an ASCII string object (validated by `validateTree`).
  func asciiBytes(_ index: Int) -> UnsafeRawBufferPointer? {
    guard let span = container(index, marker: 0x5) else { return nil }
    return UnsafeRawBufferPointer(rebasing: bytes[span.start..<(span.start + span.count)])
  }

  func isASCIIString(_ index: Int, equalTo text: StaticString) -> Bool {
    guard let bytes = asciiBytes(index) else { return false }
    return Self.equalBytes(bytes, text)
  }

  func uid(_ index: Int) -> UInt64? {
    let span = spans[index]
    guard span.marker >> 4 == 0x8, case .uid(let value)? = try? scalar(at: span.offset) else { return nil }
    return value
  }

  func integer(_ index: Int) -> Int128? {
    let span = spans[index]
    guard span.marker >> 4 == 0x1 else { return nil }
    return try? readInteger(at: span.offset)
  }

  /// What `index` is, for the resolver: a UID, a flat array's element objects, a dictionary, or a scalar: its
  /// kind, and its value when `values` (without, the object is not decoded again: only for objects
  /// `validateTree` checked).
  enum Shallow {
    case uid(UInt64)
    case array(ContainerSpan)
    case dictionary(ContainerSpan)
    case scalar(PropertyListValue?, SimpleArchiveResolver.Kind)
  }

  func shallow(_ index: Int, values: Bool) -> Shallow? {
    let span = spans[index]
    switch span.marker >> 4 {
    case 0xA: return span.payload.map(Shallow.array)
    case 0xD: return span.payload.map(Shallow.dictionary)
    case 0xC: return nil
    case 0x8:
      guard case .uid(let uid)? = try? scalar(at: span.offset) else { return nil }
      return .uid(uid)
    case 0x5, 0x6:
      // Checked: its text is borrowed as `scalar(at:)` borrows it, without checking it again.
      guard let payload = span.payload else { return nil }
      guard values else { return .scalar(nil, .string) }
      if span.marker >> 4 == 0x5 {
        return .scalar(.string(PropertyListString(ascii: slice(payload.start, payload.count))), .string)
      }
      return .scalar(.string(PropertyListString(utf16BigEndian: slice(payload.start, payload.count * 2))), .string)
    default:
      guard values else { return Self.scalarKind(span.marker).map { .scalar(nil, $0) } }
      guard let value = try? scalar(at: span.offset) else { return nil }
      return .scalar(value, SimpleArchiveResolver.kind(value))
    }
  }

  /// The kind of the scalar a checked object's marker stands for (nil for markers `scalar(at:)` refuses).
  static func scalarKind(_ marker: UInt8) -> SimpleArchiveResolver.Kind? {
    let low = marker & 0x0F
    switch marker >> 4 {
    case 0x0: return low == 0x0 || low == 0xF ? .null : low == 0x8 || low == 0x9 ? .bool : nil
    case 0x1: return low <= 4 ? .integer : nil
    case 0x2: return low == 2 || low == 3 ? .real : nil
    case 0x3: return low == 3 ? .date : nil
    case 0x4: return .data
    case 0x5, 0x6: return .string
    default: return nil
    }
  }
}
