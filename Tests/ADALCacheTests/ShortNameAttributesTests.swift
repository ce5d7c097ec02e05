import Adal2MSALSupport
import Foundation
import PropertyLists
import Testing

@testable import ADALCache

/// Each of Apple's short attribute names lands in its own field of the record, whichever way a dump is read: a
/// binary dump without its tree (`FlatDictionaryArray`), the same dump through the tree, and a JSON dump.
@Suite("Short attribute names")
struct ShortNameAttributesTests {
  static let file = "dump"
  static let created = Date(timeIntervalSinceReferenceDate: 700_000_000)
  static let modified = Date(timeIntervalSinceReferenceDate: 700_000_100)

  /// Every attribute a record reads, each with a value of its own; the second item has its data under `data`
  /// (as some dumps spell it) instead of `v_Data`.
  static var items: [[String: Any]] {
    [
      [
        "class": "genp", "acct": "the account", "svce": "the service", "gena": Data("the generic".utf8),
        "agrp": "the access group", "type": 2001, "v_Data": Data("the data".utf8), "cdat": created,
        "mdat": modified, "labl": "the label", "invi": true, "pdmn": "ak",
      ],
      ["acct": "the other account", "data": Data("the other data".utf8), "invi": false],
    ]
  }

  static let expected = [
    KeychainRecord(
      itemClass: "genp", account: "the account", service: "the service", generic: Data("the generic".utf8),
      accessGroup: "the access group", type: 2001, data: Data("the data".utf8), created: created,
      modified: modified, label: "the label", invisible: true, location: SourceLocation(file: file)),
    KeychainRecord(
      account: "the other account", data: Data("the other data".utf8), invisible: false,
      location: SourceLocation(file: file)),
  ]

  /// The records with their locations left out (each reader words the key path its own way).
  static func attributes(_ records: [KeychainRecord]) -> [KeychainRecord] {
    records.map { record in
      var copy = record
      copy.location = SourceLocation(file: file)
      return copy
    }
  }

  @Test func aBinaryDumpReadWithoutItsTree() throws {
    let data = try PropertyListSerialization.data(fromPropertyList: Self.items, format: .binary, options: 0)
    let records = try #require(try FlatDumpTests.flatRecords(data), "the dump was left to the general reader").records
    #expect(Self.attributes(records) == Self.expected)
  }

  @Test func aBinaryDumpReadThroughItsTree() throws {
    let data = try PropertyListSerialization.data(fromPropertyList: Self.items, format: .binary, options: 0)
    let document = try PropertyListReader(borrowsData: true).read(data, file: Self.file)
    let parsed = try #require(try KeychainDumpParser(limits: .default, file: Self.file).parse(plist: document.value))
    #expect(Self.attributes(parsed.records) == Self.expected)
  }

  @Test func aJSONDump() throws {
    // JSON has no data or dates: data as base64 and dates as ISO 8601 text, as JSON dumps give them.
    let json = Self.items.map { item in
      item.mapValues { value -> Any in
        switch value {
        case let bytes as Data: bytes.base64EncodedString()
        case let date as Date: ISO8601DateFormatter().string(from: date)
        default: value
        }
      }
    }
    let data = try JSONSerialization.data(withJSONObject: json)
    let root = try ADALJSON.parse(data, limits: .default, file: Self.file)
    let parsed = try KeychainDumpParser(limits: .default, file: Self.file).parse(json: root)
    // `gena` given as base64 text is decoded when it decodes to printable text.
    #expect(Self.attributes(parsed.records) == Self.expected)
  }
}
