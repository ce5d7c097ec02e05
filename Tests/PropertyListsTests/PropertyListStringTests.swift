import Foundation
import Testing

@testable import PropertyLists

/// `PropertyListString`: strings the binary reader borrows from its input behave exactly like native ones
/// (equality, hashing, order, decoding), and stay valid after the input's variable is gone.
@Suite struct PropertyListStringTests {
  /// The texts read back, with how each is stored in the file.
  static let samples: [(text: String, object: [UInt8])] = [
    ("abc", BinaryPlistBuilder.ascii("abc")),
    ("", BinaryPlistBuilder.ascii("")),
    (
      "a longer ASCII string, past the 15 bytes of a small String",
      BinaryPlistBuilder.ascii(
        "a longer ASCII string, past the 15 bytes of a small String")
    ),
    ("😀A", BinaryPlistBuilder.utf16([0xD83D, 0xDE00, 0x41])),  // a surrogate pair
    ("café ✓", BinaryPlistBuilder.utf16(Array("café ✓".utf16))),  // 2- and 3-byte UTF-8
    ("AB", BinaryPlistBuilder.utf16([0x41, 0x42])),  // ASCII text as UTF-16, which writers may do
    ("", BinaryPlistBuilder.utf16([])),
  ]

  /// A binary plist of one array holding `objects`.
  static func plist(_ objects: [[UInt8]]) -> Data {
    var builder = BinaryPlistBuilder()
    builder.add([0xA0 | UInt8(objects.count)] + (1...objects.count).map { UInt8($0) })
    for object in objects { builder.add(object) }
    return builder.build()
  }

  /// Reads the samples in a function of their own: the input `Data` is gone when the strings are used.
  static func readSamples(prefix: Int = 0) throws -> [PropertyListString] {
    let file = Data(repeating: 0xEE, count: prefix) + plist(samples.map(\.object))
    // A slice whose startIndex is not 0, as a caller holding a larger buffer would pass.
    let input = file[file.startIndex + prefix..<file.endIndex]
    let elements = try #require(try PropertyListReader().read(input).value.arrayValue)
    return try elements.map { element in
      guard case .string(let string) = element else { throw Unexpected(value: element) }
      return string
    }
  }

  struct Unexpected: Error { var value: PropertyListValue }

  @Test(arguments: [0, 5])
  func borrowedStringsDecodeAfterTheInputIsGone(prefix: Int) throws {
    let strings = try Self.readSamples(prefix: prefix)
    #expect(strings.map(\.value) == Self.samples.map(\.text))
    for string in strings {
      guard case .native = string.storage else { continue }
      Issue.record("\(string.debugDescription) was decoded by the reader, expected borrowed")
    }
    #expect(strings.map(\.utf8Count) == Self.samples.map(\.text.utf8.count))
    #expect(strings.map(\.isEmpty) == Self.samples.map(\.text.isEmpty))
    #expect(strings.map(\.description) == Self.samples.map(\.text))
  }

  @Test func borrowedAndNativeAreEqualWithEqualHashes() throws {
    let borrowed = try Self.readSamples(prefix: 3)
    for (string, sample) in zip(borrowed, Self.samples) {
      let native = PropertyListString(sample.text)
      #expect(string == native)
      #expect(native == string)
      #expect(string.hashValue == native.hashValue, "\(sample.text.debugDescription)")
      #expect(PropertyListValue.string(string) == .string(native))
      #expect(PropertyListValue.string(string).hashValue == PropertyListValue.string(native).hashValue)
    }
    // The same text in the two encodings of the file.
    let (asciiAB, utf16AB) = (try Self.readAB(), borrowed[5])
    #expect(asciiAB == utf16AB)
    #expect(asciiAB.hashValue == utf16AB.hashValue)
    // The two empty strings, ASCII and UTF-16.
    #expect(borrowed[1] == borrowed[6])
    #expect(borrowed[1].hashValue == borrowed[6].hashValue)
  }

  /// "AB" as an ASCII string object.
  static func readAB() throws -> PropertyListString {
    let value = try PropertyListReader().read(plist([BinaryPlistBuilder.ascii("AB")])).value
    guard case .string(let string)? = value.arrayValue?.first else { throw Unexpected(value: value) }
    return string
  }

  @Test func differentTextsDiffer() throws {
    let borrowed = try Self.readSamples()
    for (left, leftSample) in zip(borrowed, Self.samples) {
      for (right, rightSample) in zip(borrowed, Self.samples) {
        #expect((left == right) == (leftSample.text == rightSample.text))
        #expect((left == PropertyListString(rightSample.text)) == (leftSample.text == rightSample.text))
      }
    }
    #expect(PropertyListString("ab") != "abc")
    #expect(borrowed[0] != "abd")
    // Scalars are compared, not canonical equivalence (as NSString compares): é precomposed and decomposed.
    #expect(PropertyListString("caf\u{E9}") != PropertyListString("cafe\u{301}"))
  }

  @Test func setsAndDictionariesMixBothForms() throws {
    let borrowed = try Self.readSamples()
    var set = Set(Self.samples.map { PropertyListString($0.text) })
    #expect(set.count == 6)  // the two empty strings are one
    for string in borrowed { #expect(set.contains(string)) }
    set.formUnion(borrowed)
    #expect(set.count == 6)
    var byText: [PropertyListString: Int] = [:]
    for (index, string) in borrowed.enumerated() { byText[string, default: 0] += index }
    #expect(byText["abc"] == 0)
    #expect(byText["😀A"] == 3)
    #expect(byText[""] == 1 + 6)
    #expect(byText[PropertyListString(try Self.readAB().value)] == 5)
  }

  @Test func orderIsTheOrderOfScalars() throws {
    let borrowed = try Self.readSamples()
    let expected = Self.samples.map(\.text).sorted { $0.unicodeScalars.lexicographicallyPrecedes($1.unicodeScalars) }
    #expect(borrowed.sorted().map(\.value) == expected)
    #expect(PropertyListString("ab") < "abc")
    #expect(!(borrowed[0] < borrowed[0]))
  }

  @Test func prefixes() throws {
    let borrowed = try Self.readSamples()
    #expect(borrowed[0].hasPrefix("ab"))
    #expect(borrowed[0].hasPrefix(""))
    #expect(!borrowed[0].hasPrefix("abcd"))
    #expect(borrowed[3].hasPrefix("😀"))
    #expect(!borrowed[3].hasPrefix("A"))
    #expect(PropertyListString("eyJ0.x").hasPrefix("eyJ"))
  }

  @Test func resolvedArchivesKeepStringsBorrowed() throws {
    var builder = BinaryPlistBuilder()
    // {$archiver: NSKeyedArchiver, $version: 100000, $top: {root: UID 1}, $objects: [$null, "token text"]}
    let keys = ["$archiver", "$version", "$top", "$objects"].map { builder.add(BinaryPlistBuilder.ascii($0)) }
    builder.top = builder.add([])
    let archiver = builder.add(BinaryPlistBuilder.ascii("NSKeyedArchiver"))
    let version = builder.add(BinaryPlistBuilder.int8(100_000))
    let rootKey = builder.add(BinaryPlistBuilder.ascii("root"))
    let uid = builder.add([0x80, 1])
    let top = builder.add(builder.dict([rootKey], [uid]))
    let null = builder.add(BinaryPlistBuilder.ascii("$null"))
    let text = builder.add(BinaryPlistBuilder.utf16(Array("token ✓".utf16)))
    let objects = builder.add(builder.array([null, text]))
    builder.objects[builder.top] = builder.dict(keys, [archiver, version, top, objects])
    let archive = try KeyedArchiveReader().read(try PropertyListReader().read(builder.build()).value)
    guard case .string(let string) = archive.root, case .utf16BigEndian = string.storage else {
      Issue.record("root is \(archive.root), expected a borrowed UTF-16 string")
      return
    }
    #expect(archive.root.stringValue == "token ✓")
  }

  @Test func nativeStringsFromTheXMLReader() throws {
    let xml = Data("<plist><array><string>x&amp;y</string><string/></array></plist>".utf8)
    let elements = try #require(try PropertyListReader().read(xml).value.arrayValue)
    #expect(elements == [.string("x&y"), .string("")])
    for case .string(let string) in elements {
      guard case .native = string.storage else {
        Issue.record("XML strings are native")
        continue
      }
    }
  }

  /// Strings borrowed from the input must not make values larger: parsed trees hold millions of them.
  @Test func valueLayoutStaysAt24Bytes() {
    #expect(MemoryLayout<PropertyListValue>.stride == 24)
    #expect(MemoryLayout<PropertyListString>.size <= 17)
    #expect(MemoryLayout<ArchiveValue>.stride == 24)  // inline too: only integers and archived objects boxed
  }

  @Test func descriptions() {
    let string: PropertyListString = "say \"hi\" \(1 + 1) times"
    #expect(string.value == "say \"hi\" 2 times")
    #expect(string.description == "say \"hi\" 2 times")
    #expect(string.debugDescription == #""say \"hi\" 2 times""#)
  }
}
