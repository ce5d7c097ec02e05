import ADALCache
import Adal2MSALSupport
import Foundation

/// What an id token says about the user's relation to the token's tenant (`tid`), read offline.
///
/// Guest evidence is `IDTokenClaims.homeTenantEvidence` (a foreign `idp`, an issuer of another tenant) plus
/// the optional `acct` claim 1 and the guest user-name forms `#EXT#` / `live.com#`. A member needs positive
/// evidence on top: the issuer (`iss`) is an AAD issuer of `tid` itself. AAD emits `idp` only when the
/// identity provider differs from the issuer ("guests, for instance"), so such a token was issued to a user
/// of its own tenant. Anything less is "unknown", and unknown is not guessed. See docs/mapping.md.
enum TenantMembership: Sendable, Equatable {
  case member(oid: String, tid: String)
  case guest(String)
  case unknown(String)

  init(_ claims: IDTokenClaims) {
    guard let oid = claims.oid, let tid = claims.tid?.lowercasedSharingStorage() else {
      self = .unknown("the id token has no oid and tid claims: the home tenant is unknown offline")
      return
    }
    switch claims.homeTenantEvidence {
    case .otherTenant(let home)?:
      self = .guest("a guest in tenant \(tid) (idp names home tenant \(home)); its object id there is unknown offline")
      return
    case .externalIdentityProvider(let idp)?:
      self = .guest("a guest in tenant \(tid) from identity provider \(idp): the home account is unknown offline")
      return
    case .issuerTenant(let issuer)?:
      self = .guest("the issuer's tenant \(issuer) is not tid \(tid): the home account is unknown offline")
      return
    case nil: break
    }
    if let acct = claims["acct"], acct.integerValue == 1 || acct.stringValue == "1" {
      self = .guest("the id token's acct claim says guest in tenant \(tid): the home account is unknown offline")
      return
    }
    for name in [claims.upn, claims.preferredUsername, claims.uniqueName].compactMap({ $0 }) {
      if Self.hasGuestForm(name) {
        self = .guest("the user name has a guest form (#EXT# or live.com#) in tenant \(tid)")
        return
      }
    }
    guard claims.issuerTenantID == tid else {
      self = .unknown("the id token's issuer does not name tenant \(tid): membership not shown, not guessed")
      return
    }
    self = .member(oid: oid.lowercasedSharingStorage(), tid: tid)
  }

  /// Whether a user name has a guest form, `#EXT#` or a `live.com#` prefix in any case. A name without a `#`
  /// (nearly all) has neither, and is neither lowercased nor searched: no lowercase mapping makes a `#`.
  static func hasGuestForm(_ name: String) -> Bool {
    guard name.utf8.contains(UInt8(ascii: "#")) else { return false }
    let lower = name.lowercased()
    return lower.contains("#ext#") || lower.hasPrefix("live.com#")
  }
}
