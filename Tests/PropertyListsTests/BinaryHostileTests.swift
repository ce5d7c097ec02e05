import Adal2MSALSupport
import Foundation
import PropertyLists
import Testing
import _Adal2MSALTestSupport

/// Hostile and broken binary property lists: each is a clear error at the right offset, never a crash.
@Suite struct BinaryHostileTests {
  func error(_ data: Data, limits: InputLimits = .default) -> PropertyListError? {
    do {
      _ = try PropertyListReader(limits: limits).read(data, file: "bad.plist")
      return nil
    } catch {
      return error
    }
  }

  /// A valid list `["ab", 7]`, the base of several broken ones.
  func simpleBuilder() -> BinaryPlistBuilder {
    var builder = BinaryPlistBuilder()
    builder.add([0xA2, 1, 2])
    builder.add(BinaryPlistBuilder.ascii("ab"))
    builder.add([0x10, 7])
    return builder
  }

  @Test func simpleBuilderIsValid() throws {
    let value = try PropertyListReader().read(simpleBuilder().build()).value
    #expect(value == .array([.string("ab"), .integer(7)]))
  }

  @Test func truncatedFile() throws {
    let data = try Fixtures.data("plist/all-types.binary.plist")
    for length in [0, 8, 39, data.count / 2, data.count - 1] {
      let failure = try #require(error(data.prefix(length)))
      #expect(failure.location.file == "bad.plist")
      if length < 8 {
        #expect(failure.message.contains("not a property list"))
      }
    }
    #expect(error(data.prefix(20))?.message.contains("truncated") == true)
  }

  /// A file cut short ends in some object's bytes, read as a trailer: its unused first six bytes are not zero,
  /// and the error says the file may be truncated. A whole file's trailer with a bad value does not.
  @Test func aTrailerOfAFileCutShortIsNamedAsTruncation() throws {
    let data = try Fixtures.data("plist/all-types.binary.plist")
    var named = 0
    for length in stride(from: 40, to: data.count - 1, by: 7) {
      let failure = try #require(error(data.prefix(length)), "cut at \(length)")
      if failure.message.hasSuffix("(the last 32 bytes are no trailer: is the file truncated?)") { named += 1 }
    }
    #expect(named > 0, "no cut was named as a truncation")
    var builder = simpleBuilder()
    builder.offsetTableOverride = 0xFFFF_FFFF_FFFF_FFF0
    #expect(error(builder.build())?.message.contains("truncated") == false)
  }

  @Test func offsetTableOutsideTheFile() throws {
    var builder = simpleBuilder()
    builder.offsetTableOverride = 0xFFFF_FFFF_FFFF_FFF0
    let failure = try #require(error(builder.build()))
    #expect(failure.message.contains("offset table"))
    #expect(failure.message.contains("does not fit"))
  }

  @Test func objectOffsetOutsideTheObjectArea() throws {
    var data = simpleBuilder().build()
    // The offset table holds 2-byte offsets; point object 1 past the end.
    let tableStart = data.count - 32 - 6
    data[tableStart + 2] = 0xFF
    let failure = try #require(error(data))
    #expect(failure.message.contains("outside the object area"))
    #expect(failure.location.byteOffset == tableStart + 2)
  }

  @Test func objectCountLargerThanTheFileCouldHold() throws {
    var builder = simpleBuilder()
    builder.objectCountOverride = 40_000_000  // 80 MB of offsets in a 60-byte file: refused before allocating
    let failure = try #require(error(builder.build()))
    #expect(failure.message.contains("does not fit"))
    builder.objectCountOverride = UInt64.max
    #expect(error(builder.build())?.message.contains("exceed the limit") == true)
  }

  @Test func containerCountLargerThanTheFile() throws {
    var builder = BinaryPlistBuilder()
    builder.add(BinaryPlistBuilder.header(0xA, count: Int(Int32.max)))
    let failure = try #require(error(builder.build()))
    #expect(failure.message.contains("runs past the object area"))
  }

  @Test func objectReferenceOutOfRange() throws {
    var builder = BinaryPlistBuilder()
    builder.add([0xA1, 17])
    builder.add([0x10, 1])
    let failure = try #require(error(builder.build()))
    #expect(failure.messageWithPlace == "offset 0x9: object reference 17 out of range (2 objects)")
    #expect(failure.description == "bad.plist: offset 0x9: object reference 17 out of range (2 objects)")
  }

  @Test func objectThatContainsItself() throws {
    var builder = BinaryPlistBuilder()
    builder.add([0xA2, 1, 0])  // the array's second element is the array
    builder.add([0x10, 1])
    #expect(error(builder.build())?.message == "object 0 contains itself (reference cycle)")

    var indirect = BinaryPlistBuilder()
    indirect.add([0xA1, 1])
    indirect.add([0xD1, 2, 0])  // {"k": <the outer array>}
    indirect.add(BinaryPlistBuilder.ascii("k"))
    #expect(error(indirect.build())?.message.contains("reference cycle") == true)
  }

  @Test func tenThousandDeepNesting() throws {
    var builder = BinaryPlistBuilder()
    builder.refSize = 2
    builder.offsetSize = 4
    for level in 0..<10_000 { builder.add(builder.array([level + 1])) }
    builder.add([0x09])
    let failure = try #require(error(builder.build()))
    #expect(failure.message == "containers nested deeper than the limit of \(InputLimits.default.maxDepth)")
    // Within the limit the same shape reads fine.
    var shallow = BinaryPlistBuilder()
    for level in 0..<(InputLimits.default.maxDepth - 12) {
      shallow.refSize = 2
      shallow.add(shallow.array([level + 1]))
    }
    shallow.add([0x09])
    #expect(error(shallow.build()) == nil)
  }

  @Test func sharedChildMustFitBelowTheDepthLimit() throws {
    // Object 1 is a 3-deep chain read first at the top, then referenced again below a 3-deep chain.
    var builder = BinaryPlistBuilder()
    builder.add(builder.array([1, 4]))  // 0: [chain, other]
    builder.add(builder.array([2]))  // 1
    builder.add(builder.array([3]))  // 2
    builder.add([0x09])  // 3
    builder.add(builder.array([5]))  // 4
    builder.add(builder.array([1]))  // 5 -> shared chain
    #expect(error(builder.build(), limits: InputLimits(maxDepth: 4))?.message.contains("nested deeper") == true)
    #expect(error(builder.build(), limits: InputLimits(maxDepth: 5)) == nil)
  }

  @Test func integerOfInvalidSize() throws {
    var builder = BinaryPlistBuilder()
    builder.add([0x15] + [UInt8](repeating: 1, count: 32))
    let failure = try #require(error(builder.build()))
    #expect(
      failure.messageWithPlace == "offset 0x8: integer with invalid size nibble 5 (expected 0 to 4: 1 to 16 bytes)")
  }

  @Test func invalidUTF16() throws {
    for units: [UInt16] in [[0x41, 0xD800, 0x42], [0xDC00], [0x41, 0xD83D]] {
      var builder = BinaryPlistBuilder()
      builder.add(BinaryPlistBuilder.utf16(units))
      #expect(error(builder.build())?.message.contains("invalid UTF-16") == true)
    }
    var valid = BinaryPlistBuilder()
    valid.add(BinaryPlistBuilder.utf16([0xD83D, 0xDE00, 0x41]))
    #expect(try PropertyListReader().read(valid.build()).value == .string("😀A"))
  }

  @Test func nonStringDictionaryKey() throws {
    var builder = BinaryPlistBuilder()
    builder.add([0xD1, 1, 2])
    builder.add([0x10, 1])
    builder.add([0x09])
    #expect(error(builder.build())?.message == "dictionary key is an integer, expected a string")
  }

  @Test func limitsOnStringsAndObjects() throws {
    var builder = BinaryPlistBuilder()
    builder.add(BinaryPlistBuilder.ascii(String(repeating: "a", count: 100)))
    #expect(
      error(builder.build(), limits: InputLimits(maxStringBytes: 99))?.message.contains("exceeds the limit") == true)
    #expect(
      error(simpleBuilder().build(), limits: InputLimits(maxObjects: 2))?.message.contains("exceed the limit") == true)
  }

  @Test func sharedReferenceBlowUp() throws {
    // 40 arrays, each holding the next one twice: 2^40 values once expanded.
    var builder = BinaryPlistBuilder()
    for level in 0..<40 { builder.add(builder.array([level + 1, level + 1])) }
    builder.add([0x09])
    let failure = try #require(error(builder.build()))
    #expect(failure.message.contains("shared references expand"))
  }

  @Test func otherScalars() throws {
    var builder = BinaryPlistBuilder()
    builder.add([0xA6, 1, 2, 3, 4, 5, 6])
    builder.add([0x00])  // null
    builder.add([0x0F])  // fill
    builder.add([0x22] + Array(Float(1.5).bitPattern.bigEndianBytes))
    builder.add([0x14] + [UInt8](repeating: 0xFF, count: 16))  // -1 as a signed 128-bit integer
    builder.add([0x83, 0, 0, 1, 0])  // 4-byte UID
    builder.add([0xC1, 1])  // a set holding null
    let value = try PropertyListReader().read(builder.build()).value
    #expect(value == .array([.null, .null, .real(1.5), .integer(-1), .uid(256), .set([.null])]))
    var unknown = BinaryPlistBuilder()
    unknown.add([0x70])
    #expect(error(unknown.build())?.message == "unknown object marker 0x70")
    var bigUID = BinaryPlistBuilder()
    bigUID.add([0x8F] + [UInt8](repeating: 0xFF, count: 16))
    #expect(error(bigUID.build())?.message.contains("exceeds 64 bits") == true)
  }

  @Test func badTrailerSizes() throws {
    var data = simpleBuilder().build()
    data[data.count - 26] = 9
    #expect(error(data)?.message.contains("offset integer size 9") == true)
    data = simpleBuilder().build()
    data[data.count - 25] = 0
    #expect(error(data)?.message.contains("object reference size 0") == true)
    data = simpleBuilder().build()
    data[data.count - 9] = 7  // top object 7 of 3
    #expect(error(data)?.message.contains("top object 7 out of range") == true)
  }
}

extension UInt32 {
  var bigEndianBytes: [UInt8] {
    [UInt8(self >> 24), UInt8(self >> 16 & 0xFF), UInt8(self >> 8 & 0xFF), UInt8(self & 0xFF)]
  }
}
