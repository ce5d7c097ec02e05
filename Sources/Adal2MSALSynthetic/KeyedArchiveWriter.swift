import Foundation

/// A value to archive, in the shapes ADAL's `NSKeyedArchiver` output has.
public indirect enum ArchiveNode: Sendable, Hashable {
  /// `nil`: a reference to `$null` (UID 0).
  case null
  case string(String)
  /// An `NSNumber` (in a dictionary) or an `encodeInteger:` field (inline in the object).
  case integer(Int64)
  case bool(Bool)
  /// `NSData`, stored as a plain data object.
  case data([UInt8])
  /// `NSDate`: `{NS.time, $class}`.
  case date(Date)
  /// `NSDictionary` or `NSMutableDictionary` with string keys.
  case dictionary(className: String, entries: [ArchiveField])
  /// `NSArray` or `NSMutableArray`: `{NS.objects, $class}`.
  case array(className: String, elements: [ArchiveNode])
  /// An object encoded with `encodeObject:forKey:` (and `encodeBool:forKey:`) for each field, in order.
  case object(className: String, fields: [ArchiveField])
}

/// One coder key and its value.
public struct ArchiveField: Sendable, Hashable {
  public var key: String
  public var value: ArchiveNode

  public init(_ key: String, _ value: ArchiveNode) {
    self.key = key
    self.value = value
  }
}

/// Writes an `NSKeyedArchiver` archive (`$archiver`, `$version` 100000, `$top.root`, `$objects`) as a binary
/// property list. Objects get UIDs in the order Apple's archiver gives them (an object, then its class, then
/// its fields); equal strings and classes are archived once.
public enum KeyedArchiveWriter {
  /// The binary property list of an archive whose root object is `root`.
  public static func archive(_ root: ArchiveNode) -> [UInt8] {
    var table = ObjectTable()
    let rootUID = table.add(root)
    var writer = BinaryPlistWriter(maxObjects: table.entries.count * 3 + 16)
    var uidRefs: [Int: BinaryPlistWriter.Ref] = [:]
    func uid(_ value: Int) -> BinaryPlistWriter.Ref {
      if let known = uidRefs[value] { return known }
      let ref = writer.uid(value)
      uidRefs[value] = ref
      return ref
    }
    var objectRefs: [BinaryPlistWriter.Ref] = []
    objectRefs.reserveCapacity(table.entries.count)
    for entry in table.entries {
      switch entry {
      case .string(let text): objectRefs.append(writer.string(text))
      case .integer(let number): objectRefs.append(writer.integer(number))
      case .bool(let flag): objectRefs.append(writer.bool(flag))
      case .data(let bytes): objectRefs.append(writer.data(bytes))
      case .record(let keys, let values):
        let keyRefs = keys.map { writer.string($0) }
        let valueRefs = values.map { value -> BinaryPlistWriter.Ref in
          switch value {
          case .uid(let target): return uid(target)
          case .bool(let flag): return writer.bool(flag)
          case .integer(let number): return writer.integer(number)
          case .real(let number): return writer.real(number)
          case .string(let text): return writer.string(text)
          case .uids(let targets): return writer.array(targets.map(uid))
          case .strings(let texts): return writer.array(texts.map { writer.string($0) })
          }
        }
        objectRefs.append(writer.dictionary(keys: keyRefs, values: valueRefs))
      }
    }
    let objects = writer.array(objectRefs)
    let top = writer.dictionary(keys: [writer.string("root")], values: [uid(rootUID)])
    let keys = ["$version", "$archiver", "$top", "$objects"].map { writer.string($0) }
    let values = [writer.integer(100_000), writer.string("NSKeyedArchiver"), top, objects]
    return writer.finish(top: writer.dictionary(keys: keys, values: values))
  }
}

/// The `$objects` table being built.
private struct ObjectTable {
  enum Value {
    case uid(Int)
    case bool(Bool)
    case integer(Int64)
    case real(Double)
    case string(String)
    case uids([Int])
    case strings([String])
  }

  enum Entry {
    case string(String)
    case integer(Int64)
    case bool(Bool)
    case data([UInt8])
    case record(keys: [String], values: [Value])
  }

  var entries: [Entry] = [.string("$null")]
  var strings: [String: Int] = [:]
  var classes: [String: Int] = [:]

  mutating func add(_ node: ArchiveNode) -> Int {
    switch node {
    case .null: return 0
    case .string(let text):
      if let known = strings[text] { return known }
      entries.append(.string(text))
      strings[text] = entries.count - 1
      return entries.count - 1
    case .integer(let number):
      entries.append(.integer(number))
      return entries.count - 1
    case .bool(let flag):
      entries.append(.bool(flag))
      return entries.count - 1
    case .data(let bytes):
      entries.append(.data(bytes))
      return entries.count - 1
    case .date(let date):
      let index = reserve()
      let classUID = classUID("NSDate", ["NSDate", "NSObject"])
      entries[index] = .record(
        keys: ["NS.time", "$class"], values: [.real(date.timeIntervalSinceReferenceDate), .uid(classUID)])
      return index
    case .dictionary(let className, let fields):
      let index = reserve()
      let classUID = classUID(
        className,
        className == "NSDictionary" ? ["NSDictionary", "NSObject"] : [className, "NSDictionary", "NSObject"])
      let keys = fields.map { add(.string($0.key)) }
      let values = fields.map { add($0.value) }
      entries[index] = .record(
        keys: ["NS.keys", "NS.objects", "$class"], values: [.uids(keys), .uids(values), .uid(classUID)])
      return index
    case .array(let className, let elements):
      let index = reserve()
      let classUID = classUID(
        className, className == "NSArray" ? ["NSArray", "NSObject"] : [className, "NSArray", "NSObject"])
      let values = elements.map { add($0) }
      entries[index] = .record(keys: ["NS.objects", "$class"], values: [.uids(values), .uid(classUID)])
      return index
    case .object(let className, let fields):
      let index = reserve()
      let classUID = classUID(className, [className, "NSObject"])
      var keys: [String] = []
      var values: [Value] = []
      keys.reserveCapacity(fields.count + 1)
      values.reserveCapacity(fields.count + 1)
      for field in fields {
        keys.append(field.key)
        switch field.value {
        case .bool(let flag): values.append(.bool(flag))  // encodeBool:forKey: is inline
        case .integer(let number): values.append(.integer(number))  // encodeInteger:forKey: is inline
        default: values.append(.uid(add(field.value)))
        }
      }
      keys.append("$class")
      values.append(.uid(classUID))
      entries[index] = .record(keys: keys, values: values)
      return index
    }
  }

  private mutating func reserve() -> Int {
    entries.append(.record(keys: [], values: []))
    return entries.count - 1
  }

  private mutating func classUID(_ name: String, _ hierarchy: [String]) -> Int {
    if let known = classes[name] { return known }
    entries.append(.record(keys: ["$classes", "$classname"], values: [.strings(hierarchy), .string(name)]))
    classes[name] = entries.count - 1
    return entries.count - 1
  }
}
