import Foundation

/// One generated ADAL cache item: every field it was archived with and the keychain attributes around it.
/// What the reader must give back, field for field.
public struct SyntheticItem: Sendable, Hashable, CustomStringConvertible {
  public enum Kind: String, Sendable, Hashable {
    /// A multi-resource refresh token (no resource).
    case mrrt = "MRRT"
    /// A family refresh token (`foci-1`).
    case frt = "FRT"
    /// An access token for one resource.
    case accessToken = "AT"
  }

  public var kind: Kind
  public var era: SyntheticEra
  public var authority: String
  public var resource: String?
  public var clientID: String
  public var familyID: String?
  public var accessToken: String?
  public var refreshToken: String?
  public var expiresOn: Date?
  public var cachedAt: Date?
  public var extendedExpiresOn: Date?
  public var homeAccountID: String?
  public var idToken: String
  /// `userInformation.userId` as archived (lowercase, as ADAL normalized it).
  public var userID: String
  public var user: SyntheticUser
  /// The keychain attributes: `acct` (base64url of the user id), `svce`, `cdat`/`mdat`.
  public var account: String
  public var service: String
  public var created: Date

  /// The secrets are not printed (they are fake, but the habit matters).
  public var description: String {
    "SyntheticItem(\(kind.rawValue) \(era.rawValue) client=\(clientID) authority=\(authority) resource=\(resource ?? "-") user=\(userID))"
  }

  /// The archived `ADTokenCacheStoreItem`, with the coder keys of its era.
  public var archiveRoot: ArchiveNode {
    var userFields: [ArchiveField] = [
      ArchiveField("userId", .string(userID)), ArchiveField("userIdDisplayable", .bool(true)),
      ArchiveField("rawIdToken", .string(idToken)),
    ]
    if era != .e1 {
      let claims = user.claims.map { claim -> ArchiveField in
        switch claim.value {
        case .string(let text): ArchiveField(claim.key, .string(text))
        case .integer(let number): ArchiveField(claim.key, .integer(number))
        case .strings(let texts):
          ArchiveField(claim.key, .array(className: "NSArray", elements: texts.map(ArchiveNode.string)))
        }
      }
      userFields.append(ArchiveField("allClaims", .dictionary(className: "NSDictionary", entries: claims)))
    }
    var fields: [ArchiveField] = [
      ArchiveField("resource", resource.map(ArchiveNode.string) ?? .null),
      ArchiveField("authority", .string(authority)), ArchiveField("clientId", .string(clientID)),
    ]
    if era != .e1 { fields.append(ArchiveField("familyId", familyID.map(ArchiveNode.string) ?? .null)) }
    fields += [
      ArchiveField("accessToken", accessToken.map(ArchiveNode.string) ?? .null),
      ArchiveField("accessTokenType", accessToken == nil ? .null : .string("Bearer")),
      ArchiveField("refreshToken", refreshToken.map(ArchiveNode.string) ?? .null),
    ]
    if era == .e3 { fields.append(ArchiveField("sessionKey", .null)) }
    fields += [
      ArchiveField("expiresOn", expiresOn.map(ArchiveNode.date) ?? .null),
      ArchiveField("userInformation", .object(className: "ADUserInformation", fields: userFields)),
    ]
    if era != .e1 {
      var server: [ArchiveField] = []
      if let extendedExpiresOn { server.append(ArchiveField("ext_expires_on", .date(extendedExpiresOn))) }
      fields += [
        ArchiveField("additionalClient", .dictionary(className: "NSMutableDictionary", entries: [])),
        ArchiveField("additionalServer", .dictionary(className: "NSMutableDictionary", entries: server)),
      ]
    }
    if era == .e4 {
      fields += [
        ArchiveField("cachedAt", cachedAt.map(ArchiveNode.date) ?? .null),
        ArchiveField("homeAccountId", homeAccountID.map(ArchiveNode.string) ?? .null),
        ArchiveField("enrollmentId", .null), ArchiveField("applicationIdentifier", .null),
      ]
    }
    return .object(className: "ADTokenCacheStoreItem", fields: fields)
  }

  /// The keyed archive (`v_Data`).
  public var archive: [UInt8] { KeyedArchiveWriter.archive(archiveRoot) }
}
