import Adal2MSALSupport
import Foundation
import UnifiedCache

/// Reads ADAL Python / Azure CLI `accessTokens.json` and ADAL Node caches: a JSON array of flat token-response
/// entries (`_authority`, `_clientId`, `resource`, `accessToken`, `refreshToken`, `expiresOn`, `isMRRT`, `userId`,
/// `oid`, `tenantId`, …; docs/formats.md, "ADAL Python / Azure CLI and ADAL Node entries") into the ADAL item
/// model, so that the engine plans them like keychain items.
///
/// - One item per entry: an MRRT entry (`isMRRT`) is a multi-resource refresh token that also carries the
///   access token of its `resource`; an entry with both tokens otherwise is a single-resource RT+AT.
/// - Identity: ADAL kept some id-token claims as fields (never the token). They are rebuilt as claims (see
///   `keptClaims`), overlaid by the access token's own claims when it is a JWT.
/// - Expiry: the access token's `exp` when it is a JWT (UTC, exact); else `expiresOn`, which ADAL Python wrote in
///   the writer's local time without an offset (read in `InputLimits.localTimeZone`), ADAL Node as ISO-8601 UTC,
///   or an integer epoch (the server's `expires_on` when `expires_in` was missing).
/// - Service-principal entries (`servicePrincipalId`) hold a client secret or a certificate path: they are never
///   items; each is a policy diagnostic naming the principal, never the secret.
/// - An app's own token (ADAL's client-credentials and client-certificate flows: no `userId`, `oid` or refresh
///   token, and no user's claims in the access token) is no user's sign-in: a policy diagnostic, never an item, as
///   ADAL.NET's app-only entries are (`adal.app-only-entry`).
struct ADALPythonCacheReader {
  let limits: InputLimits
  let file: String?
  /// `.adalPythonAccessTokens` or `.adalNode`, as `InputFormatSniffer` recognised the array.
  let format: UnsupportedFormat

  /// The fields this reader interprets; any other field is named (never shown) in a note.
  static let knownFields: Set<String> = [
    "_authority", "_clientId", "resource", "isMRRT", "accessToken", "tokenType", "refreshToken", "expiresIn",
    "expiresOn", "createdOn", "userId", "isUserIdDisplayable", "tenantId", "givenName", "familyName",
    "identityProvider", "oid",
  ]

  func read(_ entries: [JSONValue]) -> ADALReadResult {
    let kind: ADALInputKind = format == .adalNode ? .adalNode : .adalPythonAccessTokens
    var result = ADALReadResult(inputKind: kind)
    for (index, element) in entries.enumerated() {
      let location = SourceLocation(file: file, itemIndex: index, keyPath: "[\(index)]")
      guard let entry = element.objectValue else {
        result.diagnostics.append(ADALItemError("the entry is not a JSON object", at: location).diagnostic)
        continue
      }
      if entry["servicePrincipalId"] != nil {
        result.diagnostics.append(servicePrincipal(entry, at: location))
        continue
      }
      if let appOnly = appOnly(entry, at: location) {
        result.diagnostics.append(appOnly)
        continue
      }
      do {
        let (item, diagnostics) = try self.item(entry, index: index, location: location)
        result.items.append(item)
        result.diagnostics += diagnostics
      } catch {
        result.diagnostics.append(error.diagnostic)
      }
    }
    return result
  }

  /// A service principal's credential: named by id and tenant, the secret never read into a string we keep.
  private func servicePrincipal(_ entry: JSONObject, at location: SourceLocation) -> Diagnostic {
    let id = entry["servicePrincipalId"]?.stringValue ?? "?"
    let tenant = entry["servicePrincipalTenant"]?.stringValue.map { " in tenant \($0)" } ?? ""
    let credential = entry["certificateFile"] != nil ? "a certificate" : "a client secret"
    return Diagnostic(
      .note, code: "adal.service-principal-entry",
      "service principal \(id)\(tenant) (\(credential)): an app credential, not a user token; never written to the "
        + "user token cache", at: location)
  }

  /// The claims of an access token that is a JWT (three parts; an unsigned one has an empty third), which carries
  /// the exact expiry and its subject's claims; nil for an opaque token.
  static func claims(ofJWT token: String) -> IDTokenClaims? {
    token.split(separator: ".", omittingEmptySubsequences: false).count == 3
      ? try? IDTokenClaims(rawIDToken: token) : nil
  }

  /// The code of an app's own token (`appOnly`).
  static let appOnlyCode = "adal.app-only-entry"

  /// A note for an app's own token, or nil for a user's entry. ADAL fills `userId` and `oid` from the id token and
  /// stores the refresh token of every user flow; the client-credentials flow returns neither, and its access
  /// token, when a JWT, holds the app's roles (`idtyp` `app`), no user's `scp`, `upn` or `unique_name`.
  private func appOnly(_ entry: JSONObject, at location: SourceLocation) -> Diagnostic? {
    func present(_ key: String) -> Bool { entry[key]?.stringValue.map { !$0.isEmpty } ?? (entry[key] != nil) }
    guard !present("userId"), !present("oid"), !present("refreshToken"), !present("tenantId"),
      let accessToken = entry["accessToken"]?.stringValue, !accessToken.isEmpty
    else { return nil }
    if let claims = Self.claims(ofJWT: accessToken),
      ["scp", "upn", "unique_name"].contains(where: { claims[$0] != nil })
    {
      return nil
    }
    let client = entry["_clientId"]?.stringValue ?? "?"
    let resource = entry["resource"]?.stringValue.map { " for \($0)" } ?? ""
    return Diagnostic(
      .note, code: Self.appOnlyCode,
      "an access token of app \(client)\(resource) without a user or a refresh token (ADAL's client-credentials "
        + "flow): the app's own token, no user's sign-in; never written to the user token cache", at: location)
  }

  private func item(_ entry: JSONObject, index: Int, location: SourceLocation) throws(ADALItemError) -> (
    ADALTokenItem, [Diagnostic]
  ) {
    func string(_ key: String) -> String? { entry[key]?.stringValue.flatMap { $0.isEmpty ? nil : $0 } }
    guard let authority = string("_authority") else {
      throw ADALItemError(
        "the entry has no _authority (the metadata ADAL adds when it caches): the cloud and tenant it was issued "
          + "in are unknown", at: location)
    }
    guard ADALAuthority(authority) != nil else {
      throw ADALItemError("the entry's _authority is not a URL with a host", at: location)
    }
    guard let clientID = string("_clientId") else {
      throw ADALItemError("the entry has no _clientId: the app its tokens belong to is unknown", at: location)
    }
    let accessToken = string("accessToken")
    let refreshToken = string("refreshToken")
    guard
      var kind = ADALTokenKind.classify(
        accessToken: accessToken, refreshToken: refreshToken, clientID: clientID, familyID: nil)
    else { throw ADALItemError("the entry holds neither an access token nor a refresh token", at: location) }
    if kind == .singleResourceRefreshAndAccess, entry["isMRRT"]?.adalFlag == true { kind = .multiResourceRefreshToken }

    var diagnostics: [Diagnostic] = []
    let accessClaims = accessToken.flatMap(Self.claims(ofJWT:))
    var expiresOn = accessClaims?["exp"]?.integerValue.map { Date(timeIntervalSince1970: TimeInterval($0)) }
    if expiresOn == nil, let value = entry["expiresOn"] {
      expiresOn = LegacyDate.parse(value, localTimeZone: limits.localTimeZone)
      if expiresOn == nil {
        diagnostics.append(
          Diagnostic(
            .warning, code: "adal.expiry-unreadable",
            "expiresOn is not a date adal2msal reads (naive local, ISO-8601 or epoch seconds); the access token has no expiry",
            at: location))
      }
    }
    // ADAL Node wrote createdOn from seconds read as milliseconds (a 1970 date): no date before 2001 is kept.
    let cachedAt = entry["createdOn"].flatMap { LegacyDate.parse($0, localTimeZone: limits.localTimeZone) }
      .flatMap { $0 > Date(timeIntervalSince1970: 978_307_200) ? $0 : nil }
    let unknown = entry.keys.filter { !Self.knownFields.contains($0) }.sorted()
    if !unknown.isEmpty {
      diagnostics.append(
        Diagnostic(
          .note, code: "adal.unknown-fields", "fields adal2msal does not use: \(unknown.joined(separator: ", "))",
          at: location))
    }
    var additional: [ADALValueEntry] = []
    if let expiresIn = entry["expiresIn"] {
      additional.append(ADALValueEntry(key: "expires_in", value: ADALValue(json: expiresIn)))
    }
    let item = ADALTokenItem(
      authority: authority, resource: string("resource"), clientID: clientID,
      accessToken: accessToken.map(ADALSecret.init(hashingWhenNeeded:)), accessTokenType: string("tokenType"),
      refreshToken: refreshToken.map { ADALSecret($0) }, expiresOn: expiresOn, cachedAt: cachedAt,
      idTokenClaims: keptClaims(entry, authority: authority, accessClaims: accessClaims),
      archivedUserID: string("userId"), archivedUserIDDisplayable: entry["isUserIdDisplayable"]?.adalFlag,
      additionalServer: additional, kind: kind,
      source: ADALItemSource(
        file: file, itemIndex: index, archiveClassName: format == .adalNode ? "ADAL Node entry" : "ADAL Python entry"))
    return (item, diagnostics)
  }

  /// The id-token claims ADAL kept as fields, as claims: `oid`, `tenantId` → `tid`, `identityProvider` → `idp`,
  /// `givenName`/`familyName`, and `userId` as `upn` when ADAL marked it displayable (it came from `upn` or
  /// `email`). `tid` falls back to the access token's `tid`, then to a GUID tenant in `_authority` (Azure CLI
  /// deletes `tenantId`; the entry was issued by that tenant). `iss` is the authority's issuer for `tid`: a v1
  /// id token is issued by its own tenant, and ADAL dropped `iss` but kept `idp`, so a token without `idp` was
  /// a member's (docs/mapping.md). The access token's own claims, when it is a JWT, win over all of these.
  private func keptClaims(_ entry: JSONObject, authority: String, accessClaims: IDTokenClaims?) -> IDTokenClaims? {
    var claims: [String: ADALValue] = [:]
    func keep(_ field: String, as claim: String) {
      if let value = entry[field]?.stringValue, !value.isEmpty { claims[claim] = .string(value) }
    }
    keep("oid", as: "oid")
    keep("tenantId", as: "tid")
    keep("identityProvider", as: "idp")
    keep("givenName", as: "given_name")
    keep("familyName", as: "family_name")
    if entry["isUserIdDisplayable"]?.adalFlag == true { keep("userId", as: "upn") }
    let parsed = ADALAuthority(authority)
    let authorityTenant = parsed?.tenant.flatMap { UUID(uuidString: $0) != nil ? $0.lowercased() : nil }
    if claims["tid"] == nil, let tid = accessClaims?.tid ?? authorityTenant { claims["tid"] = .string(tid) }
    if let tid = claims["tid"]?.stringValue, let host = parsed?.environment {
      claims["iss"] = .string("https://\(host)/\(tid)/")
    }
    for entry in accessClaims?.claims ?? [] { claims[entry.key] = entry.value }
    return claims.isEmpty ? nil : IDTokenClaims(keptClaims: claims)
  }
}

/// The date forms of ADAL Python and Node caches.
enum LegacyDate {
  /// Python `str(datetime)` (`2017-04-03 10:36:27.808196`, naive local time), ISO-8601 with an offset or `Z`
  /// (ADAL Node), or epoch seconds as a number or a string of digits. Flags are no dates, nor are the numbers 0
  /// and 1, which a reader cannot tell from flags (`JSONValue.adalFlag`).
  static func parse(_ value: JSONValue, localTimeZone: TimeZone) -> Date? {
    if case .number(let number) = value, value.adalFlag == nil, let seconds = Double(number) {
      return Date(timeIntervalSince1970: seconds)
    }
    guard let text = value.stringValue?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
    if text.allSatisfy(\.isNumber), let seconds = Double(text) { return Date(timeIntervalSince1970: seconds) }
    if text.contains("T") { return iso8601(text) }
    return naiveLocal(text, in: localTimeZone)
  }

  private static func iso8601(_ text: String) -> Date? {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    if let date = formatter.date(from: text) { return date }
    formatter.formatOptions = [.withInternetDateTime]
    return formatter.date(from: text)
  }

  /// `YYYY-MM-DD HH:MM:SS[.ffffff]` in `zone`. In a repeated hour (the end of summer time) the first occurrence is
  /// taken, as Python's `datetime` does with `fold=0`.
  static func naiveLocal(_ text: String, in zone: TimeZone) -> Date? {
    let parts = text.split(separator: " ")
    guard parts.count == 2 else { return nil }
    let day = parts[0].split(separator: "-").compactMap { Int($0) }
    let timeAndFraction = parts[1].split(separator: ".", maxSplits: 1)
    let time = timeAndFraction[0].split(separator: ":").compactMap { Int($0) }
    guard day.count == 3, time.count == 3 else { return nil }
    var fraction = 0.0
    if timeAndFraction.count == 2 {
      guard let value = Double("0." + timeAndFraction[1]) else { return nil }
      fraction = value
    }
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = zone
    let components = DateComponents(
      year: day[0], month: day[1], day: day[2], hour: time[0], minute: time[1], second: time[2])
    guard (1...12).contains(day[1]), (1...31).contains(day[2]), (0...23).contains(time[0]), (0...59).contains(time[1]),
      (0...60).contains(time[2]), let date = calendar.date(from: components)
    else { return nil }
    return date.addingTimeInterval(fraction)
  }
}
