import Foundation

/// The ADAL storage era a synthetic user's items are written in.
public enum SyntheticEra: String, Sendable, Hashable, CaseIterable {
  /// ADAL 1.x / 2.0: no `familyId`, no `additionalServer`, no `homeAccountId`.
  case e1 = "E1"
  /// ADAL 2.1 – 2.6: `familyId`, `additionalServer`, no `homeAccountId`.
  case e3 = "E3"
  /// ADAL 2.7+: `cachedAt`, `homeAccountId`.
  case e4 = "E4"
}

/// A JWT claim value (the id token's claims are also archived in `userInformation.allClaims`).
public enum SyntheticClaim: Sendable, Hashable {
  case string(String)
  case integer(Int64)
  case strings([String])
}

/// One user of a device: identity, era and id token.
public struct SyntheticUser: Sendable, Hashable {
  public var tenant: SyntheticTenant
  public var objectID: String
  /// The sign-in name (UPN or preferred_username), original case.
  public var username: String
  public var era: SyntheticEra
  /// v2 claims (`preferred_username`, `ver` 2.0) instead of v1 (`upn`, `unique_name`).
  public var claimsVersion2: Bool
  /// The client id of the app that cached the tokens.
  public var clientID: String
  /// `uid.utid` for E4 users.
  public var homeAccountID: String?
  /// The id token's claims, in the order they are serialized.
  public var claims: [(key: String, value: SyntheticClaim)]
  /// The id token: base64url header, payload and a 256-byte signature.
  public var idToken: String
  /// When the user signed in (seconds since 1970, whole seconds).
  public var signedIn: Int64

  public static func == (lhs: SyntheticUser, rhs: SyntheticUser) -> Bool { lhs.idToken == rhs.idToken }
  public func hash(into hasher: inout Hasher) { hasher.combine(idToken) }

  static let givenNames = [
    "Alex", "Bea", "Chen", "Dana", "Émile", "Farah", "Goran", "Hana", "Ivo", "Jun", "Kofi", "Lena",
  ]
  static let familyNames = ["Ito", "Novak", "Okafor", "Silva", "Müller", "Kim", "Haddad", "Larsen", "Wei", "Patel"]

  /// A user of `tenants` numbered `number` (unique within a dump set).
  static func make(number: Int, tenants: [SyntheticTenant], now: Int64, random: inout SyntheticRandom) -> SyntheticUser
  {
    let roll = random.below(100)
    let tenant = tenants[roll < 80 ? random.below(6) : roll < 90 ? 6 + random.below(2) : 8 + random.below(2)]
    let given = givenNames[random.below(givenNames.count)]
    let family = familyNames[random.below(familyNames.count)]
    let ascii = "\(given.prefix(1))\(family)".folding(options: .diacriticInsensitive, locale: nil)
    let username = "\(ascii)\(number)@\(tenant.domain)"
    let eraRoll = random.below(100)
    let era: SyntheticEra = eraRoll < 15 ? .e1 : eraRoll < 55 ? .e3 : .e4
    let version2 = era != .e1 && random.chance(30)
    let objectID = random.guid()
    let clientID = SyntheticApps.clientIDs[random.below(SyntheticApps.clientIDs.count)]
    let signedIn = now - Int64(random.within(60...(90 * 86_400)))
    var claims: [(key: String, value: SyntheticClaim)] = [("aud", .string(clientID.lowercased()))]
    let issuer =
      version2
      ? "https://\(tenant.cloud.loginHosts[0])/\(tenant.id)/v2.0" : "https://\(tenant.cloud.issuerHost)/\(tenant.id)/"
    claims += [
      ("iss", .string(issuer)), ("iat", .integer(signedIn)), ("nbf", .integer(signedIn)),
      ("exp", .integer(signedIn + 3600)),
    ]
    if !version2 { claims.append(("amr", .strings(["pwd", "mfa"]))) }
    claims += [
      ("family_name", .string(family)), ("given_name", .string(given)), ("name", .string("\(given) \(family)")),
    ]
    claims.append(("oid", .string(objectID)))
    if version2 { claims.append(("preferred_username", .string(username))) }
    claims += [
      ("sub", .string(SyntheticText.base64URL(random.bytes(32)))), ("tid", .string(tenant.id)),
    ]
    if !version2 { claims += [("unique_name", .string(username)), ("upn", .string(username))] }
    claims += [("uti", .string(SyntheticText.base64URL(random.bytes(16)))), ("ver", .string(version2 ? "2.0" : "1.0"))]
    let idToken = SyntheticJWT.token(header: SyntheticJWT.idTokenHeader, claims: claims, random: &random)
    return SyntheticUser(
      tenant: tenant, objectID: objectID, username: username, era: era, claimsVersion2: version2, clientID: clientID,
      homeAccountID: era == .e4 ? "\(objectID).\(tenant.id)" : nil, claims: claims, idToken: idToken, signedIn: signedIn
    )
  }
}

/// Builds JWTs: base64url of the header JSON, of the claims JSON, and of a random 256-byte "RS256" signature.
public enum SyntheticJWT {
  static let idTokenHeader = #"{"typ":"JWT","alg":"RS256","kid":"nOo3ZDrODXEK1jKWhXslHR_KXEg"}"#
  static let accessTokenHeader =
    #"{"typ":"JWT","alg":"RS256","x5t":"nOo3ZDrODXEK1jKWhXslHR_KXEg","kid":"nOo3ZDrODXEK1jKWhXslHR_KXEg"}"#

  static func token(header: String, claims: [(key: String, value: SyntheticClaim)], random: inout SyntheticRandom)
    -> String
  {
    SyntheticText.base64URL(header) + "." + SyntheticText.base64URL(json(claims)) + "."
      + SyntheticText.base64URL(random.bytes(256))
  }

  /// The claims as compact JSON, keys in the given order.
  public static func json(_ claims: [(key: String, value: SyntheticClaim)]) -> String {
    var text = "{"
    for (index, claim) in claims.enumerated() {
      if index > 0 { text += "," }
      text += SyntheticJSON.quoted(claim.key) + ":"
      switch claim.value {
      case .string(let value): text += SyntheticJSON.quoted(value)
      case .integer(let value): text += String(value)
      case .strings(let values): text += "[" + values.map(SyntheticJSON.quoted).joined(separator: ",") + "]"
      }
    }
    return text + "}"
  }
}

/// JSON string quoting for the generator (RFC 8259: quote, backslash and control characters escaped).
public enum SyntheticJSON {
  public static func quoted(_ text: String) -> String {
    var bytes: [UInt8] = []
    appendQuoted(text, to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  public static func appendQuoted(_ text: String, to output: inout [UInt8]) {
    output.append(UInt8(ascii: "\""))
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "\""): output.append(contentsOf: [0x5C, 0x22])
      case UInt8(ascii: "\\"): output.append(contentsOf: [0x5C, 0x5C])
      case 0..<0x20:
        output.append(contentsOf: Array("\\u00".utf8))
        output.append(contentsOf: Array(SyntheticText.hex(UInt64(byte), digits: 2).utf8))
      default: output.append(byte)
      }
    }
    output.append(UInt8(ascii: "\""))
  }
}
