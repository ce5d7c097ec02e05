import Adal2MSALSupport
import Foundation

/// Resolves `$objects` entries by UID, as `KeyedArchiveResolver` does, for the shape
/// `BinaryKeyedArchiveReader` handles; nil for anything else.
///
/// A value is built, or only checked (under a pruned coder key): a check makes every test a build makes, on the
/// kind of each value in place of the value, and counts the same nodes. It reads only objects `checkReached`
/// has checked, so a value only checked is not decoded again, and coder keys are compared as bytes: a key
/// becomes a `String` only in an object that is built.
struct SimpleArchiveResolver {
  /// `$objects`: the references to the property list object of each archived object (all checked by
  /// `checkReached`), read where they are needed: an array of them was an allocation per archive.
  let objects: BinaryPropertyListParser.ContainerSpan
  let maxNodes: Int
  /// The root's coder key whose object has keys pruned, and those keys (`BinaryKeyedArchiveReader.read`).
  let prunedField: String?
  let prunedKeys: [String]
  /// Class names and coder keys whose archived spelling is answered with this string
  /// (`BinaryKeyedArchiveReader.names`).
  let knownNames: [String]
  /// What is known of each archived object, by UID (one array: an archive is read per keychain item).
  private var slots: [Slot]
  /// The classes instances named (`Slot.describedClass` indexes them): an archive has a handful.
  private var classes: [ArchiveClass] = []
  /// `$classname` of the root's class, once the root is resolved as a class instance.
  private(set) var rootClassName: String?
  /// The coder keys of the instances being resolved, innermost last: an instance pushes its keys above those of
  /// the instances it is resolved for and pops them before it returns, so that one array serves the archive
  /// (an array each was an allocation per archived object).
  private var fieldStack: [Field] = []

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

  /// An archived object's resolution so far, and, for a class object, the class it describes. Small: an
  /// array of them is made for every archive.
  fileprivate struct Slot {
    var resolved: Resolved?
    var inProgress = false
    /// The class this object describes (its index in `classes`), once an instance named it in `$class`.
    var describedClass: Int32 = -1
  }

  /// A class, looked up once per archive: its name and what its instances resolve to.
  struct ArchiveClass {
    var name: String
    var role: Role
  }

  /// The Foundation value classes `KeyedArchiveResolver` makes plain values of; `instance` for the others.
  enum Role { case string, date, data, null, dictionary, set, array, instance }

  /// The tables a resolver fills, kept for the next archive's (`ArchiveReadScratch`), empty between archives.
  struct Storage {
    fileprivate var slots: [Slot] = []
    fileprivate var classes: [ArchiveClass] = []
    fileprivate var fieldStack: [Field] = []
  }

  /// - Parameter storage: tables to fill (taken until `giveBack(to:)`), which keep their capacity.
  init(
    objects: BinaryPropertyListParser.ContainerSpan, limits: InputLimits,
    pruning: (field: String, keys: [String])? = nil, names: [String] = [], reusing storage: inout Storage
  ) {
    self.objects = objects
    knownNames = names
    prunedField = pruning?.field
    prunedKeys = pruning?.keys ?? []
    slots = []
    swap(&slots, &storage.slots)
    swap(&classes, &storage.classes)
    swap(&fieldStack, &storage.fieldStack)
    slots.append(contentsOf: repeatElement(Slot(), count: objects.count))
    fieldStack.reserveCapacity(32)  // an ADAL item's root and the instance under it
    classes.reserveCapacity(8)  // an ADAL item's two classes and the Foundation ones its values use
    maxNodes = limits.maxExpandedNodes(objectCount: objects.count)
  }

  /// Empties the tables (what they hold of this archive is let go) and gives them back to `storage`.
  mutating func giveBack(to storage: inout Storage) {
    slots.removeAll(keepingCapacity: true)
    classes.removeAll(keepingCapacity: true)
    fieldStack.removeAll(keepingCapacity: true)
    swap(&slots, &storage.slots)
    swap(&classes, &storage.classes)
    swap(&fieldStack, &storage.fieldStack)
  }

  /// The property list object of `$objects[uid]` (`uid` in range).
  private func object(_ uid: Int, in parser: BinaryPropertyListParser) -> Int? {
    try? parser.reference(at: objects.start + uid * parser.trailer.objectRefSize)
  }

  /// `$objects[uid]`, resolved once in each form it is needed in (a value only checked is built when it is
  /// needed built; an object built with keys pruned is built whole where it is needed whole).
  mutating func resolve(
    _ uid: Int, depth: Int, mode: Mode, in parser: BinaryPropertyListParser
  ) -> Resolved? {
    guard uid < objects.count else { return nil }
    if let known = slots[uid].resolved,
      mode == .check || (known.value != nil && known.pruned == (mode == .buildPruned))
    {
      return known
    }
    // `$objects[0]` is told from a string by its value, even where it is only checked.
    guard !slots[uid].inProgress, depth <= BinaryKeyedArchiveReader.maxObjectDepth,
      let index = object(uid, in: parser), let shape = parser.shallow(index, values: mode != .check || uid == 0)
    else { return nil }
    slots[uid].inProgress = true
    defer { slots[uid].inProgress = false }
    let result: Resolved?
    switch shape {
    case .dictionary(let fields): result = instance(uid, fields: fields, depth: depth, mode: mode, in: parser)
    case .scalar(let value, let kind):
      if uid == 0, case .string(let text)? = value, text == "$null" {
        result = Resolved(value: .null, kind: .null, nodes: 1)
      } else {
        result = Resolved(value: mode == .check ? nil : value.map(Self.plain), kind: kind, nodes: 1)
      }
    case .uid, .array: result = nil
    }
    guard let result, result.nodes <= maxNodes else { return nil }
    slots[uid].resolved = result
    return result
  }

  /// A class instance: every UID of its coder keys resolved first (as the general resolver does, whether the
  /// class uses them or not), then the Foundation value classes made plain values, others `ArchivedObject`s.
  private mutating func instance(
    _ uid: Int, fields: BinaryPropertyListParser.ContainerSpan, depth: Int, mode: Mode,
    in parser: BinaryPropertyListParser
  ) -> Resolved? {
    let building = mode != .check
    let base = fieldStack.count
    // One at a time: `removeLast(_:)` goes through the generic `replaceSubrange`, a tenth of this function's cost.
    defer { while fieldStack.count > base { fieldStack.removeLast() } }
    var objectClass: ArchiveClass?
    let size = parser.trailer.objectRefSize
    for position in 0..<fields.count {
      guard let keyIndex = try? parser.reference(at: fields.start + position * size),
        let key = parser.asciiBytes(keyIndex),
        let valueIndex = try? parser.reference(at: fields.start + (fields.count + position) * size)
      else { return nil }
      let pruned = mode == .buildPruned && prunedKeys.contains { Self.equal($0, key) }
      let childMode: Mode =
        !building || pruned
        ? .check
        : mode == .buildRoot && prunedField.map { Self.equal($0, key) } == true
          ? .buildPruned : .build
      let build = childMode != .check
      guard let shape = parser.shallow(valueIndex, values: build) else { return nil }
      if BinaryPropertyListParser.equalBytes(key, "$class") {
        guard case .uid(let classUID) = shape, let found = archiveClass(classUID, in: parser) else { return nil }
        objectClass = found
        continue
      }
      switch shape {
      case .uid(let child):
        // A UID of a hostile archive may not fit an Int (up to 2^64 - 1): no object has it.
        guard let child = Int(exactly: child), let value = resolve(child, depth: depth + 1, mode: childMode, in: parser)
        else { return nil }
        fieldStack.append(Field(key: key, resolved: value, written: .reference, pruned: pruned))
      case .scalar(let value, let kind):
        let resolved = Resolved(value: value.map(Self.plain), kind: kind, nodes: 1)
        fieldStack.append(Field(key: key, resolved: resolved, written: .inline, pruned: pruned))
      case .array(let elements):
        guard let (values, count, nodes) = list(elements, depth: depth + 1, building: build, in: parser) else {
          return nil
        }
        let resolved = Resolved(value: values.map(ArchiveValue.array), kind: .array, nodes: nodes)
        fieldStack.append(Field(key: key, resolved: resolved, written: .list, count: count, pruned: pruned))
      case .dictionary: return nil
      }
    }
    guard let objectClass else { return nil }
    if mode == .buildRoot { rootClassName = objectClass.name }
    if let value = Self.foundationValue(objectClass.role, fieldStack[base...]) { return value }
    guard objectClass.role == .instance else { return nil }
    var nodes = 1
    for entry in fieldStack[base...] {
      nodes += entry.resolved.nodes
      guard nodes <= maxNodes else { return nil }
    }
    guard building else { return Resolved(value: nil, kind: .object, nodes: nodes) }
    // Sized once: `compactMap` grew the array by doubling, five allocations for an ADAL item's root.
    var objectFields: [(key: String, value: ArchiveValue)] = []
    objectFields.reserveCapacity(fieldStack.count - base)
    for entry in fieldStack[base...] where !entry.pruned {
      if let value = entry.resolved.value { objectFields.append((string(entry.key), value)) }
    }
    let object = ArchivedObject(className: objectClass.name, fields: objectFields, objectIndex: uid)
    return Resolved(value: .object(object), kind: .object, nodes: nodes, pruned: mode == .buildPruned)
  }

  /// An instance of a Foundation value class as the plain value it stands for (nil for other classes, and for
  /// an instance whose coder keys do not make one).
  private static func foundationValue(_ role: Role, _ entries: ArraySlice<Field>) -> Resolved? {
    func field(_ name: StaticString) -> Field? {
      entries.first { BinaryPropertyListParser.equalBytes($0.key, name) }
    }
    switch role {
    case .instance: return nil
    case .string:
      guard let text = field("NS.string"), text.written != .list, text.resolved.kind == .string else { return nil }
      return Resolved(value: text.resolved.value, kind: .string, nodes: 1)
    case .date:
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
    case .data:
      guard let bytes = field("NS.data"), bytes.written != .list, bytes.resolved.kind == .data else { return nil }
      return Resolved(value: bytes.resolved.value, kind: .data, nodes: 1)
    case .null: return Resolved(value: .null, kind: .null, nodes: 1)
    case .dictionary:
      guard let keys = field("NS.keys"), keys.written == .list, let values = field("NS.objects"),
        values.written == .list, keys.count == values.count
      else { return nil }
      var dictionary: ArchiveValue?
      if case .array(let keyValues)? = keys.resolved.value, case .array(let objectValues)? = values.resolved.value {
        dictionary = .dictionary(zip(keyValues, objectValues).map { ArchiveDictionaryEntry(key: $0, value: $1) })
      }
      return Resolved(value: dictionary, kind: .dictionary, nodes: keys.resolved.nodes + values.resolved.nodes)
    case .set, .array:
      guard let elements = field("NS.objects"), elements.written == .list else { return nil }
      var collection: ArchiveValue?
      if case .array(let values)? = elements.resolved.value {
        collection = role == .set ? .set(values) : .array(values)
      }
      return Resolved(value: collection, kind: role == .set ? .set : .array, nodes: elements.resolved.nodes)
    }
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
        let shape = parser.shallow(index, values: building)
      else { return nil }
      switch shape {
      case .uid(let child):
        guard let child = Int(exactly: child),
          let resolved = resolve(child, depth: depth + 1, mode: building ? .build : .check, in: parser)
        else {
          return nil
        }
        if let value = resolved.value, building { values.append(value) }
        nodes += resolved.nodes
      case .scalar(let value, _):
        if let value { values.append(Self.plain(value)) }
        nodes += 1
      case .array, .dictionary: return nil
      }
      guard nodes <= maxNodes else { return nil }
    }
    return (building ? values : nil, elements.count, nodes)
  }

  /// Whether a coder key is `name` (short names are compared where they lie, with nothing allocated).
  private static func equal(_ name: String, _ key: UnsafeRawBufferPointer) -> Bool {
    guard name.utf8.count == key.count else { return false }
    var name = name
    return name.withUTF8 { BinaryPropertyListParser.equalBytes(UnsafeRawBufferPointer($0), key) }
  }

  /// A coder key (its bytes in the input), resolved, and how it was written.
  fileprivate struct Field {
    enum Written { case reference, inline, list }
    var key: UnsafeRawBufferPointer
    var resolved: Resolved
    var written: Written
    /// For lists: the number of elements.
    var count = 0
    /// Left out of the object (`pruning`).
    var pruned: Bool
  }

  /// The class the class object `uid` describes, when its `$classname` is an ASCII string: looked up once for
  /// all the instances that name it.
  private mutating func archiveClass(_ uid: UInt64, in parser: BinaryPropertyListParser) -> ArchiveClass? {
    guard uid < UInt64(objects.count) else { return nil }
    let known = slots[Int(uid)].describedClass
    if known >= 0 { return classes[Int(known)] }
    guard let index = object(Int(uid), in: parser), let classObject = parser.dictionary(index),
      let nameIndex = classObject.value(for: "$classname", in: parser), let nameBytes = parser.asciiBytes(nameIndex)
    else { return nil }
    let name = string(nameBytes)
    let found = ArchiveClass(name: name, role: Self.role(of: name))
    guard let slot = Int32(exactly: classes.count) else { return nil }
    slots[Int(uid)].describedClass = slot
    classes.append(found)
    return found
  }

  private func string(_ bytes: UnsafeRawBufferPointer) -> String { Self.name(bytes, knownNames: knownNames) }

  /// A class name or coder key: the string of `knownNames` or of the Foundation value classes that `bytes`
  /// spell, if any, when made anew it would be allocated (over 15 bytes): an allocation for each archive
  /// naming it (an ADAL item names two classes and three such keys).
  static func name(_ bytes: UnsafeRawBufferPointer, knownNames: [String]) -> String {
    guard bytes.count > 15, let known = knownName(bytes, among: knownNames) else {
      return String(decoding: bytes, as: UTF8.self)
    }
    return known
  }

  private static func knownName(_ bytes: UnsafeRawBufferPointer, among knownNames: [String]) -> String? {
    func spells(_ name: String) -> Bool {
      name.utf8.withContiguousStorageIfAvailable {
        BinaryPropertyListParser.equalBytes(bytes, UnsafeRawBufferPointer($0))
      }
        ?? false
    }
    return knownNames.first(where: spells) ?? foundationNames.first(where: spells)
  }

  /// The names of `foundationRoles`, for `knownName`.
  private static let foundationNames = Array(foundationRoles.keys)

  static func role(of className: String) -> Role {
    // Every Foundation value class is named NS…: the others (an ADAL item's own classes) skip the lookup. Read
    // with an iterator: the generic `starts(with:)` cost as much as the lookup.
    var bytes = className.utf8.makeIterator()
    guard bytes.next() == UInt8(ascii: "N"), bytes.next() == UInt8(ascii: "S") else { return .instance }
    return foundationRoles[className] ?? .instance
  }

  /// The Foundation value classes of `KeyedArchiveResolver` by role, in one table: a class is looked up once, not
  /// in each family's set in turn (an archive's classes are looked up for every keychain item).
  private static let foundationRoles: [String: Role] = {
    var roles: [String: Role] = ["NSDate": .date, "NSNull": .null]
    let families: [(Set<String>, Role)] = [
      (KeyedArchiveResolver.stringClasses, .string), (KeyedArchiveResolver.dataClasses, .data),
      (KeyedArchiveResolver.dictionaryClasses, .dictionary), (KeyedArchiveResolver.setClasses, .set),
      (KeyedArchiveResolver.arrayClasses, .array),
    ]
    for (names, role) in families {
      for name in names { roles[name] = role }
    }
    return roles
  }()

  /// The kind of the value `plain` makes of a scalar.
  static func kind(_ value: PropertyListValue) -> Kind {
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
  static func plain(_ value: PropertyListValue) -> ArchiveValue {
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
