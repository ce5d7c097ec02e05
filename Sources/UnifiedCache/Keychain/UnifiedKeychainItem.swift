import Adal2MSALSupport
import Foundation

/// One MSAL ObjC keychain item (a `kSecClassGenericPassword` item of the unified layout): the attributes
/// that locate it and the JSON payload (`v_Data`) that holds the entity. See spec section 4.
public struct UnifiedKeychainItem: Sendable, Hashable, CustomStringConvertible {
  /// `kSecAttrAccount` (`acct`): `<home_account_id>-<environment>` for accounts and credentials, the
  /// environment for app metadata.
  public var account: String
  /// `kSecAttrService` (`svce`): realm (accounts), `<credential_id>-<target>…` (credentials),
  /// `appmetadata-<client_id>` (app metadata).
  public var service: String
  /// `kSecAttrGeneric` (`gena`).
  public var generic: Data?
  /// `kSecAttrType` (`type`): 1000+account type, 2000+credential type, 3001 app metadata.
  public var type: Int
  /// `kSecValueData` (`v_Data`): the entity's UTF-8 JSON. Holds secrets: never printed.
  public var payload: Data
  /// `kSecAttrAccessGroup` (`agrp`), e.g. `<TEAMID>.com.microsoft.adalcache`.
  public var accessGroup: String?
  /// Where the item was found (dump file, item index).
  public var location: SourceLocation

  public init(
    account: String, service: String, generic: Data? = nil, type: Int, payload: Data, accessGroup: String? = nil,
    location: SourceLocation = SourceLocation()
  ) {
    self.account = account
    self.service = service
    self.generic = generic
    self.type = type
    self.payload = payload
    self.accessGroup = accessGroup
    self.location = location
  }

  public var description: String {
    "UnifiedKeychainItem(type: \(type), account: \(account), service: \(service), payload: \(payload.count) bytes "
      + "\(SecretFingerprint.of(payload)), at: \(location))"
  }
}

/// The `kSecAttrType` values of MSAL ObjC items (`MSIDAccountType` + 1000, `MSIDCredentialType` + 2000, 3001).
public enum UnifiedKeychainItemType: Int, Sendable, Hashable, CaseIterable {
  case accountOther = 1000
  case accountAADV1 = 1001
  case accountMSA = 1002
  case accountMSSTS = 1003
  case accountADFS = 1004
  case accessToken = 2001
  case refreshToken = 2002
  case idToken = 2003
  case legacySingleResourceToken = 2004
  case primaryRefreshToken = 2005
  case v1IdToken = 2006
  case accessTokenWithAuthScheme = 2007
  case familyRefreshToken = 2008
  case boundRefreshToken = 2009
  case appMetadata = 3001

  /// The unified-cache entity kind this item type becomes, nil for types outside the unified cache.
  public var entityKind: UnifiedEntityKind? {
    switch self {
    case .accountAADV1, .accountMSA, .accountMSSTS, .accountADFS: .account
    case .accessToken, .accessTokenWithAuthScheme: .accessToken
    case .refreshToken, .familyRefreshToken: .refreshToken
    case .idToken: .idToken
    case .appMetadata: .appMetadata
    case .accountOther, .legacySingleResourceToken, .primaryRefreshToken, .v1IdToken, .boundRefreshToken: nil
    }
  }

  /// The `authority_type` string of an account type.
  var authorityType: String? {
    switch self {
    case .accountAADV1: "AAD"
    case .accountMSA: "MSA"
    case .accountMSSTS: "MSSTS"
    case .accountADFS: "ADFS"
    default: nil
    }
  }
}
