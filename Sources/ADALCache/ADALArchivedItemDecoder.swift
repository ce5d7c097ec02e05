import Adal2MSALSupport
import Foundation
import PropertyLists

/// Decodes an archived ADAL cache item (`ADTokenCacheStoreItem` and its aliases) of any era into an
/// `ADALTokenItem`.
///
/// A field of the wrong type is a warning and the field is dropped; an item without an authority, a client
/// id or any token is unreadable (`ADALItemError`). The decoder never throws anything else.
public struct ADALArchivedItemDecoder: Sendable {
  /// Root class names accepted as a cache item: the on-disk name of every era, plus the in-memory names of
  /// ADAL 2.1 betas (`ADTokenCacheItem`), ADAL 4.x (`ADALTokenCacheItem`) and IdentityCore.
  public static let itemClassNames: Set<String> = [
    "ADTokenCacheStoreItem", "ADTokenCacheItem", "ADALTokenCacheItem", "MSIDLegacyTokenCacheItem",
  ]
  /// `userInformation` class names (on disk `ADUserInformation`; the others defensively).
  public static let userInformationClassNames: Set<String> = [
    "ADUserInformation", "ADALUserInformation", "MSIDUserInformation",
  ]

  /// What the decoder (and the wipe-marker reader) never reads of an archive: `userInformation.allClaims`, the
  /// id token's claims again (they are read from `rawIdToken`) and most of an item's objects. The binary reader
  /// leaves it unbuilt (`BinaryKeyedArchiveReader.read(_:pruning:)`).
  static let unreadFields = (field: "userInformation", keys: ["allClaims"])

  static let e3Keys = ["familyId", "sessionKey", "tombstone", "additionalClient", "additionalServer"]
  static let e4Keys = ["cachedAt", "homeAccountId", "enrollmentId", "applicationIdentifier"]

  /// What this read has seen already (see `ReadMemo`); nil shares nothing and parses every id token.
  let memo: ReadMemo?

  public init() { memo = nil }

  init(memo: ReadMemo?) { self.memo = memo }

  /// Decodes one item.
  /// - Parameters:
  ///   - root: the archive's root value.
  ///   - source: where it came from; `era` and `archiveClassName` are filled in here.
  ///   - keychainUserID: the user id the keychain attributes give (decoded `acct`, blob user key).
  /// - Returns: the item and warnings about fields that were dropped.
  public func decode(
    _ root: ArchiveValue, source: consuming ADALItemSource, keychainUserID: String? = nil
  ) throws(ADALItemError) -> (item: ADALTokenItem, diagnostics: [Diagnostic]) {
    guard case .object(let object) = root else {
      throw ADALItemError(
        "the archive's root is \(Wording.indefinite(root.kindName)), not an ADAL cache item", source: source)
    }
    return try decode(object: object, source: source, keychainUserID: keychainUserID)
  }

  /// `decode(_:source:keychainUserID:)` of a root object, built (`ArchivedObject`) or read in place
  /// (`InPlaceObject`).
  func decode<Object: ArchivedItemObject>(
    object: Object, source: consuming ADALItemSource, keychainUserID: String?
  ) throws(ADALItemError) -> (item: ADALTokenItem, diagnostics: [Diagnostic]) {
    guard Self.itemClassNames.contains(object.className) else {
      throw ADALItemError("the archive's root class is \(object.className), not an ADAL cache item", source: source)
    }
    // Given, not lent: the item takes it as it is (a copy was a retain of each of its strings).
    source.archiveClassName = memo?.shared(object.className) ?? object.className
    source.era =
      Self.e4Keys.contains { object[$0] != nil } ? .e4 : Self.e3Keys.contains { object[$0] != nil } ? .e3 : .e1
    var fields = FieldReader(object: object, location: source.location, path: "root", memo: memo)

    let authority = try fields.requiredString("authority", source: source)
    let clientID = try fields.requiredString("clientId", source: source)
    // Not in the string table: an access token is one per item (sharing it would only cost a hash), and a
    // refresh token is shared as a secret, with its fingerprint (`ReadMemo.secret(_:)`).
    let accessToken = fields.string("accessToken", shared: false)
    let refreshSecret = fields.text("refreshToken").map { memo?.secret($0) ?? ADALSecret($0.value) }
    let refreshToken = refreshSecret?.value
    let familyID = fields.string("familyId")
    guard
      let kind = ADALTokenKind.classify(
        accessToken: accessToken, refreshToken: refreshToken, clientID: clientID, familyID: familyID)
    else {
      throw ADALItemError("the item holds neither an access token nor a refresh token", source: source)
    }

    let additionalServer = fields.dictionary("additionalServer") ?? []
    var extendedExpiresOn: Date?
    if let ext = additionalServer.first(where: { $0.key == "ext_expires_on" })?.value {
      if let date = ext.dateValue {
        extendedExpiresOn = date
      } else if ext != .null {
        fields.warn("additionalServer.ext_expires_on", "is not a date")
      }
    }
    let speInfo = additionalServer.first { $0.key == "spe_info" || $0.key == "Microsoft.ADAL.spe_info" }?.value
      .stringValue

    var user = UserInformation()
    if let info = object["userInformation"] { user = decodeUserInformation(info, fields: &fields) }

    let item = ADALTokenItem(
      authority: authority, resource: fields.string("resource"), clientID: clientID, familyID: familyID,
      accessToken: accessToken.map(ADALSecret.init(hashingWhenNeeded:)),
      accessTokenType: fields.string("accessTokenType"),
      refreshToken: refreshSecret, expiresOn: fields.date("expiresOn"),
      cachedAt: fields.date("cachedAt"), extendedExpiresOn: extendedExpiresOn, speInfo: speInfo,
      homeAccountID: fields.string("homeAccountId"), enrollmentID: fields.string("enrollmentId"),
      applicationIdentifier: fields.string("applicationIdentifier"),
      sessionKey: fields.data("sessionKey").map(ADALSecretData.init), idToken: user.idToken,
      idTokenClaims: user.claims, archivedUserID: user.userID, archivedUserIDDisplayable: user.displayable,
      keychainUserID: keychainUserID, additionalServer: additionalServer,
      additionalClient: fields.dictionary("additionalClient") ?? [], tombstoneInfo: fields.dictionary("tombstone"),
      kind: kind, source: source)
    try Self.refuseTokenInPlainField(item)
    return (item, fields.diagnostics)
  }

  /// Refuses an item whose plain field holds one of its tokens: a damaged archive (one changed byte of its offset
  /// table) or a crafted one can point `clientId` or another field at a token's object, and a plain field is
  /// printed in reports and stored unsealed, as a client id in keys. The field is named, never its value.
  private static func refuseTokenInPlainField(_ item: ADALTokenItem) throws(ADALItemError) {
    for (token, name) in [
      (item.refreshToken?.value, "refresh token"), (item.accessToken?.value, "access token"),
      (item.idToken?.value, "id token"),
    ] {
      guard let token, let field = plainField(of: item, holding: token) else { continue }
      throw ADALItemError(
        "the archive's \(field) is its \(name) (a damaged or crafted archive); the item is not read, so that the "
          + "token is never shown or stored as \(Wording.indefinite(field))",
        source: item.source)
    }
  }

  /// The first plain field of `item` whose value is `token` (one comparison each, no array: every item is checked).
  private static func plainField(of item: ADALTokenItem, holding token: String) -> String? {
    if item.clientID == token { return "clientId" }
    if item.authority == token { return "authority" }
    if item.resource == token { return "resource" }
    if item.familyID == token { return "familyId" }
    if item.accessTokenType == token { return "accessTokenType" }
    if item.homeAccountID == token { return "homeAccountId" }
    if item.enrollmentID == token { return "enrollmentId" }
    if item.applicationIdentifier == token { return "applicationIdentifier" }
    if item.archivedUserID == token { return "userInformation.userId" }
    return nil
  }

  private struct UserInformation {
    var userID: String?
    var displayable: Bool?
    /// `rawIdToken`, shared with the read's other items that hold it (see `ReadMemo`).
    var idToken: ADALSecret?
    var claims: IDTokenClaims?
  }

  private func decodeUserInformation<Object: ArchivedItemObject>(
    _ value: Object.Value, fields: inout FieldReader<Object>
  ) -> UserInformation {
    if value.isNull { return UserInformation() }
    guard let info = value.objectValue, Self.userInformationClassNames.contains(info.className) else {
      fields.warn("userInformation", "is \(Wording.indefinite(value.kindName)), not ADUserInformation")
      return UserInformation()
    }
    var inner = FieldReader(object: info, location: fields.location, path: "userInformation", memo: memo)
    var result = UserInformation()
    result.userID = inner.string("userId")
    result.displayable = inner.bool("userIdDisplayable")
    // Looked up as archived: most items repeat another item's id token (`ReadMemo.claims(for:)`).
    let raw = inner.text("rawIdToken")
    if let raw, !raw.isEmpty {
      let parsed: Result<IDTokenClaims, IDTokenClaimsError>
      if let memo {
        (result.idToken, parsed) = memo.claims(for: raw)
      } else {
        let text = raw.value
        result.idToken = ADALSecret(text)
        parsed = Result { () throws(IDTokenClaimsError) in try IDTokenClaims(rawIDToken: text) }
      }
      switch parsed {
      case .success(let claims): result.claims = claims
      case .failure(let error):
        inner.warn("rawIdToken", "cannot be parsed: \(error)", code: "adal.id-token-unreadable")
      }
    } else if let raw {
      result.idToken = ADALSecret(raw.value)  // empty: kept as archived, with nothing to parse
    }
    fields.diagnostics += inner.diagnostics
    return result
  }
}

/// Typed access to an archived object's coder keys; a key of the wrong type becomes a warning.
struct FieldReader<Object: ArchivedItemObject> {
  let object: Object
  let location: SourceLocation
  let path: String
  let memo: ReadMemo?
  var diagnostics: [Diagnostic] = []

  init(object: Object, location: SourceLocation, path: String, memo: ReadMemo? = nil) {
    self.object = object
    self.location = location
    self.path = path
    self.memo = memo
  }

  mutating func warn(_ key: String, _ problem: String, code: String = "adal.field-type") {
    var place = location
    place.keyPath = "\(path).\(key)"
    diagnostics.append(Diagnostic(.warning, code: code, "\(key) \(problem); ignored", at: place))
  }

  private mutating func typed<T>(_ key: String, _ expected: String, _ convert: (Object.Value) -> T?) -> T? {
    guard let value = object[key], !value.isNull else { return nil }
    if let converted = convert(value) { return converted }
    warn(key, typeProblem(value, expected))
    return nil
  }

  private func typeProblem(_ value: Object.Value, _ expected: String) -> String {
    "is \(Wording.indefinite(value.kindName)), expected \(expected)"
  }

  /// A string field the item cannot be read without: one of another type makes the item unreadable, named at its
  /// key path as `adal.field-type` names a field it drops; an absent or blank one, as missing.
  mutating func requiredString(_ key: String, source: borrowing ADALItemSource) throws(ADALItemError) -> String {
    if let value = object[key], !value.isNull, value.itemText == nil {
      var place = location
      place.keyPath = "\(path).\(key)"
      throw ADALItemError(
        "\(key) \(typeProblem(value, "a string")): the item cannot be read without it", at: place,
        service: source.service)
    }
    guard let text = string(key), !text.trimmedWhitespace().isEmpty else {
      throw ADALItemError("the item has no \(key)", at: location, service: source.service)
    }
    return text
  }

  /// A string field; `shared` (for values many items repeat: authorities, client ids, users) stores equal
  /// values of this read once.
  mutating func string(_ key: String, shared: Bool = true) -> String? {
    guard shared, let memo else { return text(key)?.value }
    return text(key).map(memo.shared)
  }
  /// A string field as archived, not decoded (see `PropertyListString`), for what is looked up before it is
  /// decoded.
  mutating func text(_ key: String) -> PropertyListString? { typed(key, "a string") { $0.itemText } }
  mutating func date(_ key: String) -> Date? { typed(key, "a date") { $0.dateValue } }
  mutating func data(_ key: String) -> Data? { typed(key, "data") { $0.dataValue } }
  mutating func bool(_ key: String) -> Bool? { typed(key, "a boolean") { $0.boolValue } }
  mutating func dictionary(_ key: String) -> [ADALValueEntry]? {
    typed(key, "a dictionary") { $0.dictionaryEntries.map { ADALArchiveValues.plainEntries($0) } }
  }
}

/// An archived object as the item decoder reads it: built (`ArchivedObject`) or read in place (`InPlaceObject`).
protocol ArchivedItemObject {
  associatedtype Value: ArchivedItemValue where Value.Object == Self
  var className: String { get }
  /// The value of a coder key; nil when the key is absent.
  subscript(key: String) -> Value? { get }
}

/// A coder key's value as the item decoder reads it: `ArchiveValue`'s accessors.
protocol ArchivedItemValue {
  associatedtype Object: ArchivedItemObject where Object.Value == Self
  var isNull: Bool { get }
  /// The class name for objects, or the Foundation class family for values (for messages).
  var kindName: String { get }
  /// The value's text when it is a string (not decoded).
  var plainText: PropertyListString? { get }
  var dateValue: Date? { get }
  var dataValue: Data? { get }
  var boolValue: Bool? { get }
  var objectValue: Object? { get }
  var dictionaryEntries: [ArchiveDictionaryEntry]? { get }
}

extension ArchivedItemValue {
  /// A string, or defensively the `NS.string` of an instance of a string class (`NSString`, `NSMutableString`)
  /// the archive does not make a string: not decoded.
  var itemText: PropertyListString? {
    if let plainText { return plainText }
    guard let object = objectValue, object.className.hasSuffix("String") else { return nil }
    return object["NS.string"]?.plainText
  }
}

extension ArchivedObject: ArchivedItemObject {}

extension ArchiveValue: ArchivedItemValue {
  var plainText: PropertyListString? {
    guard case .string(let text) = self else { return nil }
    return text
  }
}

extension InPlaceObject: ArchivedItemObject {}

extension InPlaceValue: ArchivedItemValue {
  var plainText: PropertyListString? { text }

  var dictionaryEntries: [ArchiveDictionaryEntry]? { isDictionary ? archiveValue.dictionaryEntries : nil }
}
