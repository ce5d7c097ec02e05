import ADALCache
import Foundation

/// What an id token says about the user's relation to the token's tenant (`tid`), read offline.
///
/// Only positive evidence makes a member: AAD emits `idp` only when the identity provider differs from the
/// issuer ("guests, for instance"), so a token whose issuer names `tid`, with no foreign `idp`, no `acct`
/// claim of 1 and no `#EXT#` / `live.com#` user name, is the user's home tenant. See docs/mapping.md.
enum TenantMembership: Sendable, Equatable {
  case member(oid: String, tid: String)
  case guest(String)
  case unknown(String)

  init(_ claims: IDTokenClaims) {
    guard let oid = claims.oid, let tid = claims.tid else {
      self = .unknown("the id token has no oid and tid claims")
      return
    }
    let lowerTid = tid.lowercased()
    if let acct = claims["acct"], acct.integerValue == 1 || acct.stringValue == "1" {
      self = .guest("the id token's acct claim is 1 (guest) in tenant \(tid)")
      return
    }
    if let idp = claims.idp, idp.lowercased() != claims.iss?.lowercased(), !idp.lowercased().contains(lowerTid) {
      self = .guest("the id token's idp (\(idp)) is not tenant \(tid): a guest, home tenant unknown offline")
      return
    }
    for name in [claims.upn, claims.preferredUsername, claims.uniqueName].compactMap({ $0 }) {
      let lower = name.lowercased()
      if lower.contains("#ext#") || lower.hasPrefix("live.com#") {
        self = .guest("the user name has a guest form (#EXT# / live.com#) in tenant \(tid)")
        return
      }
    }
    guard let iss = claims.iss, iss.lowercased().contains(lowerTid) else {
      self = .unknown("the id token's issuer does not name tenant \(tid): home tenant not shown")
      return
    }
    self = .member(oid: oid.lowercased(), tid: lowerTid)
  }
}
