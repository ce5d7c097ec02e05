import Adal2MSALSupport
import Foundation

/// How instances of Foundation value classes are decoded; every other class becomes an `ArchivedObject`.
extension KeyedArchiveResolver {
  static let stringClasses: Set<String> = ["NSString", "NSMutableString"]
  static let dataClasses: Set<String> = ["NSData", "NSMutableData"]
  static let dictionaryClasses: Set<String> = ["NSDictionary", "NSMutableDictionary"]
  static let arrayClasses: Set<String> = [
    "NSArray", "NSMutableArray", "NSOrderedSet", "NSMutableOrderedSet",
  ]
  static let setClasses: Set<String> = ["NSSet", "NSMutableSet"]

  mutating func decodeInstance(
    _ index: Int, className: String, fields: PropertyListDictionary, depth: Int
  ) throws(PropertyListError) -> (ArchiveValue, Int, Int) {
    if Self.stringClasses.contains(className) {
      if let text = fields["NS.string"] {
        let (value, _, _) = try resolveField(text, owner: index, depth: depth)
        guard case .string = value else {
          throw .at(object: index, "\(className) NS.string is \(Wording.indefinite(value.kindName))")
        }
        return (value, 1, 0)
      }
      if let bytes = fields["NS.bytes"] {
        let (value, _, _) = try resolveField(bytes, owner: index, depth: depth)
        guard case .data(let data) = value, let text = String(validating: data, as: UTF8.self) else {
          throw .at(object: index, "\(className) NS.bytes is not UTF-8 data")
        }
        return (.string(PropertyListString(text)), 1, 0)
      }
      throw .at(object: index, "\(className) without NS.string or NS.bytes")
    }
    if className == "NSDate" {
      guard case .real(let seconds)? = fields["NS.time"].map({ ArchiveValue.fromScalar($0) }) ?? nil else {
        throw .at(object: index, "NSDate without a numeric NS.time")
      }
      return (.date(Date(timeIntervalSinceReferenceDate: seconds)), 1, 0)
    }
    if Self.dataClasses.contains(className) {
      guard let bytes = fields["NS.data"] else { throw .at(object: index, "\(className) without NS.data") }
      let (value, _, _) = try resolveField(bytes, owner: index, depth: depth)
      guard case .data = value else {
        throw .at(object: index, "\(className) NS.data is \(Wording.indefinite(value.kindName))")
      }
      return (value, 1, 0)
    }
    if className == "NSNull" { return (.null, 1, 0) }
    if Self.dictionaryClasses.contains(className) {
      guard case .array(let keys)? = fields["NS.keys"], case .array(let values)? = fields["NS.objects"] else {
        throw .at(object: index, "\(className) without NS.keys and NS.objects arrays")
      }
      guard keys.count == values.count else {
        throw .at(object: index, "\(className) has \(keys.count) NS.keys but \(values.count) NS.objects")
      }
      let (resolvedKeys, keyNodes, keyHeight) = try resolveList(keys, owner: index, depth: depth)
      let (resolvedValues, valueNodes, valueHeight) = try resolveList(values, owner: index, depth: depth)
      let entries = zip(resolvedKeys, resolvedValues).map { ArchiveDictionaryEntry(key: $0, value: $1) }
      return (.dictionary(entries), try addNodes(keyNodes, valueNodes, owner: index), max(keyHeight, valueHeight))
    }
    if Self.arrayClasses.contains(className) || Self.setClasses.contains(className) {
      guard case .array(let elements)? = fields["NS.objects"] else {
        throw .at(object: index, "\(className) without an NS.objects array")
      }
      let (values, nodes, height) = try resolveList(elements, owner: index, depth: depth)
      return (Self.setClasses.contains(className) ? .set(values) : .array(values), nodes, height)
    }
    return try decodeObject(index, className: className, fields: fields, depth: depth)
  }

  /// An instance of a class this module does not know: its coder keys, resolved.
  private mutating func decodeObject(
    _ index: Int, className: String, fields: PropertyListDictionary, depth: Int
  ) throws(PropertyListError) -> (ArchiveValue, Int, Int) {
    guard depth < limits.maxDepth else {
      throw .at(object: index, "objects nested deeper than the limit of \(limits.maxDepth)")
    }
    var resolvedFields: [(key: String, value: ArchiveValue)] = []
    resolvedFields.reserveCapacity(fields.count)
    var nodes = 1
    var height = 1
    for (key, value) in fields where key != "$class" {
      let (resolvedValue, count, childHeight) = try resolveField(value, owner: index, depth: depth + 1)
      nodes = try addNodes(nodes, count, owner: index)
      height = max(height, childHeight + 1)
      resolvedFields.append((key, resolvedValue))
    }
    let object = ArchivedObject(className: className, fields: resolvedFields, objectIndex: index)
    return (.object(object), nodes, height)
  }
}

extension ArchiveValue {
  /// A number as a real (`NS.time` may be archived as an integer).
  static func fromScalar(_ value: PropertyListValue) -> ArchiveValue? {
    switch value {
    case .real(let number): .real(number)
    case .integer(let number): .real(Double(number))
    default: nil
    }
  }
}
