import Foundation

/// Builds binary property lists object by object, so that tests can write exactly the (broken) bytes they need.
struct BinaryPlistBuilder {
  var objects: [[UInt8]] = []
  var refSize = 1
  var offsetSize = 2
  var top = 0
  /// Overrides for the trailer fields, to build broken trailers.
  var objectCountOverride: UInt64?
  var offsetTableOverride: UInt64?

  @discardableResult
  mutating func add(_ bytes: [UInt8]) -> Int {
    objects.append(bytes)
    return objects.count - 1
  }

  func ref(_ index: Int) -> [UInt8] { Self.bigEndian(UInt64(index), size: refSize) }

  static func bigEndian(_ value: UInt64, size: Int) -> [UInt8] {
    (0..<size).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) }
  }

  /// A marker with a count, using the 0xF + integer form for counts of 15 and more.
  static func header(_ high: UInt8, count: Int) -> [UInt8] {
    count < 15 ? [high << 4 | UInt8(count)] : [high << 4 | 0xF, 0x13] + bigEndian(UInt64(count), size: 8)
  }

  static func ascii(_ text: String) -> [UInt8] { header(0x5, count: text.utf8.count) + Array(text.utf8) }
  static func utf16(_ units: [UInt16]) -> [UInt8] {
    header(0x6, count: units.count) + units.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
  }
  static func int8(_ value: Int64) -> [UInt8] { [0x13] + bigEndian(UInt64(bitPattern: value), size: 8) }

  func array(_ refs: [Int]) -> [UInt8] { Self.header(0xA, count: refs.count) + refs.flatMap(ref) }
  func dict(_ keys: [Int], _ values: [Int]) -> [UInt8] {
    Self.header(0xD, count: keys.count) + keys.flatMap(ref) + values.flatMap(ref)
  }

  func build() -> Data {
    var bytes = Array("bplist00".utf8)
    var offsets: [Int] = []
    for object in objects {
      offsets.append(bytes.count)
      bytes += object
    }
    let tableStart = bytes.count
    for offset in offsets { bytes += Self.bigEndian(UInt64(offset), size: offsetSize) }
    bytes += [0, 0, 0, 0, 0, 0, UInt8(offsetSize), UInt8(refSize)]
    bytes += Self.bigEndian(objectCountOverride ?? UInt64(objects.count), size: 8)
    bytes += Self.bigEndian(UInt64(top), size: 8)
    bytes += Self.bigEndian(offsetTableOverride ?? UInt64(tableStart), size: 8)
    return Data(bytes)
  }
}
