import Foundation
import PropertyLists
import Testing
import _Adal2MSALTestSupport

/// Every generated fixture (scripts/fixtures/make_plist_fixtures.py) reads back exactly, in both encodings.
@Suite struct FixtureTests {
  static let names = ["all-types", "foundation-sample", "top-array", "top-string", "archive-foundation"]

  @Test(arguments: names, [PropertyListFormat.binary, .xml])
  func readsBackExactly(name: String, format: PropertyListFormat) throws {
    let file = "plist/\(name).\(format == .binary ? "binary" : "xml").plist"
    let data = try Fixtures.data(file)
    #expect(PropertyListFormat.sniff(data) == format)
    let document = try PropertyListReader().read(data, file: file)
    #expect(document.format == format)
    let expected = try ExpectedValues.plist(ExpectedValues.load("\(name).expected.json"))
    #expect(document.value == expected)
    if document.value != expected, case .dictionary(let actual) = document.value,
      case .dictionary(let wanted) = expected
    {
      for (key, value) in wanted where actual[key] != value {
        Issue.record("\(file): \(key) differs: \(String(describing: actual[key])) vs \(value)")
      }
    }
  }

  /// Dump readers hand over slices of larger buffers: indices need not start at 0.
  @Test(arguments: ["plist/all-types.binary.plist", "plist/all-types.xml.plist"])
  func readsSlices(file: String) throws {
    let data = try Fixtures.data(file)
    let padded = Data(repeating: 0x20, count: 13) + data + Data("trailing".utf8)
    let slice = padded[13..<(13 + data.count)]
    #expect(slice.startIndex == 13)
    #expect(try PropertyListReader().read(slice).value == PropertyListReader().read(data).value)
  }

  @Test func allTypesSpotChecks() throws {
    let value = try PropertyListReader().read(Fixtures.data("plist/all-types.binary.plist")).value
    #expect(value["uint64_max"] == .integer(Int128(UInt64.max)))
    #expect(value["int64_min"] == .integer(Int128(Int64.min)))
    #expect(value["int_above_int64"] == .integer(Int128(1) << 63))
    #expect(value["string_emoji"]?.stringValue == "grin 😀 and 🇫🇷 need surrogate pairs")
    #expect(value["uid_large"] == .uid(4_294_967_301))
    #expect(value["date_unix_epoch"]?.dateValue == Date(timeIntervalSince1970: 0))
    #expect(value["real_negative_infinity"] == .real(-.infinity))
    #expect(value["data_bytes"]?.dataValue == Data(0...255))
  }

  @Test(arguments: [PropertyListFormat.binary, .xml])
  func archiveResolvesExactly(format: PropertyListFormat) throws {
    let file = "plist/archive-foundation.\(format == .binary ? "binary" : "xml").plist"
    let document = try PropertyListReader().read(Fixtures.data(file), file: file)
    #expect(KeyedArchive.isKeyedArchive(document.value))
    let archive = try KeyedArchiveReader().read(document.value, file: file)
    let expected = try ExpectedValues.archive(ExpectedValues.load("archive-foundation.archive.json"))
    #expect(archive.root == expected)
    #expect(archive.rootClassName == "ADTestItem")
    #expect(archive.top.map(\.key) == ["root"])
    // The shared NSMutableString appears, resolved, in both places.
    let root = try #require(archive.root.objectValue)
    let shared = "shared between a dictionary and an array"
    #expect(root["list"] == .array([.string("x"), .string(PropertyListString(shared)), .null]))
    #expect(
      root["attributes"]?.stringKeyedEntries?.first { $0.key == "b" }?.value == .string(PropertyListString(shared)))
    #expect(root["child"]?.objectValue?.className == "ADTestChild")
    #expect(root["when"] == .date(Date(timeIntervalSinceReferenceDate: 1_000_000)))
    #expect(root["nothing"] == .null)
  }

  /// An independent oracle: Foundation's PropertyListSerialization reads the same files to the same values.
  /// (Foundation on Linux rejects binary plists holding 128-bit integers or bare UIDs, so the sample has none.)
  @Test(arguments: ["foundation-sample", "top-array", "top-string"], [PropertyListFormat.binary, .xml])
  func agreesWithFoundation(name: String, format: PropertyListFormat) throws {
    let data = try Fixtures.data("plist/\(name).\(format == .binary ? "binary" : "xml").plist")
    let ours = try PropertyListReader().read(data).value
    let theirs = try PropertyListSerialization.propertyList(from: data, format: nil)
    var compared = 0
    #expect(FoundationOracle.matches(ours, theirs, path: name, compared: &compared))
    #expect(compared >= (name == "foundation-sample" ? 45 : 1))
  }
}

/// Compares our values with what PropertyListSerialization returns.
enum FoundationOracle {
  static func matches(_ ours: PropertyListValue, _ theirs: Any, path: String, compared: inout Int) -> Bool {
    compared += 1
    let ok: Bool
    switch ours {
    case .string(let text): ok = (theirs as? String) == text.value
    case .bool(let flag): ok = (theirs as? Bool) == flag
    case .integer(let number):
      ok = Int64(exactly: number).map { (theirs as? NSNumber)?.int64Value == $0 } ?? true
    case .real(let number): ok = (theirs as? NSNumber)?.doubleValue == number
    case .date(let date): ok = (theirs as? Date) == date
    case .data(let data): ok = (theirs as? Data) == data
    case .uid: ok = true
    case .null: ok = theirs is NSNull
    case .array(let elements), .set(let elements):
      guard let list = theirs as? [Any], list.count == elements.count else { return record(path) }
      ok = zip(elements, list).enumerated().allSatisfy {
        matches($1.0, $1.1, path: "\(path)[\($0)]", compared: &compared)
      }
    case .dictionary(let dictionary):
      guard let map = theirs as? [String: Any], map.count == dictionary.count else { return record(path) }
      ok = dictionary.allSatisfy { entry in
        map[entry.key].map { matches(entry.value, $0, path: "\(path).\(entry.key)", compared: &compared) } ?? false
      }
    }
    return ok || record(path)
  }

  private static func record(_ path: String) -> Bool {
    Issue.record("differs from Foundation at \(path)")
    return false
  }
}
