import Adal2MSALSupport
import Foundation

/// One ADAL cache item, normalized: what an `ADTokenCacheStoreItem` archive holds in any era, plus where it
/// came from.
///
/// Fields keep the archive's values (original case). The keychain attributes, which ADAL lowercased, are in
/// `source`. Secrets are `ADALSecret`s: `description` and `debugDescription` show fingerprints only.
public struct ADALTokenItem: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible {
  // `kind` and `source` come first so that the memberwise initializer, which the public one builds through, has other
  // labels (docs/benchmarks.md, "Counting calls").
  public var kind: ADALTokenKind
  /// Where it came from.
  public var source: ADALItemSource
  /// The archived `authority`, original case (`https://login.microsoftonline.com/common`).
  public var authority: String
  /// `authority`'s host (lowercased, `:port` if non-default); nil if the authority is not a URL.
  public var environment: String? { ADALAuthority(authority)?.environment }
  /// `authority`'s tenant: the first path component, or the second for `/tfp/<tenant>/…`.
  public var tenant: String? { ADALAuthority(authority)?.tenant }
  /// The archived `resource`; nil for multi-resource and family refresh tokens.
  public var resource: String?
  /// The archived `clientId`, original case (`foci-1` for family refresh tokens).
  public var clientID: String
  /// The archived `familyId` (ADAL 2.1+), e.g. `"1"`.
  public var familyID: String?
  public var accessToken: ADALSecret?
  /// The archived `accessTokenType`, normally `Bearer`.
  public var accessTokenType: String?
  public var refreshToken: ADALSecret?
  /// The archived `expiresOn` (the access token's expiry; tombstones: when the tombstone may be deleted).
  public var expiresOn: Date?
  /// The archived `cachedAt` (ADAL 2.7+).
  public var cachedAt: Date?
  /// `additionalServer["ext_expires_on"]` when it is a date (ADAL 2.2+).
  public var extendedExpiresOn: Date?
  /// `additionalServer["spe_info"]` (ADAL 2.7+) or `["Microsoft.ADAL.spe_info"]` (2.2–2.6), when a string.
  public var speInfo: String?
  /// The archived `homeAccountId` (`uid.utid`, ADAL 2.7+).
  public var homeAccountID: String?
  /// The archived `enrollmentId` (Intune, ADAL 2.7+).
  public var enrollmentID: String?
  /// The archived `applicationIdentifier` (broker, ADAL 2.7+).
  public var applicationIdentifier: String?
  /// The archived broker `sessionKey` (ADAL 2.0.3–2.6).
  public var sessionKey: ADALSecretData?
  /// `userInformation.rawIdToken`.
  public var idToken: ADALSecret?
  /// The claims of `idToken`, when it parses.
  public var idTokenClaims: IDTokenClaims?
  /// `userInformation.userId` as archived (ADAL 1.x, and 2.x on iOS).
  public var archivedUserID: String?
  /// `userInformation.userIdDisplayable` as archived.
  public var archivedUserIDDisplayable: Bool?
  /// The user id the keychain attributes give: `acct` decoded, or a macOS blob's user key. Normalized
  /// (lowercase) as ADAL wrote it; nil for "no user".
  public var keychainUserID: String?
  /// Every `additionalServer` entry as plain values (including `ext_expires_on` and SPE info).
  public var additionalServer: [ADALValueEntry]
  /// Every `additionalClient` entry as plain values.
  public var additionalClient: [ADALValueEntry]
  /// The `tombstone` dictionary of ADAL 2.1–2.5 tombstones (`bundleId`, …).
  public var tombstoneInfo: [ADALValueEntry]?

  /// The user id for display and matching, in order of trust: the id token's user id (spec §2.4), the
  /// archived `userInformation.userId`, the keychain account / blob key. Original case, trimmed.
  public var userID: String? {
    idTokenClaims?.userID ?? archivedUserID.flatMap(IDTokenClaims.nonBlank)
      ?? keychainUserID.flatMap(IDTokenClaims.nonBlank)
  }

  /// `userID` trimmed and lowercased (ADAL `normalizeUserId`): what `accountForUsername` matches on. The id
  /// token's is made once per token and shared by its items.
  public var normalizedUserID: String? { idTokenClaims?.normalizedUserID ?? userID?.lowercasedSharingStorage() }

  /// Whether `userID` is a displayable id (UPN, email, preferred_username): from the id token when there is
  /// one, else the archived flag.
  public var isUserIDDisplayable: Bool {
    if let idTokenClaims, idTokenClaims.userID != nil { return idTokenClaims.isDisplayable }
    return archivedUserIDDisplayable ?? false
  }

  /// The item's one secret credential for keying and deduplication: the refresh token if any, else the AT.
  public var secret: ADALSecret? { refreshToken ?? accessToken }

  public var description: String {
    var parts = ["\(kind)", "client=\(clientID)", "authority=\(authority)"]
    if let resource { parts.append("resource=\(resource)") }
    if let userID { parts.append("user=\(userID)") }
    if let accessToken { parts.append("at=\(accessToken.fingerprint)") }
    if let refreshToken { parts.append("rt=\(refreshToken.fingerprint)") }
    if let idToken { parts.append("id=\(idToken.fingerprint)") }
    if let expiresOn { parts.append("expires=\(ADALValue.iso8601(expiresOn))") }
    return "ADALTokenItem(" + parts.joined(separator: " ") + ")"
  }

  public var debugDescription: String {
    var text = description
    text.removeLast()
    text += " era=\(source.era.rawValue) class=\(source.archiveClassName) at \(source.location))"
    return text
  }
}

extension ADALTokenItem {
  public init(
    authority: String, resource: String? = nil, clientID: String, familyID: String? = nil,
    accessToken: ADALSecret? = nil, accessTokenType: String? = nil, refreshToken: ADALSecret? = nil,
    expiresOn: Date? = nil, cachedAt: Date? = nil, extendedExpiresOn: Date? = nil, speInfo: String? = nil,
    homeAccountID: String? = nil, enrollmentID: String? = nil, applicationIdentifier: String? = nil,
    sessionKey: ADALSecretData? = nil, idToken: ADALSecret? = nil, idTokenClaims: IDTokenClaims? = nil,
    archivedUserID: String? = nil, archivedUserIDDisplayable: Bool? = nil, keychainUserID: String? = nil,
    additionalServer: [ADALValueEntry] = [], additionalClient: [ADALValueEntry] = [],
    tombstoneInfo: [ADALValueEntry]? = nil, kind: ADALTokenKind, source: ADALItemSource
  ) {
    self.init(
      kind: kind, source: source, authority: authority, resource: resource, clientID: clientID, familyID: familyID,
      accessToken: accessToken, accessTokenType: accessTokenType, refreshToken: refreshToken, expiresOn: expiresOn,
      cachedAt: cachedAt, extendedExpiresOn: extendedExpiresOn, speInfo: speInfo, homeAccountID: homeAccountID,
      enrollmentID: enrollmentID, applicationIdentifier: applicationIdentifier, sessionKey: sessionKey,
      idToken: idToken, idTokenClaims: idTokenClaims, archivedUserID: archivedUserID,
      archivedUserIDDisplayable: archivedUserIDDisplayable, keychainUserID: keychainUserID,
      additionalServer: additionalServer, additionalClient: additionalClient, tombstoneInfo: tombstoneInfo)
  }
}
