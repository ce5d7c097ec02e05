/// The input items of one `provenance` row, packed into its `sources` BLOB: for each item, in order, three
/// unsigned LEB128 varints: the `provenance_files` id, the item index (0 when the item has none, else the
/// zigzag-encoded index plus one) and the `provenance_labels` id. Three to six bytes an item, where a row per
/// item took about forty.
struct ProvenanceSources: Equatable {
  /// One input item, its file and label by id.
  struct Source: Equatable {
    var fileID: Int64
    var itemIndex: Int?
    var labelID: Int64
  }

  private(set) var bytes: [UInt8] = []

  init() {}

  /// The sources of a stored BLOB; nil when it is not a whole number of well-formed items.
  init?(bytes: [UInt8]) {
    var reader = Reader(bytes: bytes)
    while !reader.isAtEnd {
      guard reader.next() != nil, reader.next() != nil, reader.next() != nil else { return nil }
    }
    self.bytes = bytes
  }

  /// Removes every item, keeping the buffer for the next row's.
  mutating func removeAll() { bytes.removeAll(keepingCapacity: true) }

  mutating func append(_ source: Source) {
    write(UInt64(bitPattern: source.fileID))
    write(source.itemIndex.map { UInt64(bitPattern: Int64(($0 << 1) ^ ($0 >> (Int.bitWidth - 1)))) &+ 1 } ?? 0)
    write(UInt64(bitPattern: source.labelID))
  }

  /// The items, in the order they were appended.
  var sources: [Source] {
    var reader = Reader(bytes: bytes)
    var result: [Source] = []
    while let file = reader.next(), let index = reader.next(), let label = reader.next() {
      let itemIndex: Int? =
        index == 0 ? nil : Int(truncatingIfNeeded: Int64(bitPattern: ((index &- 1) >> 1) ^ (0 &- ((index &- 1) & 1))))
      result.append(Source(fileID: Int64(bitPattern: file), itemIndex: itemIndex, labelID: Int64(bitPattern: label)))
    }
    return result
  }

  private mutating func write(_ value: UInt64) {
    var value = value
    while value >= 0x80 {
      bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
      value >>= 7
    }
    bytes.append(UInt8(value))
  }

  private struct Reader {
    let bytes: [UInt8]
    var offset = 0

    var isAtEnd: Bool { offset == bytes.count }

    /// The next varint; nil at the end or on a truncated or overlong one.
    mutating func next() -> UInt64? {
      var value: UInt64 = 0
      var shift: UInt64 = 0
      while offset < bytes.count, shift < 64 {
        let byte = bytes[offset]
        offset += 1
        value |= UInt64(byte & 0x7f) << shift
        if byte < 0x80 { return value }
        shift += 7
      }
      return nil
    }
  }
}
