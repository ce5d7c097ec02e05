import Adal2MSALSupport
import Foundation
import UnifiedCache

/// Reads the ADAL.NET v3 token cache blob (`TokenCache.Serialize`, MSAL.NET `SerializeAdalV3`, Azure PowerShell's
/// `TokenCache.dat`; docs/formats.md, "ADAL.NET v3 entries") into the ADAL item model.
///
/// Bytes: .NET `BinaryWriter`, little-endian: int32 schema 3, int32 count, then per entry a key and a value string,
/// each a 7-bit varint UTF-8 byte length and the bytes. Key `authority:::resource:::clientId:::subjectType`; value
/// the `DataContractJsonSerializer` JSON of `AdalResultWrapper` (`RefreshToken`, `ResourceInResponse`,
/// `RawClientInfo`, `Result` {`AccessToken`, `ExpiresOn`, `IdToken`, `TenantId`, `UserInfo` …}).
///
/// - Subject 0 (a user) becomes an item; 1 (app-only) and 2 (on-behalf-of) are not user sign-ins of a public
///   client: a policy note `adal.dotnet-not-a-user-entry` each.
/// - `RawClientInfo` becomes `additionalServer["client_info"]` (identity rule 2 then gives `uid.utid`).
/// - Without a raw id token, `UserInfo` and `TenantId` are kept as claims, as ADAL Python's fields are.
struct ADALDotNetBlobReader {
  let limits: InputLimits
  let file: String?

  func read(_ data: Data) throws(ADALCacheError) -> ADALReadResult {
    var cursor = Cursor(bytes: [UInt8](data), file: file)
    let version = try cursor.int32("the schema version")
    guard version == 3 else { throw cursor.error("schema \(version) is not 3", at: 0) }
    let count = try cursor.int32("the entry count")
    // Each entry takes at least two bytes (two empty strings' lengths): a count the rest cannot hold is damage,
    // named here rather than as the first string the blob then lacks.
    let room = (cursor.bytes.count - cursor.offset) / 2
    guard count >= 0, count <= limits.maxObjects, count <= room else {
      let bound = min(limits.maxObjects, room)
      throw cursor.error(
        "the entry count \(count) is out of range: the \(cursor.bytes.count - cursor.offset) bytes after it hold at "
          + "most \(bound) entries", at: 4)
    }
    var result = ADALReadResult(inputKind: .adalDotNetV3)
    for index in 0..<Int(count) {
      let key = try cursor.string("the key of entry \(index)", limit: limits.maxStringBytes)
      let value = try cursor.string("the value of entry \(index)", limit: limits.maxStringBytes)
      let location = SourceLocation(file: file, itemIndex: index)
      do {
        if let item = try item(key: key, value: value, index: index, location: location) {
          result.items.append(item)
        } else {
          result.diagnostics.append(
            Diagnostic(
              .note, code: "adal.dotnet-not-a-user-entry",
              "an app-only or on-behalf-of entry (subject type not 0): not a user's sign-in, not migrated", at: location
            ))
        }
      } catch {
        result.diagnostics.append(error.diagnostic)
      }
    }
    if cursor.offset != cursor.bytes.count {
      result.diagnostics.append(
        Diagnostic(
          .warning, code: "adal.trailing-bytes",
          "\(cursor.bytes.count - cursor.offset) bytes after the last entry; ignored",
          at: SourceLocation(file: file, byteOffset: cursor.offset)))
    }
    return result
  }

  private func item(key: String, value: String, index: Int, location: SourceLocation) throws(ADALItemError)
    -> ADALTokenItem?
  {
    let parts = key.components(separatedBy: ":::")
    guard parts.count == 4 else {
      throw ADALItemError("the key does not have the four :::-separated parts", at: location)
    }
    // ADAL.NET's TokenSubjectType: 0 user, 1 client (app-only), 2 user plus client (on behalf of).
    guard ["0", "1", "2"].contains(parts[3]) else {
      throw ADALItemError(
        "the key's subject type is not one ADAL.NET writes (0, 1 or 2): a damaged or crafted key", at: location)
    }
    guard parts[3] == "0" else { return nil }
    guard ADALAuthority(parts[0]) != nil else {
      throw ADALItemError("the key's authority is not a URL with a host", at: location)
    }
    // A JSON error inside the value (a bad escape) is named with its offset in the value, never quoting it.
    let parsed: JSONValue
    do {
      parsed = try JSONParser().parse(Data(value.utf8))
    } catch {
      throw ADALItemError(
        "the value is not valid JSON: \(error.message) at offset \(error.location.byteOffset ?? 0) of the value",
        at: location)
    }
    guard let wrapper = parsed.objectValue else { throw ADALItemError("the value is not a JSON object", at: location) }
    let resultObject = wrapper["Result"]?.objectValue ?? [:]
    let userInfo = resultObject["UserInfo"]?.objectValue ?? [:]
    func string(_ object: JSONObject, _ key: String) -> String? {
      object[key]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
    }
    let accessToken = string(resultObject, "AccessToken")
    let refreshToken = string(wrapper, "RefreshToken")
    guard
      var kind = ADALTokenKind.classify(
        accessToken: accessToken, refreshToken: refreshToken, clientID: parts[2], familyID: nil)
    else { throw ADALItemError("the entry holds neither an access token nor a refresh token", at: location) }
    // A resource in the response with a refresh token: a multi-resource refresh token (AdalResultWrapper).
    if refreshToken != nil, string(wrapper, "ResourceInResponse") != nil, kind == .singleResourceRefreshAndAccess {
      kind = .multiResourceRefreshToken
    }
    let rawIDToken = string(resultObject, "IdToken")
    var claims = rawIDToken.flatMap { try? IDTokenClaims(rawIDToken: $0) }
    if claims == nil {
      var kept: [String: ADALValue] = [:]
      for (field, claim) in [
        ("UniqueId", "oid"), ("GivenName", "given_name"), ("FamilyName", "family_name"), ("IdentityProvider", "idp"),
      ] {
        if let text = string(userInfo, field) { kept[claim] = .string(text) }
      }
      if let tid = string(resultObject, "TenantId") { kept["tid"] = .string(tid) }
      // ADAL.NET filled IdentityProvider from idp, else from iss: for a member it is its tenant's issuer.
      if let issuer = string(userInfo, "IdentityProvider") { kept["iss"] = .string(issuer) }
      claims = kept.isEmpty ? nil : IDTokenClaims(keptClaims: kept)
    }
    var additional: [ADALValueEntry] = []
    if let clientInfo = string(wrapper, "RawClientInfo") {
      additional.append(ADALValueEntry(key: "client_info", value: .string(clientInfo)))
    }
    return ADALTokenItem(
      authority: parts[0], resource: parts[1].isEmpty ? nil : parts[1], clientID: parts[2],
      accessToken: accessToken.map(ADALSecret.init(hashingWhenNeeded:)),
      accessTokenType: string(resultObject, "AccessTokenType"),
      refreshToken: refreshToken.map { ADALSecret($0) }, expiresOn: Self.date(resultObject["ExpiresOn"]),
      extendedExpiresOn: Self.date(resultObject["ExtendedExpiresOn"]), idToken: rawIDToken.map { ADALSecret($0) },
      idTokenClaims: claims, archivedUserID: string(userInfo, "DisplayableId"),
      archivedUserIDDisplayable: string(userInfo, "DisplayableId") != nil ? true : nil, additionalServer: additional,
      kind: kind, source: ADALItemSource(file: file, itemIndex: index, archiveClassName: "ADAL.NET v3 entry"))
  }

  /// `{"DateTime":"/Date(<ms UTC>)/","OffsetMinutes":0}` (or the bare `/Date(…)/` string).
  static func date(_ value: JSONValue?) -> Date? {
    let text = value?.objectValue?["DateTime"]?.stringValue ?? value?.stringValue
    guard let text, let open = text.firstIndex(of: "("), let close = text.firstIndex(of: ")"), open < close else {
      return nil
    }
    // "/Date(1455218790065+0100)/": the offset is display only; the number is UTC milliseconds.
    let number = text[text.index(after: open)..<close].prefix { $0.isNumber || $0 == "-" }
    return Double(number).map { Date(timeIntervalSince1970: $0 / 1000) }
  }

  /// A position in the blob; errors name the byte offset.
  struct Cursor {
    let bytes: [UInt8]
    let file: String?
    var offset = 0

    func error(_ what: String, at position: Int? = nil) -> ADALCacheError {
      ADALCacheError("ADAL.NET v3 blob: \(what)", at: SourceLocation(file: file, byteOffset: position ?? offset))
    }

    /// A little-endian int32, `field` naming it in an error (at its offset).
    mutating func int32(_ field: String) throws(ADALCacheError) -> Int32 {
      guard offset + 4 <= bytes.count else {
        throw error("truncated: \(field) (an int32) is cut by the end of the \(bytes.count) bytes")
      }
      let value =
        UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16
        | UInt32(bytes[offset + 3]) << 24
      offset += 4
      return Int32(bitPattern: value)
    }

    /// A string: its 7-bit varint length, then its UTF-8. Errors name `field` and are at its length's offset.
    mutating func string(_ field: String, limit: Int) throws(ADALCacheError) -> String {
      let start = offset
      var length = 0
      var shift = 0
      while true {
        guard offset < bytes.count else {
          throw error("truncated: the length of \(field) is cut by the end of the \(bytes.count) bytes", at: start)
        }
        guard shift < 35 else { throw error("the length of \(field) has more than 5 bytes", at: start) }
        let byte = bytes[offset]
        offset += 1
        length |= Int(byte & 0x7F) << shift
        if byte & 0x80 == 0 { break }
        shift += 7
      }
      guard length <= limit else {
        throw error("\(field) is \(length) bytes long, more than the limit of \(limit)", at: start)
      }
      guard offset + length <= bytes.count else {
        throw error(
          "truncated: \(field) is \(length) bytes long from offset \(offset), past the end of the \(bytes.count) "
            + "bytes", at: start)
      }
      guard let text = String(bytes: bytes[offset..<offset + length], encoding: .utf8) else {
        throw error("\(field) is not UTF-8", at: start)
      }
      offset += length
      return text
    }
  }
}
