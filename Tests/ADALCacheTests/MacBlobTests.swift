import ADALCache
import Adal2MSALSupport
import Foundation
import PropertyLists
import Testing

/// The macOS blob's wrapper validation (spec §3.1) and key cross-checks, on hand-built archive trees.
@Suite("macOS blob")
struct MacBlobTests {
  static func dict(_ pairs: [(ArchiveValue, ArchiveValue)]) -> ArchiveValue {
    .dictionary(pairs.map { ArchiveDictionaryEntry(key: $0.0, value: $0.1) })
  }
  static func object(_ className: String, _ fields: [(String, ArchiveValue)]) -> ArchiveValue {
    .object(ArchivedObject(className: className, fields: fields.map { (key: $0.0, value: $0.1) }, objectIndex: 0))
  }
  static let item = object(
    "ADTokenCacheStoreItem",
    [
      ("authority", .string("https://login.windows.net/Common")), ("resource", .null), ("clientId", .string("App")),
      ("refreshToken", .string("r")),
    ])
  static func key(_ authority: String, _ resource: ArchiveValue, _ client: String) -> ArchiveValue {
    object(
      "ADTokenCacheKey",
      [
        ("authority", .string(PropertyListString(authority))), ("resource", resource),
        ("clientId", .string(PropertyListString(client))),
      ])
  }
  static func blob(version: ArchiveValue?, tokens: ArchiveValue) -> ArchiveValue {
    var pairs: [(ArchiveValue, ArchiveValue)] = [(.string("tokenCache"), dict([(.string("tokens"), tokens)]))]
    if let version { pairs.append((.string("version"), version)) }
    return dict(pairs)
  }

  @Test func readsItemsWithUserKeys() throws {
    let tokens = Self.dict([
      (.string("User@X.com"), Self.dict([(Self.key("https://login.windows.net/common", .null, "app"), Self.item)]))
    ])
    let (items, diagnostics) = try ADALMacBlobReader().read(Self.blob(version: .integer(1), tokens: tokens), file: "b")
    #expect(diagnostics.isEmpty, "\(diagnostics)")
    #expect(items.count == 1)
    #expect(items[0].keychainUserID == "user@x.com")
    #expect(items[0].source.blobUserKey == "User@X.com")
    #expect(items[0].userID == "user@x.com")
  }

  @Test func versionRules() throws {
    let empty = Self.dict([])
    #expect(throws: ADALCacheError.self) {
      try ADALMacBlobReader().read(Self.blob(version: nil, tokens: empty), file: "b")
    }
    #expect(throws: ADALCacheError.self) {
      try ADALMacBlobReader().read(Self.blob(version: .real(1.5), tokens: empty), file: "b")
    }
    #expect(throws: ADALCacheError.self) {
      try ADALMacBlobReader().read(Self.blob(version: .string("1"), tokens: empty), file: "b")
    }
    #expect(throws: Never.self) {
      try ADALMacBlobReader().read(Self.blob(version: .real(1.0), tokens: empty), file: "b")
    }
    #expect(throws: Never.self) {
      try ADALMacBlobReader().read(Self.blob(version: .real(0.5), tokens: empty), file: "b")
    }
  }

  @Test func wrongContainersThrowAtTheTopAndAreDiagnosticsBelow() throws {
    #expect(throws: ADALCacheError.self) {
      try ADALMacBlobReader().read(Self.blob(version: .integer(1), tokens: .array([])), file: "b")
    }
    #expect(throws: ADALCacheError.self) {
      try ADALMacBlobReader().read(Self.dict([(.string("version"), .integer(1))]), file: "b")
    }
    let tokens = Self.dict([
      (.integer(5), Self.dict([])),
      (.string("a@x.com"), .string("not a dictionary")),
      (
        .string("b@x.com"),
        Self.dict([
          (.string("plain key"), Self.item),
          (Self.key("https://login.windows.net/common", .null, "app"), .string("no item")),
        ])
      ),
    ])
    let (items, diagnostics) = try ADALMacBlobReader().read(Self.blob(version: .integer(1), tokens: tokens), file: "b")
    #expect(items.count == 1)
    #expect(diagnostics.filter { $0.code == "adal.blob-structure" }.count == 3)
    #expect(diagnostics.filter { $0.code == "adal.item-unreadable" }.map(\.location?.itemIndex) == [1])
  }

  @Test func keyMismatchIsAWarning() throws {
    let tokens = Self.dict([
      (.string(""), Self.dict([(Self.key("https://login.windows.net/other", .string("res"), "different"), Self.item)]))
    ])
    let (items, diagnostics) = try ADALMacBlobReader().read(Self.blob(version: .integer(1), tokens: tokens), file: "b")
    #expect(items.count == 1)
    #expect(items[0].keychainUserID == nil)
    let mismatches = diagnostics.filter { $0.code == "adal.key-mismatch" }
    #expect(mismatches.count == 3)
    #expect(mismatches.allSatisfy { $0.severity == .warning && $0.location?.itemIndex == 0 })
  }
}
