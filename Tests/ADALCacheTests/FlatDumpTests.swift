import Adal2MSALSupport
import Adal2MSALSynthetic
import Foundation
import PropertyLists
import Testing
import _Adal2MSALTestSupport

@testable import ADALCache

/// A binary dump of item dictionaries is read without its property list's tree (`FlatDictionaryArray`,
/// `KeychainDumpParser.record(ofFlatEntry:in:lane:problems:)`): the read must be the one the tree gives.
@Suite("Dumps read without their tree")
struct FlatDumpTests {
  static let file = "dump.bplist"

  static func dump(_ input: String) throws -> Data {
    if input == "dump-multiuser.bplist" { return try Fixtures.data("adal/dump-multiuser.bplist") }
    var generator = SyntheticGenerator(seed: 7)
    return Data(SyntheticFormat.binaryPlist.encode(generator.dump(users: 40)))
  }

  /// The read through the general reader's tree: what `ADALCacheReader` did for every dump before.
  static func readThroughTheTree(_ data: Data) throws -> ADALReadResult {
    let document = try PropertyListReader(borrowsData: true).read(data, file: file)
    let parsed = try #require(try KeychainDumpParser(limits: .default, file: file).parse(plist: document.value))
    var result = ADALReadResult(inputKind: parsed.kind, plistFormat: document.format, diagnostics: parsed.diagnostics)
    KeychainItemRouter(limits: .default, file: file).route(parsed.records, into: &result)
    return result
  }

  /// The records of a dump read without its tree, through one lane, and their diagnostics; nil when the dump is
  /// not a flat array.
  static func flatRecords(_ data: Data) throws -> (records: [KeychainRecord], diagnostics: [Diagnostic])? {
    FlatDictionaryArray.withEntries(of: data, limits: .default, borrowsData: true) { entries in
      let parser = KeychainDumpParser(limits: .default, file: file)
      let (lane, problems) = (KeychainDumpParser.FlatLane(), KeychainDumpParser.EntryDiagnostics())
      let records = (0..<entries.count).map {
        parser.record(ofFlatEntry: $0, in: entries, lane: lane, problems: problems)
      }
      return (records, problems.inEntryOrder())
    }
  }

  @Test(arguments: ["dump-multiuser.bplist", "synthetic dump"])
  func recordsAreTheTreesRecords(_ input: String) throws {
    let data = try Self.dump(input)
    let document = try PropertyListReader(borrowsData: true).read(data, file: Self.file)
    let tree = try #require(try KeychainDumpParser(limits: .default, file: Self.file).parse(plist: document.value))
    let flat = try #require(try Self.flatRecords(data), "\(input) was not read as a flat array")
    #expect(tree.kind == .keychainPlistArray)
    #expect(flat.diagnostics == tree.diagnostics)
    try #require(flat.records.count == tree.records.count)
    // Indexes only: a record's description would show its data.
    let differing = flat.records.indices.filter { flat.records[$0] != tree.records[$0] }
    #expect(differing.isEmpty, "\(input): records \(differing.prefix(10)) differ")
  }

  @Test(arguments: ["dump-multiuser.bplist", "synthetic dump"])
  func readIsTheReadThroughTheTree(_ input: String) throws {
    let data = try Self.dump(input)
    let expected = try Self.readThroughTheTree(data)
    let result = try ADALCacheReader().read(data, file: Self.file)
    #expect(result.inputKind == expected.inputKind)
    #expect(result.plistFormat == expected.plistFormat)
    #expect(result.items.count == expected.items.count && result.items.count > 10)
    let differing = result.items.indices.filter { result.items[$0] != expected.items[$0] }
    #expect(differing.isEmpty, "\(input): items \(differing.prefix(10)) differ")
    #expect(result.unifiedItems == expected.unifiedItems)
    #expect(result.wipeMarkers == expected.wipeMarkers)
    #expect(result.ignoredItemCount == expected.ignoredItemCount)
    #expect(result.diagnostics == expected.diagnostics)
  }

  /// Records share the strings the writer stored once (one copy per lane), where the tree's had one each.
  @Test func recordsShareRepeatedStrings() throws {
    let data = try Self.dump("synthetic dump")
    let flat = try #require(try Self.flatRecords(data))
    let groups = flat.records.compactMap(\.accessGroup)
    let distinct = Set(groups).count
    #expect(groups.count > 100 && distinct * 10 < groups.count && groups.allSatisfy { $0.utf8.count > 15 })
    let storages = Set(groups.map { group in group.utf8.withContiguousStorageIfAvailable { $0.baseAddress } })
    #expect(storages.count == distinct, "\(storages.count) copies of \(distinct) strings")
  }
}
