public import Adal2MSALSupport
public import Foundation

/// Reads `bplist00` binary property lists straight from the bytes (no copy of the input, no Foundation).
///
/// Every offset, count and reference is bounds-checked with overflow-checked arithmetic before use; cycles,
/// nesting beyond `InputLimits.maxDepth`, oversized strings and shared-reference blow-ups are errors.
public struct BinaryPropertyListReader: Sendable {
  public var limits: InputLimits
  /// Whether data objects share the input's storage instead of being copied (see `read(_:)`).
  public var borrowsData: Bool

  public init(limits: InputLimits = .default, borrowsData: Bool = false) {
    self.limits = limits
    self.borrowsData = borrowsData
  }

  /// Reads the top object.
  /// - Throws: `PropertyListError` with the byte offset of the problem.
  ///
  /// Strings (except dictionary keys) are borrowed from `data`, not decoded: see `PropertyListString`. They
  /// keep `data`'s buffer alive. With `borrowsData`, so do data objects (zero-based `Data` that copy nothing):
  /// for a container whose data values are read and dropped, such as a keychain dump's `v_Data`, which would
  /// otherwise double the memory a large dump takes. Such a value has storage of its own that points into the
  /// input, so it must not be mutated in place: copy it first (as values kept beyond the read are).
  public func read(_ data: Data) throws(PropertyListError) -> PropertyListValue {
    let result: Result<PropertyListValue, PropertyListError> = data.withUnsafeBytes { raw in
      do throws(PropertyListError) {
        var parser = try BinaryPropertyListParser(bytes: raw, input: data, limits: limits)
        if borrowsData { parser.lender = BorrowedInput(data) }
        return .success(try parser.readTop())
      } catch {
        return .failure(error)
      }
    }
    return try result.get()
  }
}

/// The trailer's numbers, validated: see `BinaryPropertyListParser.init`.
struct BinaryPropertyListTrailer {
  var offsetIntSize: Int
  var objectRefSize: Int
  var objectCount: Int
  var topObject: Int
  var offsetTableStart: Int

  static let size = 32
  static let headerSize = 8
}

struct BinaryPropertyListParser {
  let bytes: UnsafeRawBufferPointer
  /// The Data `bytes` belong to, which string values borrow slices of.
  let input: Data
  let limits: InputLimits
  /// When set, data objects share `input`'s storage, which it keeps alive, instead of being copied
  /// (`BinaryPropertyListReader.borrowsData`).
  var lender: BorrowedInput?
  let trailer: BinaryPropertyListTrailer
  /// How often each object is referenced (saturating at 2), from a first pass over the containers.
  var referenceCounts: [UInt8]
  /// Objects referenced more than once, once read: they are read once and share storage.
  var shared: [Int: BinaryReadObject] = [:]
  var inProgress: [Bool]
  /// Integer boxes, small containers and key tables shared between values.
  var sharing: BinaryValueSharing
  let maxNodes: Int
  /// Each object's place, read once (`findAndCheckObjects`): filled for `readSimpleKeyedArchive` only.
  var spans: [ObjectSpan] = []
}

extension BinaryPropertyListParser {
  /// - Parameter buildsTree: false for a caller that only walks the objects (`readSimpleKeyedArchive`): the
  ///   tables `readTop` fills are left empty, not sized for every object.
  init(bytes: UnsafeRawBufferPointer, input: Data, limits: InputLimits, buildsTree: Bool = true)
    throws(PropertyListError)
  {
    let trailer = try Self.readTrailer(bytes, limits: limits)
    // The trailer checks bound objectCount by the file size, so these allocations are bounded by the input.
    let tableSize = buildsTree ? trailer.objectCount : 0
    // Through the memberwise initializer (declared here, in an extension, so that the struct keeps it): assigned
    // field by field, the parser was made aside and copied into place, a retain and a release of each table
    // (docs/benchmarks.md, "Counting calls").
    self.init(
      bytes: bytes, input: input, limits: limits, trailer: trailer,
      referenceCounts: Array(repeating: 0, count: tableSize), inProgress: Array(repeating: false, count: tableSize),
      sharing: BinaryValueSharing(objectCount: tableSize),
      maxNodes: limits.maxExpandedNodes(objectCount: trailer.objectCount))
  }

  static func readTrailer(
    _ bytes: UnsafeRawBufferPointer, limits: InputLimits
  ) throws(PropertyListError) -> BinaryPropertyListTrailer {
    let minimum = BinaryPropertyListTrailer.headerSize + BinaryPropertyListTrailer.size
    guard bytes.count >= minimum else {
      throw .at(offset: 0, "truncated: \(bytes.count) bytes, a binary property list needs at least \(minimum)")
    }
    guard bytes.starts(with: "bplist00".utf8) else { throw .at(offset: 0, "expected the bplist00 header") }
    let base = bytes.count - BinaryPropertyListTrailer.size
    // A trailer's first six bytes are unused and zero: bytes that are not were never a trailer (a file cut short,
    // whose last 32 bytes are some object's), which the values read from them would not say.
    let cutShort = bytes[base..<base + 6].contains { $0 != 0 }
    func fault(_ offset: Int, _ message: String) -> PropertyListError {
      .at(offset: offset, message + (cutShort ? " (the last 32 bytes are no trailer: is the file truncated?)" : ""))
    }
    let offsetIntSize = Int(bytes[base + 6])
    let objectRefSize = Int(bytes[base + 7])
    guard (1...8).contains(offsetIntSize) else {
      throw fault(base + 6, "trailer: offset integer size \(offsetIntSize) is not 1 to 8")
    }
    guard (1...8).contains(objectRefSize) else {
      throw fault(base + 7, "trailer: object reference size \(objectRefSize) is not 1 to 8")
    }
    let objectCount = readUnsigned(bytes, at: base + 8, size: 8)
    let topObject = readUnsigned(bytes, at: base + 16, size: 8)
    let tableStart = readUnsigned(bytes, at: base + 24, size: 8)
    guard objectCount >= 1 else { throw fault(base + 8, "trailer: the object count is 0") }
    guard objectCount <= UInt64(limits.maxObjects) else {
      throw fault(base + 8, "trailer: \(objectCount) objects exceed the limit of \(limits.maxObjects)")
    }
    guard topObject < objectCount else {
      throw fault(base + 16, "trailer: top object \(topObject) out of range (\(objectCount) objects)")
    }
    // The offset table must lie between the header and the trailer, and hold objectCount entries.
    let (tableBytes, overflow) = objectCount.multipliedReportingOverflow(by: UInt64(offsetIntSize))
    let tableEnd = overflow ? nil : tableStart.addingReportingOverflow(tableBytes)
    guard tableStart >= UInt64(BinaryPropertyListTrailer.headerSize), let tableEnd, !tableEnd.overflow,
      tableEnd.partialValue <= UInt64(base)
    else {
      throw fault(
        base + 24,
        "trailer: offset table at 0x\(String(tableStart, radix: 16)) with \(objectCount) entries of "
          + "\(offsetIntSize) bytes does not fit in the file (\(bytes.count) bytes)")
    }
    return BinaryPropertyListTrailer(
      offsetIntSize: offsetIntSize, objectRefSize: objectRefSize, objectCount: Int(objectCount),
      topObject: Int(topObject), offsetTableStart: Int(tableStart))
  }

  /// Big-endian unsigned integer of 1 to 8 bytes; the caller has checked the range.
  ///
  /// The sizes writers use (1, 2, 4 and 8) are read in one load: every object reference and offset table
  /// entry of a keychain dump's archives is read here, and the loop a byte at a time was most of their cost.
  @inline(__always)
  static func readUnsigned(_ bytes: UnsafeRawBufferPointer, at offset: Int, size: Int) -> UInt64 {
    switch size {
    case 1: return UInt64(bytes[offset])
    case 2: return UInt64(UInt16(bigEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt16.self)))
    case 4: return UInt64(UInt32(bigEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
    case 8: return UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    default:
      var value: UInt64 = 0
      for index in offset..<(offset + size) { value = value << 8 | UInt64(bytes[index]) }
      return value
    }
  }

  mutating func readTop() throws(PropertyListError) -> PropertyListValue {
    try countReferences()
    return try readTree(trailer.topObject, referencedAt: bytes.count - 16)
  }

  // MARK: Objects

  func objectOffset(_ index: Int) throws(PropertyListError) -> Int {
    let entry = trailer.offsetTableStart + index * trailer.offsetIntSize  // in range: checked by the trailer
    let offset = Self.readUnsigned(bytes, at: entry, size: trailer.offsetIntSize)
    guard offset >= UInt64(BinaryPropertyListTrailer.headerSize), offset < UInt64(trailer.offsetTableStart) else {
      throw .at(
        offset: entry,
        "offset table: object \(index) at 0x\(String(offset, radix: 16)) is outside the object area "
          + "(0x8 to 0x\(String(trailer.offsetTableStart, radix: 16)))")
    }
    return Int(offset)
  }

  /// The byte at `offset` within the object area.
  func byte(_ offset: Int) throws(PropertyListError) -> UInt8 {
    guard offset < trailer.offsetTableStart else { throw .at(offset: offset, "object runs into the offset table") }
    return bytes[offset]
  }

  /// Checks that `count` bytes from `start` lie within the object area.
  /// - Parameter what: the message's subject, made only for the error (an interpolated one made on every call was
  ///   a string allocated per container of a keychain dump).
  func requireBytes(_ start: Int, _ count: Int, _ what: @autoclosure () -> String) throws(PropertyListError) {
    let (end, overflow) = start.addingReportingOverflow(count)
    guard !overflow, end <= trailer.offsetTableStart else {
      throw .at(offset: start, "\(what()) of \(count) bytes runs past the object area")
    }
  }

  func readUnsigned(at offset: Int, size: Int) throws(PropertyListError) -> UInt64 {
    try requireBytes(offset, size, "integer")
    return Self.readUnsigned(bytes, at: offset, size: size)
  }

  /// A scalar object (containers are read by `readTree`), with its node count and height (1 and 0); its
  /// integer box shared with equal integers.
  mutating func decodeScalar(at offset: Int) throws(PropertyListError) -> (PropertyListValue, Int, Int) {
    if try byte(offset) >> 4 == 0x1 { return (sharing.integer(try readInteger(at: offset)), 1, 0) }
    return (try scalar(at: offset), 1, 0)
  }

  /// A scalar object's value (integers in a box of their own: see `decodeScalar`).
  func scalar(at offset: Int) throws(PropertyListError) -> PropertyListValue {
    let marker = try byte(offset)
    let low = Int(marker & 0x0F)
    switch marker >> 4 {
    case 0x0:
      switch low {
      case 0x0, 0xF: return .null  // null, and fill (padding), which has no value of its own
      case 0x8: return .bool(false)
      case 0x9: return .bool(true)
      default: throw .at(offset: offset, "unknown object marker 0x\(String(marker, radix: 16))")
      }
    case 0x1: return .integer(try readInteger(at: offset))
    case 0x2:
      switch low {
      case 2:
        let bits = try readUnsigned(at: offset + 1, size: 4)
        return .real(Double(Float(bitPattern: UInt32(truncatingIfNeeded: bits))))
      case 3: return .real(Double(bitPattern: try readUnsigned(at: offset + 1, size: 8)))
      default: throw .at(offset: offset, "real with invalid size nibble \(low) (expected 2 or 3)")
      }
    case 0x3:
      guard low == 3 else { throw .at(offset: offset, "date with invalid marker 0x\(String(marker, radix: 16))") }
      let seconds = Double(bitPattern: try readUnsigned(at: offset + 1, size: 8))
      return .date(Date(timeIntervalSinceReferenceDate: seconds))
    case 0x4:
      let (count, start) = try readCount(at: offset, low: low)
      try checkLength(count, offset, "data")
      try requireBytes(start, count, "data")
      if let lender { return .data(borrowedData(start, count, from: lender)) }
      return .data(Data(bytes[start..<(start + count)]))
    case 0x5:
      let (count, start) = try readCount(at: offset, low: low)
      try checkLength(count, offset, "string")
      try requireBytes(start, count, "ASCII string")
      try validateASCII(start, count)
      return .string(PropertyListString(ascii: slice(start, count)))
    case 0x6:
      let (count, start) = try readCount(at: offset, low: low)
      let (byteCount, overflow) = count.multipliedReportingOverflow(by: 2)
      guard !overflow else { throw .at(offset: offset, "UTF-16 string length \(count) is too large") }
      try checkLength(byteCount, offset, "string")
      try requireBytes(start, byteCount, "UTF-16 string")
      try validateUTF16(start, count)
      return .string(PropertyListString(utf16BigEndian: slice(start, byteCount)))
    case 0x8:
      let size = low + 1
      try requireBytes(offset + 1, size, "UID")
      var uid: UInt64 = 0
      for index in (offset + 1)..<(offset + 1 + size) {
        guard uid >> 56 == 0 else { throw .at(offset: offset, "UID of \(size) bytes exceeds 64 bits") }
        uid = uid << 8 | UInt64(bytes[index])
      }
      return .uid(uid)
    default:
      throw .at(offset: offset, "unknown object marker 0x\(String(marker, radix: 16))")
    }
  }

  /// An integer object (marker 0x1n): 1, 2 and 4 bytes unsigned, 8 bytes signed, 16 bytes signed 128-bit.
  func readInteger(at offset: Int) throws(PropertyListError) -> Int128 {
    let sizeNibble = Int(bytes[offset] & 0x0F)
    switch sizeNibble {
    case 0, 1, 2: return Int128(try readUnsigned(at: offset + 1, size: 1 << sizeNibble))
    case 3: return Int128(Int64(bitPattern: try readUnsigned(at: offset + 1, size: 8)))
    case 4:
      let high = try readUnsigned(at: offset + 1, size: 8)
      let low = try readUnsigned(at: offset + 9, size: 8)
      return Int128(bitPattern: UInt128(high) << 64 | UInt128(low))
    default:
      throw .at(offset: offset, "integer with invalid size nibble \(sizeNibble) (expected 0 to 4: 1 to 16 bytes)")
    }
  }

  /// The count of a data, string or container object: the low nibble, or a following integer when it is 0xF.
  /// Returns the count and the offset of the payload.
  func readCount(at offset: Int, low: Int) throws(PropertyListError) -> (Int, Int) {
    guard low == 0xF else { return (low, offset + 1) }
    let intMarker = try byte(offset + 1)
    guard intMarker >> 4 == 0x1, intMarker & 0x0F <= 3 else {
      throw .at(
        offset: offset + 1, "expected an integer count (marker 0x10 to 0x13), found 0x\(String(intMarker, radix: 16))")
    }
    let size = 1 << Int(intMarker & 0x0F)
    let count = try readUnsigned(at: offset + 2, size: size)
    guard count <= UInt64(Int.max / 2) else { throw .at(offset: offset + 1, "count \(count) is too large") }
    return (Int(count), offset + 2 + size)
  }

  func checkLength(_ length: Int, _ offset: Int, _ what: String) throws(PropertyListError) {
    guard length <= limits.maxStringBytes else {
      throw .at(offset: offset, "\(what) of \(length) bytes exceeds the limit of \(limits.maxStringBytes)")
    }
  }

  /// `count` bytes of the input from `start` (an offset into `bytes`, already bounds-checked), sharing its storage.
  func slice(_ start: Int, _ count: Int) -> Data {
    let base = input.startIndex + start
    return input[base..<(base + count)]
  }

  /// `count` bytes of the input from `start` (already bounds-checked) as a zero-based `Data` that keeps the input
  /// alive instead of copying it: a slice of `input` would share it too, but with the input's indices, which
  /// readers of the value do not expect.
  func borrowedData(_ start: Int, _ count: Int, from lender: BorrowedInput) -> Data {
    guard count > 0, let base = bytes.baseAddress else { return Data() }
    return Data(
      bytesNoCopy: UnsafeMutableRawPointer(mutating: base + start), count: count,
      deallocator: .custom { _, _ in withExtendedLifetime(lender) {} })
  }

  /// Checks that an ASCII string object holds only bytes below 0x80.
  func validateASCII(_ start: Int, _ count: Int) throws(PropertyListError) {
    let slice = UnsafeRawBufferPointer(rebasing: bytes[start..<(start + count)])
    // Eight bytes at a time: an item's tokens are most of a keychain dump's bytes, and each is checked here.
    guard String.isASCII(slice.assumingMemoryBound(to: UInt8.self)) else {
      let bad = slice.firstIndex { $0 >= 0x80 } ?? 0
      throw .at(offset: start + bad, "ASCII string holds a non-ASCII byte")
    }
  }

  /// Checks that a UTF-16 string object of `count` big-endian code units pairs every surrogate.
  func validateUTF16(_ start: Int, _ count: Int) throws(PropertyListError) {
    var expectLow = false
    for index in 0..<count {
      let position = start + 2 * index
      let unit = UInt16(bytes[position]) << 8 | UInt16(bytes[position + 1])
      let isHigh = (0xD800...0xDBFF).contains(unit)
      let isLow = (0xDC00...0xDFFF).contains(unit)
      if expectLow != isLow || (expectLow && isHigh) {
        throw .at(offset: position, "invalid UTF-16: unpaired surrogate 0x\(String(unit, radix: 16))")
      }
      expectLow = isHigh
    }
    if expectLow { throw .at(offset: start + 2 * count - 2, "invalid UTF-16: string ends inside a surrogate pair") }
  }
}

/// The input that borrowed data objects keep alive: one object for all of them, which each one's deallocator
/// holds as its only capture, where capturing the `Data` itself boxed it anew for every data object.
final class BorrowedInput: Sendable {
  let data: Data

  init(_ data: Data) { self.data = data }
}
