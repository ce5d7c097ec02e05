import ADALCache
import Adal2MSALSupport
import Foundation
import Testing
import _Adal2MSALTestSupport

/// A dump's entries become records on all cores (`KeychainDumpParser`); what a read gives is what one core in
/// order gave: each item and each problem at its entry's index, in the entries' order, across keychain classes.
@Suite struct LargeDumpOrderTests {
  /// One ADAL item as Foundation's plist writer stores it (`RealADALFixtureTests.hardcodedKeychainAttributes`).
  static func item() throws -> [String: Any] {
    [
      "acct": "bXlmYWtldXNlckBjb250b3NvLmNvbQ",
      "svce":
        "MSOpenTech.ADAL.1|aHR0cHM6Ly9sb2dpbi5taWNyb3NvZnRvbmxpbmUuY29tL2NvbW1vbg|PHJlc291cmNlPg|MjdhZDgzYzktZmMwNS00YTZjLWFmMDEtMzZlZGE0MmVkMTgw",
      "gena": Data("MSOpenTech.ADAL.1".utf8),
      "v_Data": try Fixtures.data("adal-objc/adal_keychain_hardcoded_item.bplist"), "class": "genp",
    ]
  }

  /// Entries that are not dictionaries, each named by a diagnostic at its index.
  static let notItems: Set<Int> = [7, 1_500, 2_048, 2_999]

  static func entries(_ count: Int, offset: Int = 0) throws -> [Any] {
    let item = try item()
    return (0..<count).map { notItems.contains(offset + $0) ? (offset + $0) as Any : item as Any }
  }

  /// The indexes of what the read gave: its items', and those of its "not an item dictionary" diagnostics.
  static func indexes(_ result: ADALReadResult) -> (items: [Int?], problems: [Int?]) {
    (
      result.items.map(\.source.itemIndex),
      result.diagnostics.filter { $0.message.contains("not an item dictionary") }.map { $0.location?.itemIndex }
    )
  }

  @Test func anArrayDumpKeepsItsEntriesOrder() throws {
    let dump = try PropertyListSerialization.data(fromPropertyList: Self.entries(3_000), format: .binary, options: 0)
    let (items, problems) = Self.indexes(try ADALCacheReader().read(dump, file: "large.plist"))
    #expect(items == (0..<3_000).filter { !Self.notItems.contains($0) })
    #expect(problems == Self.notItems.sorted())
  }

  /// A dump keyed by class: the second class's entries are numbered after the first's.
  @Test func aClassKeyedDumpNumbersItsEntriesAcrossClasses() throws {
    let classes: [String: Any] = ["genp": try Self.entries(2_000), "inet": try Self.entries(1_000, offset: 2_000)]
    let dump = try PropertyListSerialization.data(fromPropertyList: classes, format: .binary, options: 0)
    let result = try ADALCacheReader().read(dump, file: "classes.plist")
    let (items, problems) = Self.indexes(result)
    #expect(result.inputKind == .keychainPlistClasses)
    #expect(items.count == 3_000 - Self.notItems.count)
    let numbered = Set(items.compactMap { $0 }).union(problems.compactMap { $0 })
    #expect(numbered.count == 3_000)
    #expect(numbered.min() == 0 && numbered.max() == 2_999)
    #expect(problems.count == Self.notItems.count)
    #expect(zip(items, items.dropFirst()).allSatisfy { ($0 ?? -1) < ($1 ?? -1) })
  }
}
