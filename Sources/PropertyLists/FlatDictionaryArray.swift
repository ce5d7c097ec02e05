package import Adal2MSALSupport
package import Foundation

/// A binary property list whose top object is an array of flat dictionaries (distinct ASCII keys, scalar
/// values), read without the value tree: the shape of a keychain dump, whose items are most of its objects.
/// Each value is decoded only when it is asked for, as `BinaryPropertyListReader` decodes it (strings borrowed
/// from the input, data objects borrowed with `borrowsData`).
///
/// `withEntries(of:limits:borrowsData:_:)` returns nil for any other shape, and for every input the general reader
/// would refuse (the checks of `BinaryKeyedArchiveReader.withCheckedObjects`): the caller then reads it with
/// `PropertyListReader`, which gives the tree or the error. Where it returns, each entry's values are those of the
/// tree's dictionary (`FlatDictionaryArrayTests` compares them).
package final class FlatDictionaryArray: @unchecked Sendable {  // only reads the input, within `withEntries`
  // A class: the records' makers look up each item's attributes through it, and a copy of a struct holding the
  // parser retained each of the parser's tables (11 retains and releases an item, `call-counts.sh`).
  private let parser: BinaryPropertyListParser
  private let entries: BinaryPropertyListParser.ContainerSpan

  /// How many dictionaries the array holds.
  package var count: Int { entries.count }

  private init(parser: BinaryPropertyListParser, entries: BinaryPropertyListParser.ContainerSpan) {
    self.parser = parser
    self.entries = entries
  }

  /// Calls `body` with the array of `data`; nil, without calling it, when `data` is not a binary property list of
  /// that shape within `limits`. The array reads `data`'s bytes: it is not to be kept beyond `body`.
  package static func withEntries<Result, Failure: Error>(
    of data: Data, limits: InputLimits, borrowsData: Bool,
    _ body: (FlatDictionaryArray) throws(Failure) -> Result
  ) throws(Failure) -> Result? {
    var scratch = ArchiveReadScratch()
    let read = BinaryKeyedArchiveReader(limits: limits).withCheckedObjects(data, reusing: &scratch) {
      checked, _ -> Swift.Result<Result, Failure>? in
      var parser = checked
      if borrowsData { parser.lender = BorrowedInput(data) }
      var nodes = 0
      guard let entries = parser.array(parser.trailer.topObject),
        parser.checkReached(parser.trailer.topObject, depth: 0, nodes: &nodes),
        (0..<entries.count).allSatisfy({ parser.isFlatDictionary(parser.element(entries, $0)) })
      else { return nil }
      return Swift.Result { () throws(Failure) in try body(FlatDictionaryArray(parser: parser, entries: entries)) }
    }
    return try read?.get()
  }

  /// The objects under `keys` in dictionary `index` (below `count`), found in one pass over its keys, into
  /// `found` (the caller's, one element for each key, kept for the next dictionary): element `k` is the object
  /// under `keys`' key `k`, or -1 when the dictionary has no such key. Equal strings that the writer stored once
  /// are one object, which its `value(ofObject:)` decodes.
  ///
  /// A record reads about a dozen attributes of each item: looked up one by one, each scanned the item's keys
  /// and compared their bytes, a third of the time its records took (docs/benchmarks.md, "The dump's attributes in
  /// one pass"). A buffer, not an array, and no closure: an array handed on to the record's maker was about two
  /// releases an item, and a generic body instantiated its type's metadata at each call.
  package func objects(under keys: FlatKeys, inEntry index: Int, into found: UnsafeMutableBufferPointer<Int>) {
    precondition(found.count == keys.count, "FlatDictionaryArray: one element for each key")
    found.update(repeating: -1)
    guard let dictionary = parser.dictionary(parser.element(entries, index)) else { return }
    for slot in 0..<dictionary.count {
      // Keys were checked to be distinct ASCII strings (`checkReached`).
      guard let bytes = parser.asciiBytes(parser.element(dictionary, slot)), let wanted = keys.position(of: bytes)
      else { continue }
      found[wanted] = parser.element(dictionary, dictionary.count + slot)
    }
  }

  /// The value of `object`, one that `objects(under:inEntry:into:)` found.
  package func value(ofObject object: Int) -> PropertyListValue? {
    // Checked as the objects were found (`isFlatDictionary` let no unreadable value through).
    try? parser.scalar(at: parser.spans[object].offset)
  }

  /// The byte ranges of the input that reading dictionary `index` reads (its own and each of its keys' and values'
  /// objects), appended to `ranges`: what must stay in memory until its record is made and decoded.
  package func appendByteRanges(ofEntry index: Int, to ranges: inout [Range<Int>]) {
    let object = parser.element(entries, index)
    guard let dictionary = parser.dictionary(object) else { return }
    ranges.append(parser.byteRange(of: object))
    for slot in 0..<(2 * dictionary.count) { ranges.append(parser.byteRange(of: parser.element(dictionary, slot))) }
  }

  /// The byte range of the array's own object (its references to the dictionaries).
  package var arrayByteRange: Range<Int> { parser.byteRange(of: parser.trailer.topObject) }

  /// Whether `object`, one that `objects(under:inEntry:into:)` found, is a string.
  package func isString(_ object: Int) -> Bool {
    let kind = parser.spans[object].marker >> 4
    return kind == 0x5 || kind == 0x6
  }
}

/// Dictionary keys that `FlatDictionaryArray.objects(under:inEntry:into:)` looks up together: made once for all
/// the entries of an array.
package struct FlatKeys: Sendable {
  /// Each key's tag (`BinaryPropertyListParser.keyTag`), which tells most other keys apart without comparing
  /// their bytes, and where its UTF-8 lies in `bytes` (one array: no inner array to retain for each compare).
  private let tags: [UInt32]
  private let ranges: [Range<Int>]
  private let bytes: [UInt8]

  /// `keys` must be distinct.
  package init(_ keys: [String]) {
    precondition(Set(keys).count == keys.count, "FlatKeys: a key is given twice")
    var bytes: [UInt8] = []
    ranges = keys.map { key in
      let start = bytes.count
      bytes.append(contentsOf: key.utf8)
      return start..<bytes.count
    }
    self.bytes = bytes
    tags = ranges.map { range in bytes[range].withUnsafeBytes(BinaryPropertyListParser.keyTag) }
  }

  package var count: Int { tags.count }

  /// The position of the key spelled by `key`, if it is one of them.
  fileprivate func position(of key: UnsafeRawBufferPointer) -> Int? {
    let tag = BinaryPropertyListParser.keyTag(key)
    for position in tags.indices where tags[position] == tag {
      let equal = bytes.withUnsafeBytes {
        BinaryPropertyListParser.equalBytes(UnsafeRawBufferPointer(rebasing: $0[ranges[position]]), key)
      }
      if equal { return position }
    }
    return nil
  }
}

extension BinaryPropertyListParser {
  /// The object that reference `position` of `container` names (checked by `findAndCheckObjects`).
  fileprivate func element(_ container: ContainerSpan, _ position: Int) -> Int {
    let size = trailer.objectRefSize
    return Int(Self.readUnsigned(bytes, at: container.start + position * size, size: size))
  }

  /// The bytes object `index` takes, marker to end (a scalar's longest form where its size is not counted).
  fileprivate func byteRange(of index: Int) -> Range<Int> {
    let span = spans[index]
    let low = Int(span.marker & 0x0F)
    let end: Int
    if let payload = span.payload {
      switch span.marker >> 4 {
      case 0x6: end = payload.start + 2 * payload.count
      case 0xA, 0xC: end = payload.start + payload.count * trailer.objectRefSize
      case 0xD: end = payload.start + 2 * payload.count * trailer.objectRefSize
      default: end = payload.start + payload.count
      }
    } else {
      switch span.marker >> 4 {
      case 0x1, 0x2: end = span.offset + 1 + (1 << min(low, 4))
      case 0x3: end = span.offset + 9
      case 0x8: end = span.offset + 2 + low
      default: end = span.offset + 1
      }
    }
    return span.offset..<max(span.offset + 1, min(end, bytes.count))
  }

  /// Whether object `index` is a dictionary whose values are all readable scalars (its keys were checked to be
  /// distinct ASCII strings by `checkReached`).
  fileprivate func isFlatDictionary(_ index: Int) -> Bool {
    guard let dictionary = dictionary(index) else { return false }
    for position in dictionary.count..<(2 * dictionary.count) {
      let span = spans[element(dictionary, position)]
      switch span.marker >> 4 {
      case 0xA, 0xC, 0xD: return false
      default: guard span.isReadable else { return false }
      }
    }
    return true
  }
}
