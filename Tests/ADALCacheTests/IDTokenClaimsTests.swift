import ADALCache
import Adal2MSALSupport
import Foundation
import Testing
import _Adal2MSALTestSupport

/// id_token claims: parsing (CORE `MSIDIdTokenClaims`) and the user id rules (spec §2.4).
@Suite("id token claims")
struct IDTokenClaimsTests {
  static func segment(_ object: [String: Any]) -> String {
    // Foundation's JSON writer: independent of the reader under test.
    Base64URL.encode((try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data())
  }

  static func jwt(_ claims: [String: Any]) -> String {
    segment(["typ": "JWT", "alg": "none"]) + "." + segment(claims) + "." + Base64URL.encode("not-json-signature")
  }

  func claims(_ payload: [String: Any]) throws -> IDTokenClaims { try IDTokenClaims(rawIDToken: Self.jwt(payload)) }

  @Test func threePartTokenMergesHeaderAndPayload() throws {
    let parsed = try claims(["sub": "s", "ver": "2.0"])
    #expect(parsed.isJWT)
    #expect(parsed.segmentCount == 3)
    #expect(parsed["typ"] == .string("JWT"))
    #expect(parsed["alg"] == .string("none"))
    #expect(parsed.sub == "s")
  }

  /// Claims are looked up by binary search in the sorted claims: every key is found, the first and the last
  /// included, and keys before, between and after them are not.
  @Test func everyClaimIsFoundByName() throws {
    var payload: [String: Any] = [:]
    for (index, key) in ["aa", "b", "ba", "c", "name", "oid", "sub", "tid", "ver", "zz", "é"].enumerated() {
      payload[key] = "value \(index)"
    }
    let parsed = try claims(payload)
    for entry in parsed.claims {
      #expect(parsed[entry.key] == entry.value)
      #expect(parsed.string(entry.key) == entry.value.stringValue)
    }
    #expect(parsed.claims.count == payload.count + 2)  // and the header's typ and alg
    for absent in ["", "a", "ab", "bb", "d", "typ0", "z", "zzz", "ë", "\u{10FFFF}"] {
      #expect(parsed[absent] == nil, "\(absent)")
    }
    // String equality is canonical equivalence: an `é` spelled as `e` and a combining accent names the claim.
    #expect(parsed.string("e\u{301}") == "value 10")
  }

  /// The claims kept found (`oid`, `tid`…) give what `string(_:)` gives of their names: trimmed, blank as absent.
  @Test func namedClaimsAreTheirStrings() throws {
    let names = ["oid", "tid", "sub", "idp", "iss", "ver", "upn", "email", "preferred_username", "unique_name"]
    var payload: [String: Any] = [:]
    for (index, name) in names.enumerated() { payload[name] = index == 7 ? " \n" : " value \(index)\t" }
    let parsed = try claims(payload)
    let read: [String?] = [
      parsed.oid, parsed.tid, parsed.sub, parsed.idp, parsed.iss, parsed.ver, parsed.upn, parsed.email,
      parsed.preferredUsername, parsed.uniqueName,
    ]
    for (index, name) in names.enumerated() {
      #expect(read[index] == parsed.string(name), "\(name)")
      #expect(read[index] == (index == 7 ? nil : "value \(index)"), "\(name)")
    }
    let none = try claims(["name": "n"])
    #expect(none.oid == nil && none.upn == nil && none.preferredUsername == nil)
  }

  @Test func bareSinglePayloadIsAccepted() throws {
    let parsed = try IDTokenClaims(rawIDToken: Self.segment(["upn": "u@x.com"]))
    #expect(!parsed.isJWT)
    #expect(parsed.segmentCount == 1)
    #expect(parsed.userID == "u@x.com")
  }

  @Test func v1Order() throws {
    let all: [String: Any] = [
      "ver": "1.0", "upn": "Upn@X.com", "email": "e@x.com", "sub": "sub", "oid": "oid", "unique_name": "un@x.com",
      "altsecid": "alt",
    ]
    let order: [(drop: String?, claim: String, value: String, displayable: Bool)] = [
      (nil, "upn", "Upn@X.com", true), ("upn", "email", "e@x.com", true), ("email", "sub", "sub", false),
      ("sub", "oid", "oid", false), ("oid", "unique_name", "un@x.com", true), ("unique_name", "altsecid", "alt", false),
    ]
    var payload = all
    for step in order {
      if let drop = step.drop { payload[drop] = nil }
      let parsed = try claims(payload)
      #expect(parsed.flavor == .v1)
      #expect(parsed.userIDClaim == step.claim)
      #expect(parsed.userID == step.value)
      #expect(parsed.isDisplayable == step.displayable)
    }
  }

  @Test func blankClaimsAreSkippedAndValuesTrimmed() throws {
    let parsed = try claims(["ver": "1.0", "upn": "   ", "email": "  Mixed@Case.COM \n", "sub": "s"])
    #expect(parsed.userID == "Mixed@Case.COM")
    #expect(parsed.normalizedUserID == "mixed@case.com")
    #expect(parsed.userIDClaim == "email")
  }

  @Test func v2UsesPreferredUsernameElseSub() throws {
    let named = try claims(["ver": "2.0", "preferred_username": "Bob@F.com", "upn": "ignored@f.com", "sub": "s"])
    #expect(named.flavor == .v2)
    #expect(named.userID == "Bob@F.com")
    #expect(named.isDisplayable)
    let unnamed = try claims(["ver": "2.0", "upn": "ignored@f.com", "sub": "s"])
    #expect(unnamed.userID == "s")
    #expect(!unnamed.isDisplayable)
  }

  @Test func noVersionDecidesByUpnOrUniqueName() throws {
    let v1 = try claims(["unique_name": "u@x.com", "sub": "s"])
    #expect(v1.flavor == .v1)
    #expect(v1.userID == "s")  // v1 order puts sub before unique_name
    let base = try claims(["preferred_username": "p@x.com", "sub": "s"])
    #expect(base.flavor == .unversioned)
    #expect(base.userID == "s")
    #expect(!base.isDisplayable)
  }

  @Test func uniqueIDIsOidElseSub() throws {
    #expect(try claims(["oid": "OID-1", "sub": "s"]).uniqueID == "oid-1")
    #expect(try claims(["sub": "Sub-1"]).uniqueID == "sub-1")
  }

  @Test func guestEvidence() throws {
    let home = "f645ad92-e38d-4d1a-b510-d1b09a74a8ca"
    let resource = "72f988bf-86f1-41af-91ab-2d7cd011db47"
    let member = try claims(["tid": resource, "iss": "https://sts.windows.net/\(resource)/"])
    #expect(member.homeTenantEvidence == nil)
    #expect(!member.isGuest)
    #expect(member.homeTenantID == resource)
    let guest = try claims([
      "tid": resource, "iss": "https://sts.windows.net/\(resource)/", "idp": "https://sts.windows.net/\(home)/",
    ])
    #expect(guest.homeTenantEvidence == .otherTenant(home))
    #expect(guest.homeTenantID == home)
    let msaGuest = try claims(["tid": resource, "idp": "live.com"])
    #expect(msaGuest.homeTenantEvidence == .externalIdentityProvider("live.com"))
    #expect(msaGuest.homeTenantID == nil)
    let personal = try claims(["tid": IDTokenClaims.consumerTenantID, "idp": "live.com"])
    #expect(personal.homeTenantEvidence == nil)
    let v2Issuer = try claims(["tid": resource, "iss": "https://login.microsoftonline.com/\(home)/v2.0"])
    #expect(v2Issuer.homeTenantEvidence == .issuerTenant(home))
    let sameIdp = try claims(["tid": resource, "idp": "https://sts.windows.net/\(resource.uppercased())/"])
    #expect(sameIdp.homeTenantEvidence == nil)
  }

  /// Issuers in AAD's own form are read on their bytes, and every issuer gives what `URLComponents` reads
  /// (the oracle), whichever way it is read.
  @Test func issuerTenantAsURLComponentsReadsIt() {
    let tenant = "F645AD92-e38d-4d1a-b510-d1b09a74a8ca"
    let plain = [
      "https://sts.windows.net/\(tenant)/", "https://login.microsoftonline.com/\(tenant)/v2.0",
      "https://login.chinacloudapi.cn/\(tenant)", "https://a-b.c9/\(tenant)/x_y~z/", "https://sts.windows.net/common/",
      "https://sts.windows.net/\(tenant)x/", "https://h/./\(tenant)", "https://h/../x",
    ]
    for issuer in plain {
      #expect(IDTokenClaims.plainIssuerTenant(issuer) != nil, "\(issuer)")
      #expect(IDTokenClaims.aadIssuerTenant(issuer) == IDTokenClaims.aadIssuerTenantParsingURL(issuer), "\(issuer)")
    }
    #expect(IDTokenClaims.aadIssuerTenant(plain[0]) == tenant.lowercased())
    let others = [
      "", "https://", "https://h", "https://h/", "https://h//\(tenant)", "http://h/\(tenant)", "HTTPS://h/\(tenant)",
      "https://H/\(tenant)", "https://h./\(tenant)", "https://.h/\(tenant)", "https://h-/\(tenant)",
      "https://-h/\(tenant)", "https://a..b/\(tenant)", "https://h:443/\(tenant)", "https://u@h/\(tenant)",
      "https://h/\(tenant)?x=1", "https://h/\(tenant)#f", "https://h/%41\(tenant)", "https://h/\(tenant) ",
      "https://xn--bcher-kva.example/\(tenant)", "https://bücher.example/\(tenant)", "urn:\(tenant)", tenant,
    ]
    for issuer in others {
      #expect(IDTokenClaims.aadIssuerTenant(issuer) == IDTokenClaims.aadIssuerTenantParsingURL(issuer), "\(issuer)")
    }
    // Seeded issuers of the bytes either side of each class the byte reader tells apart.
    let alphabet = "ahz09-._~/:?#%@AZ[ ü".map(String.init) + [tenant]
    var random = SeededGenerator(seed: 23)
    for _ in 0..<3_000 {
      let tail = (0..<Int.random(in: 0..<12, using: &random)).map { _ in alphabet.randomElement(using: &random)! }
        .joined()
      let issuer = "https://" + tail
      #expect(IDTokenClaims.aadIssuerTenant(issuer) == IDTokenClaims.aadIssuerTenantParsingURL(issuer), "\(issuer)")
    }
  }

  /// The hand check of a tenant's GUID shape accepts exactly what `UUID(uuidString:)` accepts (the oracle) of
  /// unreserved bytes, its `sscanf` quirks too: every two-byte field of every byte pair from either side of each
  /// class, each separator replaced, other lengths, and seeded GUID-like strings.
  @Test func uuidShapeAsUUIDReadsIt() {
    let guid = Array("0123abcd-4567-89AB-cdef-0123456789ab".utf8)
    let alphabet = Array("09afAFgGzZxX-._~".utf8)
    var candidates: [[UInt8]] = [guid, Array(guid.dropLast()), guid + [UInt8(ascii: "a")]]
    for field in Self.guidFieldStarts {
      for first in alphabet {
        for second in alphabet {
          var candidate = guid
          (candidate[field], candidate[field + 1]) = (first, second)
          candidates.append(candidate)
        }
      }
    }
    for separator in [8, 13, 18, 23] {
      for byte in alphabet {
        var candidate = guid
        candidate[separator] = byte
        candidates.append(candidate)
      }
    }
    var random = SeededGenerator(seed: 20)
    for _ in 0..<3_000 {
      candidates.append(
        guid.map { byte in Int.random(in: 0..<6, using: &random) == 0 ? alphabet.randomElement(using: &random)! : byte }
      )
    }
    var accepted = 0
    for candidate in candidates {
      let text = String(decoding: candidate, as: UTF8.self)
      let found = candidate.withUnsafeBufferPointer { IDTokenClaims.isUUIDString(unreservedBytes: $0) }
      accepted += found ? 1 : 0
      #expect(found == Self.hasGUIDFields(candidate), "\(text)")
      // The oracle where the hand check replaced it: Linux's `UUID(uuidString:)` (`sscanf`). Darwin's scanner
      // may read a `0x` field otherwise, so there the written rule above is the reference.
      #if os(Linux)
        #expect(found == (UUID(uuidString: text) != nil), "\(text)")
      #endif
    }
    #expect(accepted > 500)  // both answers are reached
    let quirky = "https://sts.windows.net/0x23ab-d-4567-89AB-cdef-0X23456789ab/"
    #if os(Linux)
      #expect(IDTokenClaims.aadIssuerTenant(quirky) == IDTokenClaims.aadIssuerTenantParsingURL(quirky))
    #endif
    #expect(IDTokenClaims.aadIssuerTenant(quirky) == "0x23ab-d-4567-89ab-cdef-0x23456789ab")
  }

  /// The rule the hand check follows, written as a list of what each byte pair may be: 36 bytes, `-` at 8, 13,
  /// 18 and 23, and each of the sixteen two-byte fields two hex digits, `-` and a hex digit, or `0x` / `0X`.
  private static func hasGUIDFields(_ bytes: [UInt8]) -> Bool {
    let hex = Set("0123456789abcdefABCDEF".utf8)
    let separators = [8, 13, 18, 23]
    guard bytes.count == 36, separators.allSatisfy({ bytes[$0] == UInt8(ascii: "-") }) else { return false }
    return guidFieldStarts.allSatisfy { start in
      let pair = (bytes[start], bytes[start + 1])
      return hex.contains(pair.1) && (hex.contains(pair.0) || pair.0 == UInt8(ascii: "-"))
        || pair.0 == UInt8(ascii: "0") && (pair.1 == UInt8(ascii: "x") || pair.1 == UInt8(ascii: "X"))
    }
  }

  /// Where the sixteen two-byte fields of a GUID's text start.
  private static let guidFieldStarts = [0, 2, 4, 6, 9, 11, 14, 16, 19, 21, 24, 26, 28, 30, 32, 34]

  /// Parts merge in order, a later member replacing an equal key's value: the payload's over the header's, a
  /// later member of one part over an earlier one, and every part of a token that is not three parts long.
  @Test func laterMembersWin() throws {
    let header = Base64URL.encode(#"{"typ":"JWT","sub":"header","alg":"none"}"#)
    let payload = Base64URL.encode(#"{"sub":"first","ver":"2.0","sub":"payload"}"#)
    let jwt = try IDTokenClaims(rawIDToken: header + "." + payload + ".c2ln")
    #expect(jwt.sub == "payload")
    #expect(jwt.claims.map(\.key) == ["alg", "sub", "typ", "ver"])
    let fourParts = try IDTokenClaims(
      rawIDToken: header + "." + payload + "." + Base64URL.encode(#"{"sub":"third"}"#) + ".")
    #expect(!fourParts.isJWT && fourParts.segmentCount == 4)
    #expect(fourParts.sub == "third")
    let twoParts = try IDTokenClaims(rawIDToken: payload + "." + header)
    #expect(twoParts.segmentCount == 2 && twoParts.sub == "header")
  }

  /// Empty parts are skipped (a token of only empty parts holds no claims), and the signature of a three-part
  /// token is not read; a part's error names its index among the parts.
  @Test func emptyPartsAndSegments() throws {
    let payload = Base64URL.encode(#"{"sub":"s"}"#)
    let tokens = ["." + payload + ".", "." + payload + ".@@@", payload + "..", ".." + payload + "."]
    for (index, token) in tokens.enumerated() {
      let parsed = try IDTokenClaims(rawIDToken: token)
      #expect(parsed.sub == "s", "token \(index)")  // tokens are not shown, even made-up ones
      #expect(parsed.segmentCount == token.filter { $0 == "." }.count + 1)
    }
    #expect(throws: IDTokenClaimsError.empty) { try IDTokenClaims(rawIDToken: "") }
    #expect(throws: IDTokenClaimsError.empty) { try IDTokenClaims(rawIDToken: "...") }
    #expect(throws: IDTokenClaimsError.empty) { try IDTokenClaims(rawIDToken: Base64URL.encode("{}") + "..") }
    #expect(throws: IDTokenClaimsError.notBase64URL(segment: 3)) { try IDTokenClaims(rawIDToken: "...@@@") }
    #expect(throws: IDTokenClaimsError.notJSONObject(segment: 2)) {
      try IDTokenClaims(rawIDToken: payload + ".." + Base64URL.encode("[]") + ".")
    }
  }

  /// A token that is not ASCII is split on characters, where a `.` followed by a combining mark is one character
  /// and no separator: such a token is one part, and the error is the whole token's.
  @Test func nonASCIITokensSplitOnCharacters() {
    let payload = Base64URL.encode(#"{"sub":"s"}"#)
    #expect(throws: IDTokenClaimsError.notBase64URL(segment: 0)) { try IDTokenClaims(rawIDToken: payload + ".\u{301}") }
    #expect(throws: IDTokenClaimsError.notBase64URL(segment: 1)) { try IDTokenClaims(rawIDToken: payload + ".é") }
  }

  /// `merged` gives what a dictionary merge sorted by key gives (the oracle): of equal keys the first one's key
  /// (its own bytes, of canonically equivalent spellings) and the last one's value, for seeded member lists
  /// full of repeated keys.
  @Test func mergedIsADictionaryMerge() {
    let keys = ["a", "b", "sub", "oid", "e\u{301}", "\u{E9}", "", "zz", "preferred_username"]
    var random = SeededGenerator(seed: 22)
    for _ in 0..<500 {
      // Values that own storage (strings past the inline length) as well as numbers: the merge moves them.
      let members = (0..<Int.random(in: 0..<24, using: &random)).map { index in
        ADALValueEntry(
          key: keys.randomElement(using: &random)!,
          value: index.isMultiple(of: 2)
            ? .integer(Int64(index)) : .string("value \(index) " + String(repeating: "x", count: 24)))
      }
      var dictionary: [String: ADALValue] = [:]
      for member in members { dictionary[member.key] = member.value }
      let expected = dictionary.sorted { $0.key < $1.key }
      let merged = IDTokenClaims.merged(members)
      #expect(merged.map(\.value) == expected.map(\.value))
      #expect(merged.map { Array($0.key.utf8) } == expected.map { Array($0.key.utf8) })
    }
  }

  @Test func malformedTokensThrowWithoutTheToken() {
    #expect(throws: IDTokenClaimsError.notBase64URL(segment: 1)) { try IDTokenClaims(rawIDToken: "eyJhIjoxfQ.@@@.sig") }
    #expect(throws: IDTokenClaimsError.notJSONObject(segment: 0)) {
      try IDTokenClaims(rawIDToken: Base64URL.encode("[1,2]"))
    }
    #expect(throws: IDTokenClaimsError.empty) { try IDTokenClaims(rawIDToken: "..") }
    #expect(throws: IDTokenClaimsError.notJSONObject(segment: 0)) {
      try IDTokenClaims(rawIDToken: Base64URL.encode("secret-looking-text"))
    }
    #expect(!IDTokenClaimsError.notJSONObject(segment: 0).description.contains("secret"))
  }
}
