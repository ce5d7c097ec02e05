import ADALCache
import Adal2MSALSupport
import Foundation
import PropertyLists
import Testing
import _Adal2MSALTestSupport

/// One bad item never stops the others: each is reported with its item index.
@Suite("Corrupt items in good dumps")
struct CorruptDumpTests {
  @Test func corruptItemsAreReportedAndTheRestRead() throws {
    let fixture = "dump-corrupt-items.xml.plist"
    let expected = try #require(try Manifest.section("dumps")[fixture])
    let result = try Manifest.read(fixture)
    #expect(result.items.compactMap(\.source.itemIndex) == expected["readItemIndexes"] as? [Int])
    let items = try #require(expected["items"] as? [[String: Any]])
    for (item, wanted) in zip(result.items, items) {
      var wanted = wanted
      wanted["svce"] = nil
      expectItem(item, matches: wanted, "\(fixture) item \(item.source.itemIndex ?? -1)")
    }
    let unreadable = result.diagnostics.filter { $0.code == "adal.item-unreadable" }
    #expect(unreadable.map(\.location?.itemIndex) == (expected["unreadableItemIndexes"] as? [Int])?.map(Optional.some))
    #expect(unreadable.allSatisfy { $0.severity == .error && $0.location?.file == fixture })
    #expect(unreadable.allSatisfy { $0.message.contains("svce MSOpenTech.ADAL.1|") })
    #expect(unreadable[0].message.contains("not a readable property list"))
    #expect(unreadable[1].message.contains("ADUserInformation"))
    #expect(unreadable[2].message.contains("no authority"))
    let badService = result.diagnostics.filter { $0.code == "adal.service-unreadable" }
    #expect(badService.map(\.location?.itemIndex) == [4])
    #expect(badService.first?.severity == .warning)
    // MSIDLegacyTokenCacheItem is accepted defensively.
    #expect(result.items.last?.source.archiveClassName == "MSIDLegacyTokenCacheItem")
  }

  /// Entries that are not dictionaries, missing v_Data, garbage v_Data: all per item.
  @Test func malformedEntriesInAJSONDump() throws {
    let good = try Fixtures.data("adal/archive-e3-frt.bplist")
    let json: [Any] = [
      "not an object",
      ["gena": "MSOpenTech.ADAL.1", "svce": "x", "acct": ""],
      ["gena": "MSOpenTech.ADAL.1", "v_Data": "!!!not base64!!!"],
      ["gena": "MSOpenTech.ADAL.1", "v_Data": Data("garbage".utf8).base64EncodedString()],
      [
        "gena": "TVNPcGVuVGVjaC5BREFMLjE=", "v_Data": good.base64EncodedString(), "acct": "",
        "svce":
          "MSOpenTech.ADAL.1|aHR0cHM6Ly9sb2dpbi5taWNyb3NvZnRvbmxpbmUuY29tLzcyZjk4OGJmLTg2ZjEtNDFhZi05MWFiLTJkN2NkMDExZGI0Nw|CC3513A0-0E69-4B4D-97FC-DFB6C91EE132|Zm9jaS0x",
      ],
    ]
    let data = try JSONSerialization.data(withJSONObject: json)
    let result = try ADALCacheReader().read(data, file: "hand.json")
    #expect(result.inputKind == .keychainJSON)
    #expect(result.items.map(\.source.itemIndex) == [4])
    #expect(result.items.first?.kind == .familyRefreshToken(familyID: "1"))
    let errors = result.diagnostics.filter { $0.severity == .error }
    #expect(errors.map(\.location?.itemIndex) == [0, 1, 2, 3])
    #expect(result.diagnostics.contains { $0.code == "adal.value-undecodable" && $0.location?.itemIndex == 2 })
    #expect(result.diagnostics.filter { $0.severity == .warning && $0.code != "adal.value-undecodable" }.isEmpty)
  }

  /// objection: `dataHex` wins over the lossy `data`; bad hex is a warning and the item is unreadable.
  @Test func objectionHexHandling() throws {
    let good = try Fixtures.data("adal/archive-e1-at.bplist")
    let hex = good.map { String(format: "%02X", $0) }.joined()
    let json: [[String: Any]] = [
      ["account": "", "service": "", "generic": "MSOpenTech.ADAL.1", "dataHex": "0x" + hex, "data": "lossy"],
      ["account": "", "service": "", "generic": "MSOpenTech.ADAL.1", "dataHex": "zz", "data": ""],
      ["account": "", "service": "", "generic": "MSOpenTech.ADAL.1", "dataHex": "abc", "data": ""],
    ]
    let result = try ADALCacheReader().read(try JSONSerialization.data(withJSONObject: json), file: "o.json")
    #expect(result.inputKind == .objectionJSON)
    #expect(result.items.map(\.source.itemIndex) == [0])
    #expect(result.items.first?.kind == .accessToken)
    #expect(result.diagnostics.filter { $0.code == "adal.value-undecodable" }.map(\.location?.itemIndex) == [1, 2])
    #expect(result.diagnostics.filter { $0.code == "adal.item-unreadable" }.map(\.location?.itemIndex) == [1, 2])
  }

  @Test func unrecognisedInputsThrow() {
    let reader = ADALCacheReader()
    #expect(throws: ADALCacheError.self) { try reader.read(Data("hello".utf8), file: "x") }
    #expect(throws: ADALCacheError.self) { try reader.read(Data("{\"a\": 1}".utf8), file: "x") }
    #expect(throws: ADALCacheError.self) { try reader.read(Data("[1, 2".utf8), file: "x") }
    #expect(throws: ADALCacheError.self) { try reader.read(Data("bplist00garbage".utf8), file: "x") }
    let plist = try? PropertyListSerialization.data(fromPropertyList: ["k": "v"], format: .xml, options: 0)
    #expect(throws: ADALCacheError.self) { try reader.read(plist ?? Data(), file: "x") }
  }

  @Test func inputLimitIsEnforced() throws {
    var limits = InputLimits()
    limits.maxInputBytes = 100
    let data = try Fixtures.data("adal/dump-multiuser.base64.json")
    #expect(throws: ADALCacheError.self) { try ADALCacheReader(limits: limits).read(data, file: "big") }
    limits = InputLimits()
    limits.maxStringBytes = 300
    let result = try ADALCacheReader(limits: limits).read(data, file: "big")
    #expect(result.items.isEmpty)
    #expect(result.diagnostics.contains { $0.code == "adal.limit" })
  }

  /// Truncating a good binary dump anywhere never crashes; it either throws or reads.
  @Test func truncatedDumpsNeverCrash() throws {
    let data = try Fixtures.data("adal/dump-multiuser.bplist")
    for length in stride(from: 0, to: data.count, by: max(1, data.count / 97)) {
      _ = try? ADALCacheReader().read(data.prefix(length), file: "cut")
    }
    let archive = try Fixtures.data("adal/archive-e4-at.bplist")
    for length in 0..<archive.count {
      _ = try? ADALCacheReader().read(archive.prefix(length), file: "cut")
    }
  }
}
