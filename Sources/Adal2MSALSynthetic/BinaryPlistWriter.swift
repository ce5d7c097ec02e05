import Foundation

/// A small, fast `bplist00` writer: objects are encoded as they are added (scalars and containers alike), so a
/// caller builds children first and passes their references to the container. Independent of the reader in
/// `PropertyLists` on purpose: the synthetic inputs test that reader.
///
/// The object reference size is fixed up front from `maxObjects` (a container's references are written
/// immediately); the offset size is chosen at `finish` from the largest offset, as Apple's writer does.
public struct BinaryPlistWriter {
  /// A reference to an object already written.
  public typealias Ref = Int

  private var body: [UInt8] = Array("bplist00".utf8)
  private var offsets: [Int] = []
  private let refSize: Int
  private var strings: [String: Ref] = [:]
  private let uniqueStrings: Bool

  /// - Parameters:
  ///   - maxObjects: an upper bound on the objects that will be added (it fixes the reference size).
  ///   - uniqueStrings: write each distinct string once and share it, as Apple's writer does.
  public init(maxObjects: Int, uniqueStrings: Bool = true, reserveBytes: Int = 0) {
    refSize = maxObjects < 1 << 8 ? 1 : maxObjects < 1 << 16 ? 2 : maxObjects < 1 << 32 ? 4 : 8
    self.uniqueStrings = uniqueStrings
    body.reserveCapacity(reserveBytes)
  }

  /// How many objects have been written.
  public var objectCount: Int { offsets.count }

  private mutating func begin() -> Ref {
    precondition(offsets.count < (refSize == 8 ? Int.max : 1 << (8 * refSize)), "more objects than maxObjects allows")
    offsets.append(body.count)
    return offsets.count - 1
  }

  private mutating func marker(_ type: UInt8, count: Int) {
    if count < 15 {
      body.append(type << 4 | UInt8(count))
    } else {
      body.append(type << 4 | 0x0F)
      appendInteger(Int64(count))
    }
  }

  private mutating func appendInteger(_ value: Int64) {
    if value >= 0 && value <= 0xFF {
      body.append(0x10)
      body.append(UInt8(value))
    } else if value >= 0 && value <= 0xFFFF {
      body.append(0x11)
      appendBigEndian(UInt64(value), size: 2)
    } else if value >= 0 && value <= 0xFFFF_FFFF {
      body.append(0x12)
      appendBigEndian(UInt64(value), size: 4)
    } else {
      body.append(0x13)
      appendBigEndian(UInt64(bitPattern: value), size: 8)
    }
  }

  private mutating func appendBigEndian(_ value: UInt64, size: Int) {
    for shift in stride(from: (size - 1) * 8, through: 0, by: -8) {
      body.append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
    }
  }

  private mutating func appendRefs(_ refs: [Ref]) {
    for ref in refs { appendBigEndian(UInt64(ref), size: refSize) }
  }

  public mutating func bool(_ value: Bool) -> Ref {
    let ref = begin()
    body.append(value ? 0x09 : 0x08)
    return ref
  }

  public mutating func integer(_ value: Int64) -> Ref {
    let ref = begin()
    appendInteger(value)
    return ref
  }

  public mutating func real(_ value: Double) -> Ref {
    let ref = begin()
    body.append(0x23)
    appendBigEndian(value.bitPattern, size: 8)
    return ref
  }

  /// A date, stored as seconds since 2001-01-01 (Apple's reference date).
  public mutating func date(_ value: Date) -> Ref {
    let ref = begin()
    body.append(0x33)
    appendBigEndian(value.timeIntervalSinceReferenceDate.bitPattern, size: 8)
    return ref
  }

  public mutating func data(_ bytes: some Collection<UInt8>) -> Ref {
    let ref = begin()
    marker(0x4, count: bytes.count)
    body.append(contentsOf: bytes)
    return ref
  }

  /// A string: ASCII as bytes, anything else as UTF-16 big-endian.
  public mutating func string(_ value: String) -> Ref {
    if uniqueStrings, let known = strings[value] { return known }
    let ref = begin()
    let utf8 = value.utf8
    let isASCII = utf8.withContiguousStorageIfAvailable { $0.allSatisfy { $0 < 0x80 } } ?? utf8.allSatisfy { $0 < 0x80 }
    if isASCII {
      marker(0x5, count: utf8.count)
      body.append(contentsOf: utf8)
    } else {
      let units = Array(value.utf16)
      marker(0x6, count: units.count)
      for unit in units { appendBigEndian(UInt64(unit), size: 2) }
    }
    if uniqueStrings { strings[value] = ref }
    return ref
  }

  /// A keyed-archive UID (a reference into `$objects`).
  public mutating func uid(_ value: Int) -> Ref {
    let ref = begin()
    let size = value < 1 << 8 ? 1 : value < 1 << 16 ? 2 : 4
    body.append(0x80 | UInt8(size - 1))
    appendBigEndian(UInt64(value), size: size)
    return ref
  }

  public mutating func array(_ elements: [Ref]) -> Ref {
    let ref = begin()
    marker(0xA, count: elements.count)
    appendRefs(elements)
    return ref
  }

  public mutating func dictionary(keys: [Ref], values: [Ref]) -> Ref {
    precondition(keys.count == values.count)
    let ref = begin()
    marker(0xD, count: keys.count)
    appendRefs(keys)
    appendRefs(values)
    return ref
  }

  /// The finished file, with `top` as the top object.
  public mutating func finish(top: Ref) -> [UInt8] {
    let tableStart = body.count
    let largest = offsets.last ?? 0
    let offsetSize = largest < 1 << 8 ? 1 : largest < 1 << 16 ? 2 : largest < 1 << 32 ? 4 : 8
    body.reserveCapacity(body.count + offsets.count * offsetSize + 32)
    for offset in offsets { appendBigEndian(UInt64(offset), size: offsetSize) }
    body.append(contentsOf: [0, 0, 0, 0, 0, 0, UInt8(offsetSize), UInt8(refSize)])
    appendBigEndian(UInt64(offsets.count), size: 8)
    appendBigEndian(UInt64(top), size: 8)
    appendBigEndian(UInt64(tableStart), size: 8)
    return body
  }
}
