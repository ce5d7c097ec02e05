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
    withCheckedObjects(data, reusing: &scratch) { parser, scratch in
      parser.readSimpleKeyedArchive(pruning: pruning, names: names, reusing: &scratch.resolver)
    }
  }

  /// Calls `body` with a parser of `data` whose objects were found and checked (`findAndCheckObjects`); nil when
  /// `data` is not a binary property list within the limits, or one whose objects fail those checks.
  func withCheckedObjects<Result>(
    _ data: Data, reusing scratch: inout ArchiveReadScratch,
    _ body: (BinaryPropertyListParser, inout ArchiveReadScratch) -> Result?
  ) -> Result? {
    guard data.count <= limits.maxInputBytes, limits.maxDepth >= Self.minimumDepthLimit else { return nil }
    return data.withUnsafeBytes { raw in
      // The magic compared in one load (the generic `starts(with:)` cost as much as reading the trailer).
      guard raw.count >= 8, raw.loadUnaligned(as: UInt64.self) == Self.magic,
        var parser = try? BinaryPropertyListParser(bytes: raw, input: data, limits: limits, buildsTree: false)
      else { return nil }
      // Taken out of `scratch` while the parser holds it, and given back once the parser lets it go: the one
      // reference left, so that the next archive fills it in place.
      var spans: [ObjectSpan] = []
      swap(&spans, &scratch.spans)
      defer { scratch.spans = spans }
      guard parser.findAndCheckObjects(into: &spans) else { return nil }
      parser.spans = spans
      spans = []
      defer { spans = parser.spans }
      return body(parser, &scratch)
    }
  }

  /// `bplist00`, as the eight bytes load.
  private static let magic = Array("bplist00".utf8).withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
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
  var inPlace = InPlaceArchive.Storage()

  package init() {}
}

/// An object's place in a binary property list: its marker and the marker's offset, and for data, strings and
/// containers the payload's start and count (nil when the count cannot be read); and whether it passed the checks
/// made of it where it is reached (`findAndCheckObjects`).
struct ObjectSpan {
  var offset: Int
  var marker: UInt8
  var isReadable: Bool
  var payload: BinaryPropertyListParser.ContainerSpan?
}

extension BinaryPropertyListParser {
  /// Every object's place, read once for the walks below, which look objects up many times (keys and classes
  /// are referenced from every archived object), into `spans` (emptied first), each object checked as it is
  /// found: its bytes are read once, while they are in the cache, not again by a walk of the tree.
  ///
  /// False for what the general reader refuses whether the object is reached or not (`countReferences`): an
  /// offset outside the object area, a container whose count cannot be read or whose references run past the
  /// area or name no object. A scalar that cannot be read is only marked (`isReadable`): the general reader
  /// never reads one that nothing reaches, and `checkReached` refuses one that is reached.
  func findAndCheckObjects(into spans: inout [ObjectSpan]) -> Bool {
    // The offset table read in one loop (`objectOffset` for each entry was a third of the time taken here).
    let entrySize = trailer.offsetIntSize
    let referenceSize = trailer.objectRefSize
    let objectCount = UInt64(trailer.objectCount)
    let areaEnd = trailer.offsetTableStart
    let maxStringBytes = limits.maxStringBytes
    /// Whether `count` bytes from `start` lie in the object area (`requireBytes`).
    func inArea(_ start: Int, _ count: Int) -> Bool {
      let (end, overflow) = start.addingReportingOverflow(count)
      return !overflow && end <= areaEnd
    }
    var entry = areaEnd
    spans.removeAll(keepingCapacity: true)
    spans.reserveCapacity(trailer.objectCount)
    for _ in 0..<trailer.objectCount {
      let value = Self.readUnsigned(bytes, at: entry, size: entrySize)
      entry += entrySize
      guard value >= UInt64(BinaryPropertyListTrailer.headerSize), value < UInt64(areaEnd) else { return false }
      let offset = Int(value)
      let marker = bytes[offset]
      let low = Int(marker & 0x0F)
      var span = ObjectSpan(offset: offset, marker: marker, isReadable: false, payload: nil)
      // What `readCount` gives: a count in the marker (most objects), or the integer object after it.
      var counted: (count: Int, start: Int)? {
        low == 0xF ? try? readCount(at: offset, low: low) : (low, offset + 1)
      }
      switch marker >> 4 {
      case 0xA, 0xC, 0xD:
        guard let (count, start) = counted else { return false }
        let (references, overflow) = count.multipliedReportingOverflow(by: marker >> 4 == 0xD ? 2 : 1)
        let (size, sizeOverflow) = references.multipliedReportingOverflow(by: referenceSize)
        guard !overflow, !sizeOverflow, inArea(start, size) else { return false }
        guard Self.referencesNameObjects(bytes, from: start, count: references, size: referenceSize, below: objectCount)
        else { return false }
        span.payload = ContainerSpan(start: start, count: count)
        span.isReadable = true
      case 0x5:
        // ASCII strings (keys, classes, tokens) are most objects and most bytes: checked here as `checkBytes` does.
        guard let (count, start) = counted else { break }
        span.payload = ContainerSpan(start: start, count: count)
        span.isReadable =
          count <= maxStringBytes && inArea(start, count)
          && String.isASCII(
            UnsafeRawBufferPointer(rebasing: bytes[start..<(start + count)]).assumingMemoryBound(
              to: UInt8.self))
      case 0x4, 0x6:
        guard let (count, start) = counted else { break }
        span.payload = ContainerSpan(start: start, count: count)
        span.isReadable = (try? checkBytes(span)) != nil
      // An integer is read as `scalar(at:)` reads it, without the box its value would take.
      case 0x1: span.isReadable = (try? readInteger(at: offset)) != nil
      // A UID of up to eight bytes (a third of an archive's objects) is readable where its bytes are in the area.
      case 0x8 where low < 8: span.isReadable = inArea(offset + 1, low + 1)
      default: span.isReadable = (try? scalar(at: offset)) != nil
      }
      spans.append(span)
    }
    return true
  }

  /// Whether each of `count` references of `size` bytes from `start` (in the object area) is below `objectCount`.
  private static func referencesNameObjects(
    _ bytes: UnsafeRawBufferPointer, from start: Int, count: Int, size: Int, below objectCount: UInt64
  ) -> Bool {
    // One-byte references (archives of fewer than 256 objects) compared without the loader's switch.
    if size == 1 {
      for position in start..<(start + count) where UInt64(bytes[position]) >= objectCount { return false }
      return true
    }
    var position = start
    for _ in 0..<count {
      guard readUnsigned(bytes, at: position, size: size) < objectCount else { return false }
      position += size
    }
    return true
  }

  /// See `BinaryKeyedArchiveReader`. Nothing here mutates the parser: calling its other methods from a
  /// mutating one copied the whole parser on each call.
  func readSimpleKeyedArchive(
    pruning: (field: String, keys: [String])? = nil, names: [String] = [],
    reusing storage: inout SimpleArchiveResolver.Storage
  ) -> KeyedArchive? {
    guard let (objects, rootUID) = checkedArchive() else { return nil }
    var resolver = SimpleArchiveResolver(
      objects: objects, limits: limits, pruning: pruning, names: names, reusing: &storage)
    defer { resolver.giveBack(to: &storage) }
    guard let resolved = resolver.resolve(rootUID, depth: 0, mode: .buildRoot, in: self),
      resolved.nodes <= resolver.maxNodes, let root = resolved.value
    else { return nil }
    return KeyedArchive(top: [("root", root)], root: root, rootClassName: resolver.rootClassName)
  }

  /// The property list checked as the general reader checks it (what it checks on every container was checked
  /// as the objects were found, `findAndCheckObjects`; what it checks on everything reachable from the top object
  /// is checked here), and the keyed archive's `$objects` and root UID (in range), when its top is of the shape
  /// `BinaryKeyedArchiveReader` reads.
  func checkedArchive() -> (objects: ContainerSpan, rootUID: Int)? {
    var nodes = 0
    guard checkReached(trailer.topObject, depth: 0, nodes: &nodes) else { return nil }
    guard let top = dictionary(trailer.topObject),
      let archiver = top.value(for: "$archiver", in: self), isASCIIString(archiver, equalTo: "NSKeyedArchiver"),
      let version = top.value(for: "$version", in: self), integer(version) == 100_000,
      let objectsIndex = top.value(for: "$objects", in: self), let objects = array(objectsIndex),
      let topEntriesIndex = top.value(for: "$top", in: self), let topEntries = dictionary(topEntriesIndex),
      topEntries.count == 1, let rootIndex = topEntries.value(for: "root", in: self), let rootUID = uid(rootIndex),
      rootUID < UInt64(objects.count)
    else { return nil }
    return (objects, Int(rootUID))
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
  /// keys distinct ASCII strings. Every object's own checks were made as it was found (`findAndCheckObjects`):
  /// this walk only reads their outcome, counts the nodes and goes down the containers.
  func checkReached(_ index: Int, depth: Int, nodes: inout Int) -> Bool {
    guard depth <= BinaryKeyedArchiveReader.maxContainerDepth else { return false }
    nodes += 1
    guard nodes <= maxNodes else { return false }
    let span = spans[index]
    guard span.isReadable else { return false }
    let high = span.marker >> 4
    guard high == 0xA || high == 0xD, let payload = span.payload else { return high != 0xC }
    let isDictionary = high == 0xD
    let count = payload.count
    guard count <= (isDictionary ? BinaryKeyedArchiveReader.maxKeys : Int.max / 16) else { return false }
    let size = trailer.objectRefSize
    var position = payload.start
    if isDictionary {
      // On the stack: a keychain dump has a dictionary per archived object. Each key with a tag of its length
      // and end bytes, so that the pairwise comparison reads the bytes of keys that share a tag only.
      let distinct = withUnsafeTemporaryAllocation(of: (UInt32, UnsafeRawBufferPointer).self, capacity: count) {
        keys in
        for slot in 0..<count {
          // References were checked to name objects as the objects were found.
          let keyIndex = Int(Self.readUnsigned(bytes, at: position, size: size))
          position += size
          guard checkChild(keyIndex, depth: depth + 1, nodes: &nodes), let key = asciiBytes(keyIndex) else {
            return false
          }
          let tag = Self.keyTag(key)
          guard !keys[..<slot].contains(where: { $0.0 == tag && Self.equalBytes($0.1, key) }) else { return false }
          keys.initializeElement(at: slot, to: (tag, key))
        }
        return true
      }
      guard distinct else { return false }
    }
    for _ in 0..<count {
      let child = Int(Self.readUnsigned(bytes, at: position, size: size))
      position += size
      guard checkChild(child, depth: depth + 1, nodes: &nodes) else { return false }
    }
    return true
  }

  /// `checkReached` of a container's element, with a scalar checked here: most elements are scalars (keys,
  /// classes, strings), for which a call of `checkReached`, with the frame its containers need, cost more than
  /// the check.
  @inline(__always)
  func checkChild(_ index: Int, depth: Int, nodes: inout Int) -> Bool {
    let span = spans[index]
    let high = span.marker >> 4
    guard depth <= BinaryKeyedArchiveReader.maxContainerDepth, high != 0xA, high != 0xC, high != 0xD else {
      return checkReached(index, depth: depth, nodes: &nodes)
    }
    nodes += 1
    return nodes <= maxNodes && span.isReadable
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

  /// A dictionary key's length and first and last bytes, packed: keys with different tags differ.
  static func keyTag(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
    guard let first = bytes.first, let last = bytes.last else { return 0 }
    return UInt32(truncatingIfNeeded: bytes.count) << 16 | UInt32(first) << 8 | UInt32(last)
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

  /// The bytes of an ASCII string object (checked by `findAndCheckObjects`).
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
    guard span.marker >> 4 == 0x8 else { return nil }
    // One of up to eight bytes is its bytes, once checked (`findAndCheckObjects`).
    let size = Int(span.marker & 0x0F) + 1
    if size <= 8, span.isReadable { return Self.readUnsigned(bytes, at: span.offset + 1, size: size) }
    guard case .uid(let value)? = try? scalar(at: span.offset) else { return nil }
    return value
  }

  func integer(_ index: Int) -> Int128? {
    let span = spans[index]
    guard span.marker >> 4 == 0x1 else { return nil }
    return try? readInteger(at: span.offset)
  }

  /// What `index` is, for the resolver: a UID, a flat array's element objects, a dictionary, or a scalar: its
  /// kind, and its value when `values` (without, the object is not decoded again: only for objects
  /// `checkReached` passed).
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
