import Foundation
import PropertyLists
import Testing

/// Object references and offset table entries of every width the format allows (1 to 8 bytes): writers use 1, 2,
/// 4 and 8, which the reader loads in one go, and the other widths a byte at a time.
struct BinaryIntegerSizeTests {
  /// `["ab", {"k": "ab"}]`, with the string shared, written with the given widths.
  func sample(refSize: Int, offsetSize: Int) -> Data {
    var builder = BinaryPlistBuilder()
    builder.refSize = refSize
    builder.offsetSize = offsetSize
    builder.add(builder.array([1, 2]))  // 0
    builder.add(BinaryPlistBuilder.ascii("ab"))  // 1
    builder.add(builder.dict([3], [1]))  // 2
    builder.add(BinaryPlistBuilder.ascii("k"))  // 3
    return builder.build()
  }

  @Test(arguments: 1...8)
  func everyReferenceWidthReads(refSize: Int) throws {
    for offsetSize in 1...8 {
      let value = try PropertyListReader().read(sample(refSize: refSize, offsetSize: offsetSize), file: "sizes.plist")
        .value
      #expect(
        value == .array([.string("ab"), .dictionary(PropertyListDictionary([(key: "k", value: .string("ab"))]))]),
        "offset size \(offsetSize)")
    }
  }

  @Test(arguments: [1, 2, 3, 4, 8])
  func referenceOutOfRangeIsReportedAtItsPlace(refSize: Int) throws {
    var builder = BinaryPlistBuilder()
    builder.refSize = refSize
    builder.add(builder.array([0x0102]))  // the reference's low byte alone would be in range
    builder.add([0x09])
    let error = try #require(throws: PropertyListError.self) {
      try PropertyListReader().read(builder.build(), file: "bad.plist")
    }
    let expected = refSize == 1 ? 0x02 : 0x0102
    #expect(error.message == "object reference \(expected) out of range (2 objects)")
    #expect(error.location.byteOffset == 9)
  }
}
