/// What an ADAL cache item holds, following CORE's credential-type rules
/// (`MSIDCredentialTypeHelpers credentialTypeWithRefreshToken:accessToken:`) and ADAL's FRT naming.
///
/// - `refreshToken == "<tombstone>"` → `tombstone` (ADAL 2.1–2.5 sign-out markers; the engine skips them).
/// - a refresh token and a client id `foci-<id>` → `familyRefreshToken(<id>)`.
/// - a refresh token and an access token → `singleResourceRefreshAndAccess` (ADFS-style items, and ADAL
///   1.x items that kept both).
/// - a refresh token only → `multiResourceRefreshToken` (normally with resource nil).
/// - an access token only → `accessToken`.
///
/// An item with neither token is not an item: the reader reports it and skips it.
public enum ADALTokenKind: Sendable, Hashable, Codable, CustomStringConvertible {
  case accessToken
  case multiResourceRefreshToken
  /// A family refresh token; the associated value is the family id (`familyId`, else the `foci-` suffix).
  case familyRefreshToken(familyID: String)
  case singleResourceRefreshAndAccess
  case tombstone

  /// The tombstone marker ADAL 2.1–2.5 stored as the refresh token of signed-out items.
  public static let tombstoneMarker = "<tombstone>"

  /// Short names as ADAL's logs use them: `AT`, `MRRT`, `FRT`, `RT+AT`, `tombstone`.
  public var description: String {
    switch self {
    case .accessToken: "AT"
    case .multiResourceRefreshToken: "MRRT"
    case .familyRefreshToken(let familyID): "FRT(\(familyID))"
    case .singleResourceRefreshAndAccess: "RT+AT"
    case .tombstone: "tombstone"
    }
  }

  /// Whether the item carries a usable refresh token (MRRT, FRT or RT+AT).
  public var hasRefreshToken: Bool {
    switch self {
    case .multiResourceRefreshToken, .familyRefreshToken, .singleResourceRefreshAndAccess: true
    case .accessToken, .tombstone: false
    }
  }

  /// Classifies an item from its tokens and client id; nil when it holds neither token.
  public static func classify(
    accessToken: String?, refreshToken: String?, clientID: String, familyID: String?
  ) -> ADALTokenKind? {
    let hasAT = !(accessToken ?? "").isEmpty
    let hasRT = !(refreshToken ?? "").isEmpty
    if refreshToken == tombstoneMarker { return .tombstone }
    // Lowercased only when there is a refresh token (a family refresh token needs one): a copy per item.
    if hasRT, clientID.lowercased().hasPrefix("foci-") {
      let suffix = String(clientID.dropFirst("foci-".count))
      let family = familyID.flatMap { $0.isEmpty ? nil : $0 } ?? (suffix.isEmpty ? "1" : suffix)
      return .familyRefreshToken(familyID: family)
    }
    switch (hasRT, hasAT) {
    case (true, true): return .singleResourceRefreshAndAccess
    case (true, false): return .multiResourceRefreshToken
    case (false, true): return .accessToken
    case (false, false): return nil
    }
  }
}
