import Adal2MSAL
import Foundation

/// A small `bplist00` writer for the benchmark's synthetic input (the library only reads). Strings are
/// written once and shared, as CoreFoundation's writer does.
struct BinaryPlistWriter {
  private var objects: [[UInt8]] = []
  private var stringIndex: [String: Int] = [:]
  private var refSize = 4

  static func write(_ value: PropertyListValue) -> Data {
    var writer = BinaryPlistWriter()
    let top = writer.add(value)
    return writer.finish(top: top)
  }

  private mutating func append(_ bytes: [UInt8]) -> Int {
    objects.append(bytes)
    return objects.count - 1
  }

  private static func bigEndian(_ value: UInt64, size: Int) -> [UInt8] {
    (0..<size).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) }
  }

  private static func header(_ high: UInt8, _ count: Int) -> [UInt8] {
    count < 15 ? [high << 4 | UInt8(count)] : [high << 4 | 0xF, 0x13] + bigEndian(UInt64(count), size: 8)
  }

  private mutating func add(_ value: PropertyListValue) -> Int {
    switch value {
    case .null: return append([0x00])
    case .bool(let flag): return append([flag ? 0x09 : 0x08])
    case .integer(let number):
      if let small = Int64(exactly: number) {
        return append([0x13] + Self.bigEndian(UInt64(bitPattern: small), size: 8))
      }
      let bits = UInt128(bitPattern: number)
      return append(
        [0x14] + Self.bigEndian(UInt64(truncatingIfNeeded: bits >> 64), size: 8)
          + Self.bigEndian(UInt64(truncatingIfNeeded: bits), size: 8))
    case .real(let number): return append([0x23] + Self.bigEndian(number.bitPattern, size: 8))
    case .date(let date):
      return append([0x33] + Self.bigEndian(date.timeIntervalSinceReferenceDate.bitPattern, size: 8))
    case .data(let data): return append(Self.header(0x4, data.count) + data)
    case .uid(let uid): return append([0x87] + Self.bigEndian(uid, size: 8))
    case .string(let string):
      let text = string.value
      if let index = stringIndex[text] { return index }
      let index: Int
      if text.utf8.allSatisfy({ $0 < 0x80 }) {
        index = append(Self.header(0x5, text.utf8.count) + Array(text.utf8))
      } else {
        let units = Array(text.utf16)
        index = append(Self.header(0x6, units.count) + units.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] })
      }
      stringIndex[text] = index
      return index
    case .array(let elements), .set(let elements):
      let index = append([])
      let refs = elements.map { add($0) }
      let high: UInt8 = if case .set = value { 0xC } else { 0xA }
      objects[index] = Self.header(high, refs.count) + refs.flatMap { Self.bigEndian(UInt64($0), size: refSize) }
      return index
    case .dictionary(let dictionary):
      let index = append([])
      let keys = dictionary.map { add(.string(PropertyListString($0.key))) }
      let values = dictionary.map { add($0.value) }
      objects[index] =
        Self.header(0xD, keys.count) + (keys + values).flatMap { Self.bigEndian(UInt64($0), size: refSize) }
      return index
    }
  }

  private func finish(top: Int) -> Data {
    var output = Data("bplist00".utf8)
    var offsets: [Int] = []
    offsets.reserveCapacity(objects.count)
    for object in objects {
      offsets.append(output.count)
      output.append(contentsOf: object)
    }
    let tableStart = output.count
    let offsetSize = tableStart < 1 << 32 ? 4 : 8
    for offset in offsets { output.append(contentsOf: Self.bigEndian(UInt64(offset), size: offsetSize)) }
    output.append(contentsOf: [0, 0, 0, 0, 0, 0, UInt8(offsetSize), UInt8(refSize)])
    output.append(contentsOf: Self.bigEndian(UInt64(objects.count), size: 8))
    output.append(contentsOf: Self.bigEndian(UInt64(top), size: 8))
    output.append(contentsOf: Self.bigEndian(UInt64(tableStart), size: 8))
    return output
  }
}
