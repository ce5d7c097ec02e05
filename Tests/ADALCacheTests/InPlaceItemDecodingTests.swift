import Adal2MSALSupport
import Adal2MSALSynthetic
import Foundation
import PropertyLists
import Testing
import _Adal2MSALTestSupport

@testable import ADALCache

/// An ADAL item decoded from its archive read in place (`BinaryKeyedArchiveReader.readInPlace`, what a dump's
/// reader takes first) is the item decoded from the archive built (`ArchiveLoader.load`): the same fields, the same
/// warnings, the same error, with and without a read's memo.
@Suite struct InPlaceItemDecodingTests {
  typealias Decoded = Result<ADALTokenItem.Decoded, ADALItemError>

  static let source = ADALItemSource(file: "dump.plist", itemIndex: 3, service: "svce", account: "acct")

  static func inPlace(_ data: Data, memo: ReadMemo?) -> Decoded? {
    var scratch = ArchiveReadScratch()
    return BinaryKeyedArchiveReader(names: ArchiveLoader.names).readInPlace(data, reusing: &scratch) { root in
      Result { () throws(ADALItemError) in
        try ADALArchivedItemDecoder(memo: memo).decode(object: root, source: source, keychainUserID: "user@contoso.com")
      }
      .map { ADALTokenItem.Decoded(item: $0.item, diagnostics: $0.diagnostics) }
    }
  }

  static func built(_ data: Data, memo: ReadMemo?) -> Decoded {
    Result { () throws(ADALItemError) in
      let archive = try ArchiveLoader(limits: .default).load(data, source: source)
      let (item, diagnostics) = try ADALArchivedItemDecoder(memo: memo).decode(
        archive.root, source: source, keychainUserID: "user@contoso.com")
      return ADALTokenItem.Decoded(item: item, diagnostics: diagnostics)
    }
  }

  /// Decodes `data` both ways; returns whether it was read in place.
  @discardableResult
  static func check(_ data: Data, _ comment: Comment) -> Bool {
    var readInPlace = false
    for memo in [nil, ReadMemo()] {
      guard let inPlace = inPlace(data, memo: memo) else { continue }
      readInPlace = true
      #expect(inPlace == built(data, memo: memo), comment)
    }
    return readInPlace
  }

  @Test(arguments: [
    "adal/archive-e1-at.bplist", "adal/archive-e1-mrrt.bplist", "adal/archive-e3-broker-session.bplist",
    "adal/archive-e3-frt.bplist", "adal/archive-e3-tombstone.bplist", "adal/archive-e4-at.bplist",
    "adal-objc/adal_v1_backcompat_item.bplist", "adal-objc/adal_keychain_hardcoded_item.bplist",
  ])
  func archivedItemsDecodeAlike(file: String) throws {
    #expect(Self.check(try Fixtures.data(file), "\(file)"))
  }

  @Test func syntheticItemsDecodeAlike() throws {
    var generator = SyntheticGenerator(seed: 15)
    for (position, item) in generator.dump(users: 30).items.enumerated() {
      #expect(Self.check(Data(item.archive), "synthetic item \(position)"))
    }
  }

  static let authority = ArchiveField("authority", .string("https://login.microsoftonline.com/common"))
  static let clientID = ArchiveField("clientId", .string("C1E8E3B2-7D4A-4F5E-9B6C-0A1B2C3D4E5F"))
  static let refreshToken = ArchiveField("refreshToken", .string("RT.value"))

  static func item(_ fields: [ArchiveField], className: String = "ADTokenCacheStoreItem") -> Data {
    Data(KeyedArchiveWriter.archive(.object(className: className, fields: fields)))
  }

  /// An item's fields under a name, for `fieldsOfEveryShapeDecodeAlike`.
  struct Shape {
    var name: String
    var fields: [ArchiveField]
    var className = "ADTokenCacheStoreItem"

    init(_ name: String, _ fields: [ArchiveField], className: String = "ADTokenCacheStoreItem") {
      self.name = name
      self.fields = fields
      self.className = className
    }
  }

  /// A string archived as an instance of a string class the archive does not make a string (a subclass of
  /// `NSString`) is read as its `NS.string`, both ways; an instance of another class is not a string. The two
  /// readers share this rule (`ArchivedItemValue.itemText`), so comparing them cannot catch it being lost.
  @Test func stringObjectsOfOtherClassesAreReadAsTheirText() throws {
    let data = Self.item([
      Self.authority, Self.clientID,
      ArchiveField(
        "refreshToken", .object(className: "MyLocalizedString", fields: [ArchiveField("NS.string", .string("RT"))])),
      ArchiveField("resource", .object(className: "MyResource", fields: [ArchiveField("NS.string", .string("R"))])),
    ])
    for memo in [nil, ReadMemo()] {
      let built = try Self.built(data, memo: memo).get()
      let inPlace = try #require(Self.inPlace(data, memo: memo)).get()
      for decoded in [built, inPlace] {
        #expect(decoded.item.refreshToken == ADALSecret("RT"))
        #expect(decoded.item.resource == nil)
        #expect(decoded.diagnostics.map(\.message) == ["resource is a MyResource, expected a string; ignored"])
      }
    }
  }

  /// Fields of the wrong type (warnings), values of every kind in the dictionaries, strings as string objects of
  /// other classes, user information of every shape, and items that cannot be read (errors).
  @Test func fieldsOfEveryShapeDecodeAlike() throws {
    let server = ArchiveNode.dictionary(
      className: "NSMutableDictionary",
      entries: [
        ArchiveField("ext_expires_on", .date(Date(timeIntervalSince1970: 1_800_000_000))),
        ArchiveField("spe_info", .string("I")), ArchiveField("count", .integer(3)), ArchiveField("flag", .bool(false)),
        ArchiveField("bytes", .data([1, 2])),
        ArchiveField("list", .array(className: "NSArray", elements: [.string("a"), .integer(2)])),
        ArchiveField(
          "nested", .dictionary(className: "NSDictionary", entries: [ArchiveField("inner", .string("value"))])),
        ArchiveField(
          "url", .object(className: "NSURL", fields: [ArchiveField("NS.relative", .string("https://contoso.com/x"))])),
      ])
    let claims = ArchiveNode.dictionary(className: "NSDictionary", entries: [ArchiveField("upn", .string("a@b.c"))])
    let userInformation = ArchiveNode.object(
      className: "ADUserInformation",
      fields: [
        ArchiveField(
          "userId", .object(className: "NSMutableString", fields: [ArchiveField("NS.string", .string("A@B.C"))])),
        ArchiveField("userIdDisplayable", .integer(1)), ArchiveField("rawIdToken", .string("not.a.jwt")),
        ArchiveField("allClaims", claims),
      ])
    let base = [Self.authority, Self.clientID, Self.refreshToken]
    let shapes = [
      Shape(
        "every kind",
        base + [
          ArchiveField("additionalServer", server), ArchiveField("userInformation", userInformation),
          ArchiveField("sessionKey", .data([9, 9])),
          ArchiveField("expiresOn", .date(Date(timeIntervalSince1970: 1_700_000_000))),
          ArchiveField(
            "tombstone", .dictionary(className: "NSDictionary", entries: [ArchiveField("bundleId", .string("b"))])),
          ArchiveField("cachedAt", .integer(5)), ArchiveField("familyId", .null),
        ]),
      Shape(
        "wrong types",
        base + [
          ArchiveField("resource", .integer(4)), ArchiveField("expiresOn", .string("tomorrow")),
          ArchiveField("accessToken", .bool(true)), ArchiveField("additionalServer", .string("x")),
          ArchiveField("sessionKey", .string("k")),
          ArchiveField("additionalClient", .array(className: "NSArray", elements: [])),
          ArchiveField("accessTokenType", .date(Date(timeIntervalSince1970: 0))),
        ]),
      Shape(
        "ext_expires_on not a date",
        base + [
          ArchiveField(
            "additionalServer",
            .dictionary(className: "NSDictionary", entries: [ArchiveField("ext_expires_on", .string("soon"))]))
        ]),
      Shape(
        "a string object of another class",
        [
          Self.authority, Self.clientID,
          ArchiveField(
            "refreshToken",
            .object(className: "MyLocalizedString", fields: [ArchiveField("NS.string", .string("RT"))])),
        ]),
      Shape(
        "user information of another class",
        base + [
          ArchiveField("userInformation", .object(className: "Other", fields: [ArchiveField("userId", .string("u"))]))
        ]),
      Shape("user information a string", base + [ArchiveField("userInformation", .string("u"))]),
      Shape("user information null", base + [ArchiveField("userInformation", .null)]),
      Shape(
        "an empty id token",
        base + [
          ArchiveField(
            "userInformation",
            .object(className: "ADUserInformation", fields: [ArchiveField("rawIdToken", .string(""))]))
        ]),
      Shape("no authority", [ArchiveField("authority", .integer(1)), Self.clientID, Self.refreshToken]),
      Shape("a blank client id", [Self.authority, ArchiveField("clientId", .string("  ")), Self.refreshToken]),
      Shape("no token", [Self.authority, Self.clientID]),
      Shape("another root class", base, className: "NSObject"),
      Shape("an item class of ADAL 4", base, className: "ADALTokenCacheItem"),
    ]
    for shape in shapes {
      #expect(Self.check(Self.item(shape.fields, className: shape.className), "\(shape.name)"), "read in place")
    }
  }

  /// Seeded byte mutations of an item: decoded alike wherever it is read in place.
  @Test func mutatedItemsDecodeAlike() throws {
    let original = try Fixtures.data("adal/archive-e3-broker-session.bplist")
    var read = 0
    for (position, mutated) in seededMutations(of: original, count: 800, seed: 0x9E37_79B9_7F4A_7C15).enumerated() {
      if Self.check(mutated, "mutation \(position)") { read += 1 }
    }
    #expect(read > 0)
  }
}

extension ADALTokenItem {
  /// An item and its warnings, comparable.
  struct Decoded: Hashable {
    var item: ADALTokenItem
    var diagnostics: [Diagnostic]
  }
}
