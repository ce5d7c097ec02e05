import Adal2MSALSupport
import Adal2MSALSynthetic
import Foundation
import PropertyLists
import Testing
import _Adal2MSALTestSupport

/// `BinaryPropertyListReader.borrowsData`: the same values as the copying reader, with data objects that are
/// zero-based and lie in the input's own bytes.
@Suite struct BorrowedDataTests {
  /// Every data value in `value`, depth first.
  static func dataValues(_ value: PropertyListValue) -> [Data] {
    switch value {
    case .data(let bytes): [bytes]
    case .array(let elements), .set(let elements): elements.flatMap(dataValues)
    case .dictionary(let dictionary): dictionary.flatMap { dataValues($0.value) }
    default: []
    }
  }

  /// Reads `input` both ways; returns how many data values were borrowed.
  @discardableResult
  static func check(_ input: Data, _ comment: Comment) throws -> Int {
    let copied = try BinaryPropertyListReader().read(input)
    let borrowed = try BinaryPropertyListReader(borrowsData: true).read(input)
    #expect(borrowed == copied, comment)
    let values = dataValues(borrowed)
    input.withUnsafeBytes { whole in
      let range = UInt(bitPattern: whole.baseAddress)..<UInt(bitPattern: whole.baseAddress! + whole.count)
      for bytes in values {
        #expect(bytes.startIndex == 0, "borrowed data is zero-based: \(comment)")
        // `Data` keeps values of a few bytes inline, copied: only longer ones can point into the input.
        guard bytes.count > 32 else { continue }
        bytes.withUnsafeBytes { part in
          #expect(
            range.contains(UInt(bitPattern: part.baseAddress)), "\(bytes.count) bytes borrowed, not copied: \(comment)")
        }
      }
    }
    return values.count
  }

  @Test func everyBinaryFixtureReadsTheSameBorrowingItsData() throws {
    var borrowed = 0
    for file in try Fixtures.files(in: ".", withExtension: "bplist") {
      let input = try Data(contentsOf: file)
      guard (try? BinaryPropertyListReader().read(input)) != nil else { continue }  // hostile fixtures: below
      borrowed += try Self.check(input, "\(file.path)")
    }
    #expect(borrowed > 30, "the fixtures hold data objects")
  }

  @Test func aGeneratedDumpReadsTheSameAndItsDataOutlivesTheInput() throws {
    var generator = SyntheticGenerator(seed: 5)
    let dump = Data(SyntheticFormat.binaryPlist.encode(generator.dump(users: 40)))
    #expect(try Self.check(dump, "generated dump") >= 160)
    let expected = Self.dataValues(try BinaryPropertyListReader().read(dump))
    var kept: [Data] = []
    do {
      let input = Data(dump)  // storage of its own, released at the end of this scope but for the values
      kept = Self.dataValues(try BinaryPropertyListReader(borrowsData: true).read(input))
    }
    #expect(kept == expected)
  }

  @Test func hostileInputsFailAsTheyDoWhenCopying() throws {
    for file in try Fixtures.files(in: "bad") + Fixtures.files(in: "fuzz-regressions") {
      let input = try Data(contentsOf: file)
      let copied = Result { () throws(PropertyListError) in try BinaryPropertyListReader().read(input) }
      let borrowed = Result { () throws(PropertyListError) in
        try BinaryPropertyListReader(borrowsData: true).read(input)
      }
      #expect(borrowed == copied, "\(file.lastPathComponent)")
    }
  }
}
