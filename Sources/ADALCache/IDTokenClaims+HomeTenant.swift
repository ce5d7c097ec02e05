import Adal2MSALSupport
import Foundation

/// Evidence in an id token that the user's home tenant is not the tenant that issued it (a B2B guest).
///
/// The rule, from how Azure AD fills the claims (AAD id_token reference; MSAL's account model keeps the home
/// tenant in `home_account_id` = `oid.home-tid` precisely because `tid` is the *resource* tenant):
/// 1. `idp` is present and is an AAD issuer URL (`https://sts.windows.net/<tenant>/`,
///    `https://login.microsoftonline.com/<tenant>/v2.0`, sovereign equivalents) whose tenant differs from
///    `tid` → the user's home tenant is that tenant (`otherTenant`).
/// 2. `idp` is present and not an AAD issuer (`live.com`, `google.com`, a federation URL) while `tid` is not
///    the Microsoft-account tenant → an external identity (`externalIdentityProvider`); the home tenant is
///    unknown.
/// 3. The tenant in `iss` differs from `tid` → the issuer's tenant is taken as home (`issuerTenant`). AAD
///    normally issues from the resource tenant, so this is weak evidence and comes last.
/// Without any of these the user is treated as a member of `tid`.
public enum HomeTenantEvidence: Sendable, Hashable, Codable {
  case otherTenant(String)
  case externalIdentityProvider(String)
  case issuerTenant(String)

  /// The home tenant id, when the evidence names one.
  public var homeTenantID: String? {
    switch self {
    case .otherTenant(let tenant), .issuerTenant(let tenant): tenant
    case .externalIdentityProvider: nil
    }
  }
}

extension IDTokenClaims {
  /// The Microsoft-account (consumer) tenant: personal accounts' tokens carry it as `tid`.
  public static let consumerTenantID = "9188040d-6c67-4c5b-b112-36a304b66dad"

  /// The tenant id in an AAD issuer URL (the first path component, when it is a GUID); nil otherwise.
  public static func aadIssuerTenant(_ issuer: String) -> String? {
    plainIssuerTenant(issuer) ?? aadIssuerTenantParsingURL(issuer)
  }

  /// `aadIssuerTenant` of an issuer in the form every AAD issuer has, `https://` and a lowercase host name,
  /// then path segments of unreserved characters (`https://sts.windows.net/<tenant>/`); nil (not known)
  /// for any other form. Read on the bytes: `URLComponents` with its host checks was most of reading an id
  /// token's membership, for each token of a large migration.
  package static func plainIssuerTenant(_ issuer: String) -> String?? {
    var issuer = issuer
    return issuer.withUTF8 { bytes -> String?? in
      let scheme = "https://".utf8
      guard bytes.count > scheme.count, bytes.starts(with: scheme) else { return nil }
      var index = scheme.count
      var label = 0  // bytes of the host's current label
      while index < bytes.count, bytes[index] != UInt8(ascii: "/") {
        switch bytes[index] {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"): label += 1
        case UInt8(ascii: "-") where label > 0: label += 1
        case UInt8(ascii: ".") where label > 0 && bytes[index - 1] != UInt8(ascii: "-"): label = 0
        default: return nil
        }
        index += 1
      }
      guard label > 0, bytes[index - 1] != UInt8(ascii: "-"), index + 1 < bytes.count else { return nil }
      let segmentStart = index + 1
      var segmentEnd: Int?
      for position in segmentStart..<bytes.count {
        let byte = bytes[position]
        if byte == UInt8(ascii: "/") {
          segmentEnd = segmentEnd ?? position
        } else if !isUnreserved(byte) {
          return nil
        }
      }
      let end = segmentEnd ?? bytes.count
      guard end > segmentStart else { return nil }
      let segment = UnsafeBufferPointer(rebasing: bytes[segmentStart..<end])
      guard isUUIDString(unreservedBytes: segment) else { return .some(nil) }
      return .some(
        String(unsafeUninitializedCapacity: segment.count) { lowered in
          // Always whole: a GUID's bytes are ASCII (`isUUIDString`).
          _ = String.copyLowercasingASCII(segment, to: lowered.baseAddress!)
          return segment.count
        })
    }
  }

  /// Whether `UUID(uuidString:)` accepts these bytes, all of them unreserved (RFC 3986), checked by hand: on
  /// Linux it runs `sscanf`, which was a large part of planning a large migration. Its format reads sixteen
  /// `%2hhx` fields around four `-` and must end on the 36th byte, so each field is exactly two bytes: two
  /// hex digits, `-` and a hex digit (a sign), or `0x`/`0X` (a hex prefix, the value 0). Signs other than `-`
  /// and spaces before a field are accepted too, but none of them is an unreserved byte.
  package static func isUUIDString(unreservedBytes bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    guard bytes.count == 36 else { return false }
    var index = 0
    while index < 36 {
      if index == 8 || index == 13 || index == 18 || index == 23 {
        guard bytes[index] == UInt8(ascii: "-") else { return false }
        index += 1
        continue
      }
      let (first, second) = (bytes[index], bytes[index + 1])
      let isField =
        (isHexDigit(first) || first == UInt8(ascii: "-")) && isHexDigit(second)
        || (first == UInt8(ascii: "0") && (second | 0x20) == UInt8(ascii: "x"))
      guard isField else { return false }
      index += 2
    }
    return true
  }

  private static func isHexDigit(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"),
      UInt8(ascii: "A")...UInt8(ascii: "F"):
      true
    default: false
    }
  }

  /// An RFC 3986 unreserved byte: it stands for itself in a path.
  private static func isUnreserved(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
      UInt8(ascii: "~"):
      true
    default: false
    }
  }

  /// `aadIssuerTenant` of any issuer, read with `URLComponents`.
  package static func aadIssuerTenantParsingURL(_ issuer: String) -> String? {
    guard let components = URLComponents(string: issuer), components.host != nil,
      let first = components.path.split(separator: "/").first.map(String.init), UUID(uuidString: first) != nil
    else { return nil }
    return first.lowercased()
  }

  /// The tenant in `iss`, when `iss` is an AAD issuer.
  public var issuerTenantID: String? { iss.flatMap(Self.aadIssuerTenant) }

  /// Evidence that the user's home tenant differs from `tid` (see `HomeTenantEvidence` for the rule).
  public var homeTenantEvidence: HomeTenantEvidence? {
    let tenant = tid?.lowercased()
    if let idp {
      if let idpTenant = Self.aadIssuerTenant(idp) {
        if idpTenant != tenant { return .otherTenant(idpTenant) }
      } else if tenant != Self.consumerTenantID {
        return .externalIdentityProvider(idp)
      }
    }
    if let issuerTenant = issuerTenantID, let tenant, issuerTenant != tenant { return .issuerTenant(issuerTenant) }
    return nil
  }

  /// Whether the claims show a guest (home tenant evidence exists).
  public var isGuest: Bool { homeTenantEvidence != nil }

  /// The home tenant: the evidence's tenant, else `tid`.
  public var homeTenantID: String? { homeTenantEvidence.map { $0.homeTenantID } ?? tid?.lowercased() }
}
