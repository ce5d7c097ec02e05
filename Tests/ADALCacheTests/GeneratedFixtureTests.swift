import ADALCache
import Adal2MSALSupport
import Foundation
import PropertyLists
import Testing
import UnifiedCache
import _Adal2MSALTestSupport

/// The fixture set written by an independent writer (bpylist2 + plistlib), checked against its manifest.
@Suite("Generated ADAL fixtures")
struct GeneratedFixtureTests {
  static let archives = [
    "archive-e1-at.bplist", "archive-e1-mrrt.bplist", "archive-e3-broker-session.bplist", "archive-e3-frt.bplist",
    "archive-e3-tombstone.bplist", "archive-e4-at.bplist", "archive-e4-at.xml.plist",
  ]
  static let dumps = [
    "dump-multiuser.xml.plist", "dump-multiuser.bplist", "dump-multiuser-classes.xml.plist",
    "dump-multiuser.objection.json", "dump-multiuser.base64.json",
  ]
  static let blobs = ["macos-blob.bplist", "macos-blob.xml.plist"]

  @Test func manifestListsExactlyTheseFixtures() throws {
    #expect(Set(try Manifest.section("archives").keys) == Set(Self.archives))
    #expect(Set(try Manifest.section("dumps").keys) == Set(Self.dumps + ["dump-corrupt-items.xml.plist"]))
    #expect(Set(try Manifest.section("blobs").keys) == Set(Self.blobs + ["macos-blob-version2.bplist"]))
  }

  @Test(arguments: archives)
  func archivedItem(_ fixture: String) throws {
    let expected = try #require(try Manifest.section("archives")[fixture])
    let result = try Manifest.read(fixture)
    #expect(result.inputKind == .archivedItem)
    #expect(result.plistFormat == (fixture.hasSuffix(".xml.plist") ? .xml : .binary))
    let items = try #require(expected["items"] as? [[String: Any]])
    try #require(result.items.count == items.count)
    for (item, wanted) in zip(result.items, items) { expectItem(item, matches: wanted, fixture) }
    #expect(result.diagnostics.allSatisfy { $0.severity == .note }, "\(result.diagnostics)")
  }

  @Test(arguments: dumps)
  func keychainDump(_ fixture: String) throws {
    let expected = try #require(try Manifest.section("dumps")[fixture])
    let result = try Manifest.read(fixture)
    #expect(result.inputKind.rawValue == expected["kind"] as? String)
    let items = try #require(expected["items"] as? [[String: Any]])
    try #require(result.items.count == items.count, "\(fixture): \(result.items.count) items")
    for (item, wanted) in zip(result.items, items) {
      expectItem(item, matches: wanted, "\(fixture) item \(wanted["itemIndex"] ?? "?")")
    }
    #expect(result.unifiedItems.map(\.type) == expected["unifiedTypes"] as? [Int])
    #expect(result.unifiedItems.allSatisfy { !$0.payload.isEmpty && $0.accessGroup != nil })
    #expect(result.wipeMarkers.count == expected["wipeMarkers"] as? Int)
    #expect(result.wipeMarkers.first?.bundleID == expected["wipeBundleId"] as? String)
    let wipeTime = try #require((expected["wipeTime"] as? NSNumber)?.doubleValue)
    #expect(result.wipeMarkers.first?.wipeTime?.timeIntervalSince1970 == wipeTime)
    #expect(result.ignoredItemCount == expected["ignored"] as? Int)
    #expect(result.diagnostics.allSatisfy { $0.severity == .note }, "\(result.diagnostics)")
    #expect(result.diagnostics.contains { $0.code == "adal.wipe-marker" })
    #expect(result.diagnostics.contains { $0.code == "adal.ignored-items" })
  }

  @Test func everyDumpFormatGivesTheSameItems() throws {
    let reference = try Manifest.read(Self.dumps[0])
    for fixture in Self.dumps.dropFirst() {
      let other = try Manifest.read(fixture)
      #expect(other.items.map(\.kind) == reference.items.map(\.kind), "\(fixture)")
      #expect(other.items.map(\.secret) == reference.items.map(\.secret), "\(fixture)")
      #expect(other.items.map(\.source.itemIndex) == reference.items.map(\.source.itemIndex), "\(fixture)")
      #expect(other.unifiedItems.map(\.payload) == reference.unifiedItems.map(\.payload), "\(fixture)")
    }
  }

  @Test(arguments: blobs)
  func macOSBlob(_ fixture: String) throws {
    let expected = try #require(try Manifest.section("blobs")[fixture])
    let result = try Manifest.read(fixture)
    #expect(result.inputKind == .macOSBlob)
    let items = try #require(expected["items"] as? [[String: Any]])
    try #require(result.items.count == items.count)
    for (item, wanted) in zip(result.items, items) { expectItem(item, matches: wanted, fixture) }
    #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
    // macOS archives carry only rawIdToken: the user comes from the id token and the blob key agrees.
    #expect(result.items.allSatisfy { $0.archivedUserID == nil })
  }

  @Test func blobNewerThanVersionOneIsRejected() throws {
    #expect(throws: ADALCacheError.self) { try Manifest.read("macos-blob-version2.bplist") }
    do {
      _ = try Manifest.read("macos-blob-version2.bplist")
    } catch let error as ADALCacheError {
      #expect(error.message.contains("version"))
      #expect(error.location.keyPath == "root.version")
    }
  }

  @Test func unifiedItemsDecodeWithTheUnifiedDecoder() throws {
    let result = try Manifest.read("dump-multiuser.bplist")
    #expect(result.unifiedItems.count == 4)
    let first = try #require(result.unifiedItems.first)
    #expect(first.account.hasSuffix("-login.microsoftonline.com"))
    #expect(first.location.itemIndex == 15)
    let decoded = UnifiedKeychainDecoder().decode(result.unifiedItems)
    #expect(decoded.contents.accessTokens.count == 1)
    #expect(decoded.contents.refreshTokens.count == 1)
    #expect(decoded.contents.accounts.count == 1)
    #expect(decoded.contents.appMetadata.count == 1)
    #expect(decoded.diagnostics.filter { $0.severity != .note }.isEmpty, "\(decoded.diagnostics)")
  }
}
