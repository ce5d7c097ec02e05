import Adal2MSALSupport
import Foundation

/// A binary keyed archive read where its bytes lie: checked as `BinaryKeyedArchiveReader` checks an archive (the
/// property list, then every archived object reached from the root), with nothing built, so that a reader of
/// fields by name (the ADAL item decoder) makes only the values it reads. Building the `ArchiveValue` tree of
/// each keychain item, looking its fields up and letting it go again was a third of decoding a large dump.
///
/// It takes archives whose class instances are each held by one reference (a tree of instances, as an archiver
/// writes an object graph without shared objects): each value read here is then the value `SimpleArchiveResolver`
/// builds, whose rules it follows. Other archives, and every archive that resolver refuses, give nil
/// (`InPlaceArchiveTests` compares the two).
///
/// Valid only inside `BinaryKeyedArchiveReader.readInPlace(_:reusing:_:)`'s body, whose input it reads.
package final class InPlaceArchive {
  // A class, reached by its views without a count (`BorrowedArchive`), so that reading a value neither copies
  // nor retains the archive's tables; the tables the check fills are its only variables, unchecked for exclusive
  // access (one thread reads an archive, and nothing else holds them).
  fileprivate let parser: BinaryPropertyListParser
  /// `$objects`.
  private let objects: BinaryPropertyListParser.ContainerSpan
  /// What the check found of each archived object, by UID.
  @exclusivity(unchecked) fileprivate var facts: [Fact]
  /// The classes instances named (`Fact.classSlot` and `Fact.describedClass` index them).
  @exclusivity(unchecked) private var classes: [SimpleArchiveResolver.ArchiveClass]
  /// Every instance's coder keys but `$class`, each instance's in a run of its own (`Fact.keys`).
  @exclusivity(unchecked) private var keys: [Key]
  /// Class names and coder keys spelled as one of these take this string (`BinaryKeyedArchiveReader.names`).
  fileprivate let names: [String]
  private let maxNodes: Int

  /// An archived object's kind once checked; for an instance, its class and whether it was reached; for a class
  /// object, the class it describes.
  fileprivate struct Fact {
    var kind = SimpleArchiveResolver.Kind.null
    var reached = false
    var classSlot: Int32 = -1
    var describedClass: Int32 = -1
    /// An instance's run in `keys`.
    var keysStart: Int32 = 0
    var keysEnd: Int32 = 0
  }

  /// A coder key of an instance: its key and value objects, and a tag of the key's length and end bytes that
  /// tells most other keys apart without reading them.
  fileprivate struct Key {
    var tag: UInt32
    var key: Int32
    var value: Int32

    static func tag(_ bytes: UnsafeRawBufferPointer) -> UInt32 { BinaryPropertyListParser.keyTag(bytes) }

    /// Never a key's tag (a key of 65,536 bytes would need a count over 64 KiB): `$class`, which is not looked up.
    static let none = Key(tag: .max, key: -1, value: -1)
  }

  /// The tables a read fills, kept for the next archive (`ArchiveReadScratch`), empty between archives.
  struct Storage {
    fileprivate var facts: [Fact] = []
    fileprivate var classes: [SimpleArchiveResolver.ArchiveClass] = []
    fileprivate var keys: [Key] = []
  }

  fileprivate init(
    parser: BinaryPropertyListParser, objects: BinaryPropertyListParser.ContainerSpan, names: [String],
    reusing storage: inout Storage
  ) {
    self.parser = parser
    self.objects = objects
    self.names = names
    facts = []
    classes = []
    keys = []
    swap(&facts, &storage.facts)
    swap(&classes, &storage.classes)
    swap(&keys, &storage.keys)
    facts.append(contentsOf: repeatElement(Fact(), count: objects.count))
    maxNodes = parser.limits.maxExpandedNodes(objectCount: objects.count)
  }

  fileprivate func giveBack(to storage: inout Storage) {
    facts.removeAll(keepingCapacity: true)
    classes.removeAll(keepingCapacity: true)
    keys.removeAll(keepingCapacity: true)
    swap(&facts, &storage.facts)
    swap(&classes, &storage.classes)
    swap(&keys, &storage.keys)
  }

  // MARK: Places

  /// The object a reference names (references were checked to name objects as the objects were found).
  fileprivate func reference(at position: Int) -> Int {
    Int(BinaryPropertyListParser.readUnsigned(parser.bytes, at: position, size: parser.trailer.objectRefSize))
  }

  /// The property list object of `$objects[uid]` (`uid` in range).
  fileprivate func object(_ uid: Int) -> Int {
    reference(at: objects.start + uid * parser.trailer.objectRefSize)
  }

  fileprivate func span(_ index: Int) -> ObjectSpan { parser.spans[index] }

  /// The key and value objects of a dictionary's entry `position`.
  fileprivate func entry(
    _ position: Int, of fields: BinaryPropertyListParser.ContainerSpan
  ) -> (key: Int, value: Int) {
    let size = parser.trailer.objectRefSize
    return (
      reference(at: fields.start + position * size), reference(at: fields.start + (fields.count + position) * size)
    )
  }

  /// The element objects of an array.
  fileprivate func element(_ position: Int, of elements: BinaryPropertyListParser.ContainerSpan) -> Int {
    reference(at: elements.start + position * parser.trailer.objectRefSize)
  }

  fileprivate func kind(ofUID uid: Int) -> SimpleArchiveResolver.Kind { facts[uid].kind }

  // The parser's readers, for the views: called on the parser through the views' pointer, each call copied it.

  fileprivate func uid(_ index: Int) -> Int? { parser.uid(index).flatMap { Int(exactly: $0) } }

  fileprivate func asciiBytes(_ index: Int) -> UnsafeRawBufferPointer? { parser.asciiBytes(index) }

  /// The value of scalar object `index`, made as the resolver makes it.
  fileprivate func scalar(_ index: Int) -> PropertyListValue? { try? parser.scalar(at: span(index).offset) }

  fileprivate func string(_ index: Int) -> PropertyListString? { parser.string(span(index)) }

  /// The value object of instance `uid`'s coder key `key` (not `$class`), if it has that key.
  fileprivate func value(of key: UnsafeRawBufferPointer, inInstance uid: Int) -> Int? {
    let tag = Key.tag(key)
    for entry in keys[Int(facts[uid].keysStart)..<Int(facts[uid].keysEnd)] where entry.tag == tag {
      if let bytes = parser.asciiBytes(Int(entry.key)), BinaryPropertyListParser.equalBytes(bytes, key) {
        return Int(entry.value)
      }
    }
    return nil
  }

  fileprivate func className(ofUID uid: Int) -> String { classes[Int(facts[uid].classSlot)].name }

  // MARK: Checking, as `SimpleArchiveResolver` resolves

  /// A value's kind and node count, as `SimpleArchiveResolver.Resolved` has them.
  fileprivate typealias Checked = (kind: SimpleArchiveResolver.Kind, nodes: Int)

  /// How a coder key holds its value (`SimpleArchiveResolver.Field.Written`).
  private enum Held { case reference, inline, list }

  /// Checks `$objects[uid]` as `SimpleArchiveResolver.resolve` checks it: nil where that gives nil, and for an
  /// instance reached a second time (held twice, or by itself), which only that resolver reads.
  fileprivate func check(_ uid: Int, depth: Int) -> Checked? {
    guard uid < objects.count, depth <= BinaryKeyedArchiveReader.maxObjectDepth else { return nil }
    let span = span(object(uid))
    let checked: Checked
    switch span.marker >> 4 {
    case 0xD:
      guard !facts[uid].reached, let fields = span.payload else { return nil }
      facts[uid].reached = true
      guard let instance = checkInstance(uid, fields: fields, depth: depth) else { return nil }
      checked = instance
    case 0xA, 0xC, 0x8: return nil
    default:
      guard let kind = BinaryPropertyListParser.scalarKind(span.marker) else { return nil }
      // `$objects[0]` is told from a string by its value.
      checked = (uid == 0 && kind == .string && isNullMarker(span) ? .null : kind, 1)
    }
    guard checked.nodes <= maxNodes else { return nil }
    facts[uid].kind = checked.kind
    return checked
  }

  /// Whether a string object is `$null`, compared where it lies when it is ASCII (an archive's nil references are
  /// each a reference to it).
  private func isNullMarker(_ span: ObjectSpan) -> Bool {
    guard span.marker >> 4 == 0x5, let payload = span.payload else { return parser.string(span) == "$null" }
    return BinaryPropertyListParser.equalBytes(
      UnsafeRawBufferPointer(rebasing: parser.bytes[payload.start..<(payload.start + payload.count)]), "$null")
  }

  /// `SimpleArchiveResolver.instance`, checking: every coder key checked and the class looked up, then what a
  /// Foundation value class needs of its keys (`foundationValue`).
  private func checkInstance(
    _ uid: Int, fields: BinaryPropertyListParser.ContainerSpan, depth: Int
  ) -> Checked? {
    var classSlot: Int32 = -1
    var nodes = 1
    var string: (held: Held, checked: Checked)?
    var time: (held: Held, checked: Checked)?
    var data: (held: Held, checked: Checked)?
    var keyList: (held: Held, count: Int, nodes: Int)?
    var values: (held: Held, count: Int, nodes: Int)?
    // The instance's run of keys, made before its values are checked (they add the runs of the instances they hold).
    let run = keys.count
    keys.append(contentsOf: repeatElement(Key.none, count: fields.count))
    facts[uid].keysStart = Int32(truncatingIfNeeded: run)
    facts[uid].keysEnd = Int32(truncatingIfNeeded: keys.count)
    for position in 0..<fields.count {
      let (keyIndex, valueIndex) = entry(position, of: fields)
      guard let key = parser.asciiBytes(keyIndex) else { return nil }
      let valueSpan = span(valueIndex)
      if BinaryPropertyListParser.equalBytes(key, "$class") {
        guard valueSpan.marker >> 4 == 0x8, let classUID = parser.uid(valueIndex), let slot = archiveClass(classUID)
        else { return nil }
        classSlot = slot
        continue
      }
      let held: Held
      let checked: Checked
      var count = 0
      switch valueSpan.marker >> 4 {
      case 0x8:
        guard let child = parser.uid(valueIndex).flatMap({ Int(exactly: $0) }),
          let value = check(child, depth: depth + 1)
        else { return nil }
        (held, checked) = (.reference, value)
      case 0xA:
        guard let elements = valueSpan.payload, let listNodes = checkList(elements, depth: depth + 1) else {
          return nil
        }
        (held, checked, count) = (.list, (.array, listNodes), elements.count)
      case 0xD, 0xC: return nil
      default:
        guard let kind = BinaryPropertyListParser.scalarKind(valueSpan.marker) else { return nil }
        (held, checked) = (.inline, (kind, 1))
      }
      nodes += checked.nodes
      guard nodes <= maxNodes else { return nil }
      keys[run + position] = Key(
        tag: Key.tag(key), key: Int32(truncatingIfNeeded: keyIndex), value: Int32(truncatingIfNeeded: valueIndex))
      // Only the keys of Foundation value classes (`NS.` and four to seven more bytes) are looked at again.
      guard key.count >= 7, key.count <= 10, key[0] == 0x4E, key[1] == 0x53, key[2] == 0x2E else { continue }
      if BinaryPropertyListParser.equalBytes(key, "NS.string") {
        string = (held, checked)
      } else if BinaryPropertyListParser.equalBytes(key, "NS.time") {
        time = (held, checked)
      } else if BinaryPropertyListParser.equalBytes(key, "NS.data") {
        data = (held, checked)
      } else if BinaryPropertyListParser.equalBytes(key, "NS.keys") {
        keyList = (held, count, checked.nodes)
      } else if BinaryPropertyListParser.equalBytes(key, "NS.objects") {
        values = (held, count, checked.nodes)
      }
    }
    guard classSlot >= 0 else { return nil }
    facts[uid].classSlot = classSlot
    switch classes[Int(classSlot)].role {
    case .instance: return (.object, nodes)
    case .string:
      guard let string, string.held != .list, string.checked.kind == .string else { return nil }
      return (.string, 1)
    case .date:
      guard let time, time.held == .inline, time.checked.kind == .real || time.checked.kind == .integer else {
        return nil
      }
      return (.date, 1)
    case .data:
      guard let data, data.held != .list, data.checked.kind == .data else { return nil }
      return (.data, 1)
    case .null: return (.null, 1)
    case .dictionary:
      guard let keyList, let values, keyList.held == .list, values.held == .list, keyList.count == values.count
      else { return nil }
      return (.dictionary, keyList.nodes + values.nodes)
    case .set, .array:
      guard let values, values.held == .list else { return nil }
      return (classes[Int(classSlot)].role == .set ? .set : .array, values.nodes)
    }
  }

  /// `SimpleArchiveResolver.list`, checking: the node count of a coder key's inline array.
  private func checkList(_ elements: BinaryPropertyListParser.ContainerSpan, depth: Int) -> Int? {
    var nodes = 1
    for position in 0..<elements.count {
      let index = element(position, of: elements)
      let marker = span(index).marker
      switch marker >> 4 {
      case 0x8:
        guard let child = parser.uid(index).flatMap({ Int(exactly: $0) }), let value = check(child, depth: depth + 1)
        else { return nil }
        nodes += value.nodes
      case 0xA, 0xD, 0xC: return nil
      default:
        guard BinaryPropertyListParser.scalarKind(marker) != nil else { return nil }
        nodes += 1
      }
      guard nodes <= maxNodes else { return nil }
    }
    return nodes
  }

  /// The class the class object `uid` describes (`SimpleArchiveResolver.archiveClass`), as its slot in `classes`:
  /// looked up once for all the instances that name it.
  private func archiveClass(_ uid: UInt64) -> Int32? {
    guard uid < UInt64(objects.count) else { return nil }
    let classUID = Int(uid)
    let known = facts[classUID].describedClass
    if known >= 0 { return known }
    guard let classObject = parser.dictionary(object(classUID)),
      let nameIndex = classObject.value(for: "$classname", in: parser), let nameBytes = parser.asciiBytes(nameIndex),
      let slot = Int32(exactly: classes.count)
    else { return nil }
    let name = SimpleArchiveResolver.name(nameBytes, knownNames: names)
    classes.append(SimpleArchiveResolver.ArchiveClass(name: name, role: SimpleArchiveResolver.role(of: name)))
    facts[classUID].describedClass = slot
    return slot
  }
}

extension BinaryKeyedArchiveReader {
  /// Calls `body` with the root of `data` read in place (`InPlaceArchive`) when the root is a class instance and
  /// the archive one `InPlaceArchive` reads, and returns its result; nil otherwise (`read(_:pruning:reusing:)`
  /// then gives what the archive holds, or nil too).
  package func readInPlace<Result>(
    _ data: Data, reusing scratch: inout ArchiveReadScratch, _ body: (InPlaceObject) -> Result
  ) -> Result? {
    withCheckedObjects(data, reusing: &scratch) { parser, scratch in
      guard let (objects, rootUID) = parser.checkedArchive() else { return nil }
      let archive = InPlaceArchive(parser: parser, objects: objects, names: names, reusing: &scratch.inPlace)
      defer { archive.giveBack(to: &scratch.inPlace) }
      guard let root = archive.check(rootUID, depth: 0), root.kind == .object else { return nil }
      return withExtendedLifetime(archive) { body(InPlaceObject(archive: BorrowedArchive(archive), uid: rootUID)) }
    }
  }
}

// MARK: Reading in place

/// An `InPlaceArchive` as its views reach it: lent to each call without a count. Held `unowned(unsafe)`, it was
/// retained and released around each call: a seventh of a dry run's retains, 2% of its CPU time.
private struct BorrowedArchive {
  private let archive: Unmanaged<InPlaceArchive>

  init(_ archive: InPlaceArchive) { self.archive = .passUnretained(archive) }

  @inline(__always)
  func callAsFunction<Result>(_ body: (InPlaceArchive) -> Result) -> Result {
    archive._withUnsafeGuaranteedRef(body)
  }
}

/// A class instance of an `InPlaceArchive`: what `ArchivedObject` holds where `BinaryKeyedArchiveReader` builds one.
package struct InPlaceObject {
  /// The archive, which outlives every value read from it (`readInPlace`'s body).
  private let archive: BorrowedArchive
  private let uid: Int

  fileprivate init(archive: BorrowedArchive, uid: Int) {
    self.archive = archive
    self.uid = uid
  }

  /// `$classname` of its class.
  package var className: String { archive { $0.className(ofUID: uid) } }

  /// The value of a coder key; nil when the key is absent (`ArchivedObject`'s subscript: keys are ASCII, and
  /// compared as bytes).
  package subscript(key: String) -> InPlaceValue? {
    var key = key
    return key.withUTF8 { wanted in
      archive { $0.value(of: UnsafeRawBufferPointer(wanted), inInstance: uid) }.map {
        InPlaceValue(archive: archive, held: $0)
      }
    }
  }

  /// The instance as `SimpleArchiveResolver` builds it.
  package var archiveValue: ArchiveValue { InPlaceValue(archive: archive, uid: uid).archiveValue }
}

/// A coder key's value in an `InPlaceArchive`, with `ArchiveValue`'s accessors, read from the bytes.
package struct InPlaceValue {
  private let archive: BorrowedArchive
  private let place: Place

  /// An archived object (`$objects[uid]`), or a scalar or an array held by a coder key itself.
  private enum Place {
    case uid(Int)
    case inline(Int)
  }

  fileprivate init(archive: BorrowedArchive, uid: Int) {
    self.archive = archive
    place = .uid(uid)
  }

  /// The value a coder key or a list holds in property list object `index`.
  fileprivate init(archive: BorrowedArchive, held index: Int) {
    self.archive = archive
    if archive({ $0.span(index).marker >> 4 == 0x8 }), let uid = archive({ $0.uid(index) }) {
      place = .uid(uid)
    } else {
      place = .inline(index)
    }
  }

  /// The property list object the value lies in.
  private var index: Int {
    switch place {
    case .uid(let uid): archive { $0.object(uid) }
    case .inline(let index): index
    }
  }

  private var span: ObjectSpan { archive { $0.span(index) } }

  var kind: SimpleArchiveResolver.Kind {
    switch place {
    case .uid(let uid): return archive { $0.kind(ofUID: uid) }
    case .inline(let index):
      let marker = archive { $0.span(index).marker }
      return marker >> 4 == 0xA ? .array : BinaryPropertyListParser.scalarKind(marker) ?? .null
    }
  }

  package var isNull: Bool { kind == .null }

  /// Whether the value is a dictionary (an `NSDictionary` instance): `archiveValue` then builds its entries.
  package var isDictionary: Bool { kind == .dictionary }

  /// `ArchiveValue.kindName`.
  package var kindName: String { ArchiveValue.name(of: kind) { objectValue?.className ?? "" } }

  /// Whether the value is an instance (of a Foundation value class or another), not a scalar.
  private var isInstance: Bool { span.marker >> 4 == 0xD }

  /// A Foundation value instance's coder key `key`.
  private func field(_ key: String) -> InPlaceValue? {
    guard case .uid(let uid) = place else { return nil }
    return InPlaceObject(archive: archive, uid: uid)[key]
  }

  /// The text of a string (`ArchiveValue.string`), borrowed from the input.
  package var text: PropertyListString? {
    guard kind == .string else { return nil }
    if isInstance { return field("NS.string")?.text }
    return archive { $0.string(index) }
  }

  package var dateValue: Date? {
    guard kind == .date else { return nil }
    let value = isInstance ? field("NS.time")?.scalar : scalar
    switch value {
    case .date(let date)?: return date
    case .real(let seconds)?: return Date(timeIntervalSinceReferenceDate: seconds)
    case .integer(let seconds)?: return Date(timeIntervalSinceReferenceDate: Double(seconds))
    default: return nil
    }
  }

  package var dataValue: Data? {
    guard kind == .data else { return nil }
    if isInstance { return field("NS.data")?.dataValue }
    if case .data(let data)? = scalar { return data }
    return nil
  }

  /// `ArchiveValue.boolValue`: a boolean, or an integer other than zero.
  package var boolValue: Bool? {
    switch kind == .bool || kind == .integer ? scalar : nil {
    case .bool(let flag)?: flag
    case .integer(let number)?: number != 0
    default: nil
    }
  }

  package var objectValue: InPlaceObject? {
    guard kind == .object, case .uid(let uid) = place else { return nil }
    return InPlaceObject(archive: archive, uid: uid)
  }

  /// The value of a scalar object (nil for instances and arrays), made as the resolver makes it.
  private var scalar: PropertyListValue? {
    let index = index
    let marker = archive { $0.span(index).marker >> 4 }
    guard marker != 0xD, marker != 0xA else { return nil }
    return archive { $0.scalar(index) }
  }

  /// The value as `SimpleArchiveResolver` builds it: for what a reader by name converts as a whole
  /// (dictionaries, arrays, instances of other classes).
  package var archiveValue: ArchiveValue {
    let span = span
    switch span.marker >> 4 {
    case 0xA: return .array(span.payload.map(list) ?? [])
    case 0xD:
      guard case .uid(let uid) = place, let fields = span.payload else { return .null }
      return instanceValue(uid, fields: fields)
    default:
      switch kind {
      case .null: return .null
      case .string: return text.map(ArchiveValue.string) ?? .null
      default: return scalar.map(SimpleArchiveResolver.plain) ?? .null
      }
    }
  }

  private func list(_ elements: BinaryPropertyListParser.ContainerSpan) -> [ArchiveValue] {
    var values: [ArchiveValue] = []
    values.reserveCapacity(elements.count)
    for position in 0..<elements.count {
      values.append(InPlaceValue(archive: archive, held: archive { $0.element(position, of: elements) }).archiveValue)
    }
    return values
  }

  private func instanceValue(_ uid: Int, fields: BinaryPropertyListParser.ContainerSpan) -> ArchiveValue {
    switch kind {
    case .null: return .null
    case .string: return text.map(ArchiveValue.string) ?? .null
    case .date: return dateValue.map(ArchiveValue.date) ?? .null
    case .data: return dataValue.map(ArchiveValue.data) ?? .null
    case .dictionary:
      guard case .array(let keys)? = field("NS.keys")?.archiveValue,
        case .array(let values)? = field("NS.objects")?.archiveValue
      else { return .null }
      return .dictionary(zip(keys, values).map { ArchiveDictionaryEntry(key: $0, value: $1) })
    case .array, .set:
      guard case .array(let values)? = field("NS.objects")?.archiveValue else { return .null }
      return kind == .set ? .set(values) : .array(values)
    case .object:
      var built: [(key: String, value: ArchiveValue)] = []
      built.reserveCapacity(fields.count)
      for position in 0..<fields.count {
        let (keyIndex, valueIndex) = archive { $0.entry(position, of: fields) }
        guard let key = archive({ $0.asciiBytes(keyIndex) }),
          !BinaryPropertyListParser.equalBytes(key, "$class")
        else { continue }
        let name = archive { SimpleArchiveResolver.name(key, knownNames: $0.names) }
        built.append((name, InPlaceValue(archive: archive, held: valueIndex).archiveValue))
      }
      let className = archive { $0.className(ofUID: uid) }
      return .object(ArchivedObject(className: className, fields: built, objectIndex: uid))
    case .bool, .integer, .real: return .null
    }
  }
}

extension BinaryPropertyListParser {
  /// A checked ASCII or UTF-16 string object's text, borrowed from the input as `shallow` borrows it.
  fileprivate func string(_ span: ObjectSpan) -> PropertyListString? {
    guard let payload = span.payload else { return nil }
    switch span.marker >> 4 {
    case 0x5: return PropertyListString(ascii: slice(payload.start, payload.count))
    case 0x6: return PropertyListString(utf16BigEndian: slice(payload.start, payload.count * 2))
    default: return nil
    }
  }
}
