import ADALCache
import Adal2MSALSupport
import Foundation
import PropertyLists
import Testing

/// The item decoder on hand-built archive trees: kinds, eras, and per-field type problems.
@Suite("Archived item decoder")
struct ArchivedItemDecoderTests {
  static func item(_ fields: [(String, ArchiveValue)], className: String = "ADTokenCacheStoreItem") -> ArchiveValue {
    .object(ArchivedObject(className: className, fields: fields.map { (key: $0.0, value: $0.1) }, objectIndex: 1))
  }

  static let base: [(String, ArchiveValue)] = [
    ("authority", .string("https://login.microsoftonline.com/tfp/contoso.onmicrosoft.com/B2C_1_signin")),
    ("clientId", .string("client")), ("resource", .null),
  ]

  func decode(_ fields: [(String, ArchiveValue)], className: String = "ADTokenCacheStoreItem") throws -> (
    item: ADALTokenItem, diagnostics: [Diagnostic]
  ) {
    try ADALArchivedItemDecoder().decode(
      Self.item(fields, className: className), source: ADALItemSource(file: "t", itemIndex: 7))
  }

  @Test func kinds() throws {
    let at: [(String, ArchiveValue)] = [("accessToken", .string("a"))]
    let rt: [(String, ArchiveValue)] = [("refreshToken", .string("r"))]
    #expect(try decode(Self.base + at).item.kind == .accessToken)
    #expect(try decode(Self.base + rt).item.kind == .multiResourceRefreshToken)
    #expect(try decode(Self.base + at + rt).item.kind == .singleResourceRefreshAndAccess)
    #expect(try decode(Self.base + [("refreshToken", .string("<tombstone>"))]).item.kind == .tombstone)
    let frt: [(String, ArchiveValue)] = [
      ("authority", .string("https://login.windows.net/common")), ("clientId", .string("foci-2")),
      ("refreshToken", .string("r")),
    ]
    #expect(try decode(frt).item.kind == .familyRefreshToken(familyID: "2"))
    #expect(try decode(frt + [("familyId", .string("7"))]).item.kind == .familyRefreshToken(familyID: "7"))
  }

  @Test func b2cAuthorityTenantAndPort() throws {
    let decoded = try decode(Self.base + [("accessToken", .string("a"))]).item
    #expect(decoded.tenant == "contoso.onmicrosoft.com")
    #expect(decoded.environment == "login.microsoftonline.com")
    let ported = try decode(
      [
        ("authority", .string("https://Login.Example.com:8443/Tenant/")), ("clientId", .string("c")),
        ("accessToken", .string("a")),
      ]).item
    #expect(ported.environment == "login.example.com:8443")
    #expect(ported.tenant == "Tenant")
    let defaultPort = try decode(
      [
        ("authority", .string("https://login.example.com:443/t")), ("clientId", .string("c")),
        ("accessToken", .string("a")),
      ]).item
    #expect(defaultPort.environment == "login.example.com")
  }

  @Test func erasFromKeysPresent() throws {
    let rt: [(String, ArchiveValue)] = Self.base + [("refreshToken", .string("r"))]
    #expect(try decode(rt).item.source.era == .e1)
    #expect(try decode(rt + [("familyId", .null)]).item.source.era == .e3)
    #expect(try decode(rt + [("additionalServer", .dictionary([]))]).item.source.era == .e3)
    #expect(try decode(rt + [("familyId", .null), ("cachedAt", .null)]).item.source.era == .e4)
    #expect(try decode(rt + [("homeAccountId", .string("u.t"))]).item.source.era == .e4)
  }

  @Test(arguments: ["ADTokenCacheStoreItem", "ADTokenCacheItem", "ADALTokenCacheItem", "MSIDLegacyTokenCacheItem"])
  func acceptedClassNames(_ className: String) throws {
    let decoded = try decode(Self.base + [("accessToken", .string("a"))], className: className).item
    #expect(decoded.source.archiveClassName == className)
  }

  @Test func wrongTypesAreWarningsAndTheFieldIsDropped() throws {
    let (item, diagnostics) = try decode(
      Self.base + [
        ("refreshToken", .string("r")), ("expiresOn", .string("tomorrow")), ("familyId", .integer(1)),
        ("additionalServer", .array([])), ("userInformation", .string("nope")),
      ])
    #expect(item.expiresOn == nil && item.familyID == nil && item.additionalServer.isEmpty)
    #expect(diagnostics.count == 4)
    #expect(diagnostics.allSatisfy { $0.severity == .warning && $0.location?.itemIndex == 7 })
    #expect(diagnostics.contains { $0.location?.keyPath == "root.expiresOn" && $0.message.contains("NSDate") == false })
  }

  @Test func unreadableItems() {
    #expect(throws: ADALItemError.self) { try decode([("clientId", .string("c")), ("accessToken", .string("a"))]) }
    #expect(throws: ADALItemError.self) { try decode([("authority", .integer(3)), ("clientId", .string("c"))]) }
    #expect(throws: ADALItemError.self) { try decode(Self.base) }  // no token at all
    #expect(throws: ADALItemError.self) {
      try decode(Self.base + [("accessToken", .string("a"))], className: "NSObject")
    }
    do {
      _ = try ADALArchivedItemDecoder().decode(.string("x"), source: ADALItemSource(itemIndex: 3, service: "svc"))
      Issue.record("a string root must not decode")
    } catch {
      #expect(error.location.itemIndex == 3)
      #expect(error.diagnostic.code == "adal.item-unreadable")
      #expect(error.diagnostic.message.contains("svc"))
    }
  }

  @Test func e3AdditionalServerAndUserInformation() throws {
    let ext = Date(timeIntervalSince1970: 1_600_000_000)
    let rawID = IDTokenClaimsTests.jwt(["ver": "1.0", "upn": "A@B.com", "oid": "o", "tid": "t"])
    let info = ArchiveValue.object(
      ArchivedObject(
        className: "ADUserInformation",
        fields: [
          (key: "userId", value: .string("a@b.com")), (key: "userIdDisplayable", value: .bool(true)),
          (key: "rawIdToken", value: .string(PropertyListString(rawID))),
        ], objectIndex: 2))
    let (item, diagnostics) = try decode(
      Self.base + [
        ("refreshToken", .string("r")), ("userInformation", info), ("sessionKey", .data(Data([1, 2, 3]))),
        (
          "additionalServer",
          .dictionary([
            ArchiveDictionaryEntry(key: .string("ext_expires_on"), value: .date(ext)),
            ArchiveDictionaryEntry(key: .string("Microsoft.ADAL.spe_info"), value: .string("ring")),
            ArchiveDictionaryEntry(key: .string("not_before"), value: .integer(5)),
          ])
        ),
      ])
    #expect(diagnostics.isEmpty)
    #expect(item.extendedExpiresOn == ext)
    #expect(item.speInfo == "ring")
    #expect(item.additionalServer.last == ADALValueEntry(key: "not_before", value: .integer(5)))
    #expect(item.sessionKey?.value == Data([1, 2, 3]))
    #expect(item.userID == "A@B.com")
    #expect(item.archivedUserID == "a@b.com")
    #expect(item.idTokenClaims?.oid == "o")
  }

  @Test func unparseableIdTokenIsAWarning() throws {
    let info = ArchiveValue.object(
      ArchivedObject(
        className: "ADUserInformation", fields: [(key: "rawIdToken", value: .string("%%%"))], objectIndex: 2))
    let (item, diagnostics) = try decode(Self.base + [("refreshToken", .string("r")), ("userInformation", info)])
    #expect(item.idTokenClaims == nil)
    #expect(item.idToken != nil)
    #expect(diagnostics.map(\.code) == ["adal.id-token-unreadable"])
    #expect(!diagnostics[0].message.contains("%%%"))
  }

  /// A damaged or crafted archive can point `clientId` (or another plain field) at a token's object: the item
  /// is refused, the field named and the token never quoted, where it was migrated with the token as its client.
  @Test func aTokenInAPlainFieldRefusesTheItem() throws {
    let token = "RT.a-refresh-token-value"
    let tokenValue = ArchiveValue.string(PropertyListString(token))
    let cases: [(fields: [(String, ArchiveValue)], field: String)] = [
      ([("authority", .string("https://login.microsoftonline.com/common")), ("clientId", tokenValue)], "clientId"),
      (Self.base.filter { $0.0 != "resource" } + [("resource", tokenValue)], "resource"),
    ]
    for (fields, field) in cases {
      do {
        _ = try decode(fields + [("refreshToken", tokenValue)])
        Issue.record("\(field): an item whose \(field) is its refresh token was read")
      } catch let error as ADALItemError {
        #expect(error.diagnostic.code == "adal.item-unreadable")
        #expect(error.diagnostic.message.contains("the archive's \(field) is its refresh token"), "\(error)")
        #expect(!"\(error)".contains(token) && !error.diagnostic.message.contains(token))
      }
    }
    #expect(try decode(Self.base + [("refreshToken", tokenValue)]).item.clientID == "client")
  }
}
