import Adal2MSALSupport
import Foundation
import UnifiedCache

/// The claims of an id_token as ADAL stored it (`ADUserInformation.rawIdToken`), and the user id ADAL and
/// MSAL derive from them.
///
/// Parsing follows CORE `MSIDIdTokenClaims`: split on `.`, base64url-decode each part, parse it as a JSON
/// object and merge the objects (later parts win). ADAL 1.x stored the bare payload as one segment; that is
/// accepted, and `isJWT` tells the two apart. In a three-part token the third part (the signature) is not
/// parsed.
public struct IDTokenClaims: Sendable, Hashable {
  /// Which claim set rules chose the user id (CORE `MSIDAADIdTokenClaimsFactory`).
  public enum Flavor: String, Sendable, Hashable, Codable {
    /// `ver` "1.0", or no `ver` with `upn` or `unique_name` present.
    case v1
    /// `ver` "2.0".
    case v2
    /// Neither: the base rules (user id = `sub`).
    case unversioned
  }

  /// Every claim, header and payload merged, sorted by key.
  public var claims: [ADALValueEntry] { storage.claims }
  /// True when the raw token had exactly three `.`-separated parts (header, payload, signature).
  public var isJWT: Bool { storage.isJWT }
  /// The number of `.`-separated parts of the raw token.
  public var segmentCount: Int { storage.segmentCount }

  public var flavor: Flavor { storage.flavor }
  /// The user id as the claims give it, trimmed, original case kept (for display).
  public var userID: String? { storage.userID }
  /// The claim the user id came from (`upn`, `preferred_username`, `sub`, …).
  public var userIDClaim: String? { storage.userIDClaim }
  /// Whether the user id is meant for display (a UPN, email or preferred_username, not `sub`/`oid`).
  public var isDisplayable: Bool { storage.isDisplayable }

  /// Everything above, in one object that copies share: the read's memo, every item of the token and the
  /// planner's entries each hold the claims, and a copy of them as fields retained five references.
  private let storage: Storage

  /// Parses a raw id token. Throws when no part decodes to a JSON object, or when a header or payload part
  /// is not base64url JSON. The error never contains the token.
  public init(rawIDToken: String) throws(IDTokenClaimsError) {
    var text = rawIDToken
    let parts = Self.parts(of: text)
    let isJWT = parts.count == 3
    let claimParts = isJWT ? parts[..<2] : parts[...]
    let members = try text.withUTF8 { Self.members(of: $0, parts: claimParts) }.get()
    guard !members.isEmpty else { throw .empty }
    self.init(sortedClaims: Self.merged(members), isJWT: isJWT, segmentCount: parts.count)
  }

  /// Claims that a reader rebuilt from what a cache kept of an id token (ADAL Python and Node store `oid`,
  /// `tenantId`, `identityProvider`… as fields, never the token): no raw token exists, so `isJWT` is false and
  /// nothing is written as an IdToken from them.
  public init(keptClaims: [String: ADALValue]) {
    self.init(
      sortedClaims: keptClaims.sorted { $0.key < $1.key }.map { ADALValueEntry(key: $0.key, value: $0.value) },
      isJWT: false, segmentCount: 0)
  }

  private init(sortedClaims: [ADALValueEntry], isJWT: Bool, segmentCount: Int) {
    storage = Storage(claims: sortedClaims, isJWT: isJWT, segmentCount: segmentCount)
  }

  /// Equal when every field is (the claims planning reads are derived from `claims`): copies of one parse
  /// share their storage, and are equal without comparing.
  public static func == (lhs: IDTokenClaims, rhs: IDTokenClaims) -> Bool {
    lhs.storage === rhs.storage
      || (lhs.claims == rhs.claims && lhs.isJWT == rhs.isJWT && lhs.segmentCount == rhs.segmentCount
        && lhs.flavor == rhs.flavor && lhs.userID == rhs.userID && lhs.userIDClaim == rhs.userIDClaim
        && lhs.isDisplayable == rhs.isDisplayable)
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(claims)
    hasher.combine(isJWT)
    hasher.combine(segmentCount)
    hasher.combine(flavor)
    hasher.combine(userID)
    hasher.combine(userIDClaim)
    hasher.combine(isDisplayable)
  }

  /// The claims, what the token's shape was, the user id derived from them, and the claims planning reads.
  private final class Storage: Sendable {
    let claims: [ADALValueEntry]
    let isJWT: Bool
    let segmentCount: Int
    let flavor: Flavor
    let userID: String?
    let userIDClaim: String?
    let isDisplayable: Bool
    let normalizedUserID: String?
    let frequent: Frequent

    init(claims: [ADALValueEntry], isJWT: Bool, segmentCount: Int) {
      self.claims = claims
      self.isJWT = isJWT
      self.segmentCount = segmentCount
      frequent = Frequent.of(claims)
      let derived = IDTokenClaims.deriveUserID(claims, frequent)
      flavor = derived.flavor
      userID = derived.userID
      userIDClaim = derived.claim
      isDisplayable = derived.displayable
      normalizedUserID = derived.userID?.lowercasedSharingStorage()
    }
  }

  /// The UTF-8 offsets of the token's `.`-separated parts, empty ones included. An ASCII token (every real one)
  /// is split on its bytes; any other is split on characters, as a `.` with a combining mark is no separator.
  private static func parts(of token: String) -> [Range<Int>] {
    if let offsets = token.asciiPieceOffsets(separator: ".") { return offsets }
    // Not ASCII (or not contiguous): by characters, as `splitting(ascii:)` would after checking the bytes again.
    let start = token.utf8.startIndex
    return token.split(separator: ".", omittingEmptySubsequences: false).map { part in
      token.utf8.distance(from: start, to: part.startIndex)..<token.utf8.distance(from: start, to: part.endIndex)
    }
  }

  /// Every member of each non-empty part of `token` in `parts`, in order, or why a part cannot be read. The parts
  /// are decoded into one buffer: a String, an array and a `Data` of each part were most of a token's allocations.
  private static func members(
    of token: UnsafeBufferPointer<UInt8>, parts: ArraySlice<Range<Int>>
  ) -> Result<[ADALValueEntry], IDTokenClaimsError> {
    // A closure, not the key path `\.count`, which was looked up and applied at run time for every token.
    let longest = parts.reduce(0) { Swift.max($0, $1.count) }
    return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Base64URL.maxDecodedCount(longest)) { buffer in
      var members: [ADALValueEntry] = []
      members.reserveCapacity(32)  // a header's and a payload's members, as id tokens hold them
      for (index, part) in parts.enumerated() where !part.isEmpty {
        guard let count = Base64URL.decode(UnsafeBufferPointer(rebasing: token[part]), into: buffer) else {
          return .failure(.notBase64URL(segment: index))
        }
        guard ClaimsJSON.members(UnsafeRawBufferPointer(start: buffer.baseAddress, count: count), appendingTo: &members)
        else {
          return .failure(.notJSONObject(segment: index))
        }
      }
      return .success(members)
    }
  }

  /// `members` merged as a dictionary merges them, sorted by key: of equal keys (`==`, canonical equivalence), the
  /// first one's key and the last one's value. Sorted once, in place (the sort is stable, so equal keys stay in
  /// their order), where a dictionary was built, sorted and mapped for every token.
  package static func merged(_ members: consuming [ADALValueEntry]) -> [ADALValueEntry] {
    // Taken, not borrowed: sorting a borrowed list copied it first (a retain of every key and value).
    var members = members
    members.sort { $0.key < $1.key }
    return [ADALValueEntry](inPlaceCapacity: members.count) { merged, count in
      count = 0
      for member in members {
        if count > 0, merged[count - 1].key == member.key {
          merged[count - 1].value = member.value
        } else {
          (merged.baseAddress! + count).initialize(to: member)
          count += 1
        }
      }
    }
  }

  /// The claim's value if it is a non-blank string, trimmed.
  public func string(_ claim: String) -> String? { Self.string(claim, in: claims) }

  /// Any claim's value.
  public subscript(claim: String) -> ADALValue? { Self.index(of: claim, in: claims).map { claims[$0].value } }

  /// Where `claim` is in `claims`, by binary search (`claims` is sorted by key, and its keys are distinct), read by
  /// index: the planner reads several claims of every item, and a scan compared each key it passed.
  private static func index(of claim: String, in claims: [ADALValueEntry]) -> Int? {
    var (low, high) = (0, claims.count)
    while low < high {
      let middle = (low + high) / 2
      if claims[middle].key < claim { low = middle + 1 } else { high = middle }
    }
    return low < claims.count && claims[low].key == claim ? low : nil
  }

  /// The claim's value in `claims` if it is a non-blank string, trimmed.
  private static func string(_ claim: String, in claims: [ADALValueEntry]) -> String? {
    guard let index = index(of: claim, in: claims) else { return nil }
    return claims[index].value.stringValue.flatMap(nonBlank)
  }

  /// `userID` trimmed and lowercased, as ADAL's `normalizeUserId` does: the form used for matching and for
  /// the keychain `acct` attribute. Made once per parse: every item of the token and its user's grouping,
  /// sorting and report read it, and a UPN with capitals was lowercased into a new string each time.
  public var normalizedUserID: String? { storage.normalizedUserID }

  public var oid: String? { storage.frequent.oid }
  public var tid: String? { storage.frequent.tid }
  public var sub: String? { storage.frequent.sub }
  public var idp: String? { storage.frequent.idp }
  public var iss: String? { storage.frequent.iss }
  public var name: String? { string("name") }
  public var givenName: String? { string("given_name") }
  public var familyName: String? { string("family_name") }
  public var ver: String? { storage.frequent.ver }
  public var upn: String? { storage.frequent.upn }
  public var email: String? { storage.frequent.email }
  public var preferredUsername: String? { storage.frequent.preferredUsername }
  public var uniqueName: String? { storage.frequent.uniqueName }

  /// CORE's `uniqueId` (MSAL's localAccountId): `oid`, else `sub`, lowercased.
  public var uniqueID: String? { (oid ?? sub)?.lowercased() }

  static func nonBlank(_ text: String) -> String? {
    let trimmed = text.trimmedWhitespaceAndNewlines()
    return trimmed.isEmpty ? nil : trimmed
  }

  /// CORE's user id rules (the type's documentation), first candidate with a value wins. Written out, not as an
  /// array of candidates: that array, made for every token, was nearly all of the derivation's time.
  private static func deriveUserID(_ claims: [ADALValueEntry], _ frequent: Frequent) -> (
    flavor: Flavor, userID: String?, claim: String?, displayable: Bool
  ) {
    let version = frequent.ver
    let flavor: Flavor =
      if version == "1.0" { .v1 } else if version == "2.0" {
        .v2
      } else if frequent.upn != nil
        || frequent.uniqueName != nil
      { .v1 } else { .unversioned }
    func chosen(_ claim: String, _ value: String, displayable: Bool) -> (Flavor, String?, String?, Bool) {
      (flavor, value, claim, displayable)
    }
    switch flavor {
    case .v1:
      if let upn = frequent.upn { return chosen("upn", upn, displayable: true) }
      if let email = frequent.email { return chosen("email", email, displayable: true) }
      if let sub = frequent.sub { return chosen("sub", sub, displayable: false) }
      if let oid = frequent.oid { return chosen("oid", oid, displayable: false) }
      if let uniqueName = frequent.uniqueName { return chosen("unique_name", uniqueName, displayable: true) }
      if let altsecid = string("altsecid", in: claims) { return chosen("altsecid", altsecid, displayable: false) }
    case .v2:
      if let username = frequent.preferredUsername {
        return chosen("preferred_username", username, displayable: true)
      }
      if let sub = frequent.sub { return chosen("sub", sub, displayable: false) }
    case .unversioned:
      if let sub = frequent.sub { return chosen("sub", sub, displayable: false) }
    }
    return (flavor, nil, nil, false)
  }

  /// The claims planning reads of every item (several for each), each non-blank and trimmed as `string(_:)`
  /// gives it: looked up once per token, where a binary search of string comparisons and a trim for each read
  /// were most of the claims' cost to planning.
  private struct Frequent: Sendable {
    let oid: String?, tid: String?, sub: String?, idp: String?, iss: String?, ver: String?
    let upn: String?, email: String?, preferredUsername: String?, uniqueName: String?

    /// Made by the memberwise initializer, which builds the value in place: through an initializer of its own,
    /// the ten strings were retained into a copy and released again (docs/benchmarks.md, "Counting calls").
    static func of(_ claims: [ADALValueEntry]) -> Frequent {
      func value(_ key: String) -> String? { IDTokenClaims.string(key, in: claims) }
      return Frequent(
        oid: value("oid"), tid: value("tid"), sub: value("sub"), idp: value("idp"), iss: value("iss"),
        ver: value("ver"), upn: value("upn"), email: value("email"), preferredUsername: value("preferred_username"),
        uniqueName: value("unique_name"))
    }
  }
}

/// Why an id token's claims could not be read. Carries no part of the token.
public enum IDTokenClaimsError: Error, LocalizedError, Sendable, Hashable, CustomStringConvertible {
  case notBase64URL(segment: Int)
  case notJSONObject(segment: Int)
  case empty

  public var description: String {
    switch self {
    case .notBase64URL(let segment): "id_token part \(segment) is not base64url"
    case .notJSONObject(let segment): "id_token part \(segment) is not a JSON object"
    case .empty: "id_token holds no claims"
    }
  }

  /// The description: the reader that met the id token names its item.
  public var errorDescription: String? { description }
}
