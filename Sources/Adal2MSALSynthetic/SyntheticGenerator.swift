import Foundation

/// Generates realistic ADAL caches, deterministically for a seed: users across tenants of the public, China and
/// US Government clouds, each with a multi-resource refresh token, a family refresh token (family apps, ADAL 2.1+)
/// and access tokens for several resources (some expired), in the storage era of the user's app.
public struct SyntheticGenerator: Sendable {
  /// The "now" the expiries are relative to: 2026-01-01T00:00:00Z. Pass it to `migrate --now`.
  public static let referenceNow: Int64 = 1_767_225_600
  public static let referenceNowISO = "2026-01-01T00:00:00Z"

  private var random: SyntheticRandom
  private let tenants: [SyntheticTenant]
  private var usersMade = 0
  private let firstUserNumber: Int

  /// - Parameters:
  ///   - seed: the tenants (the same for every stream of a seed: a fleet is one organisation).
  ///   - stream: an independent stream of users for the seed (one per device of a fleet), so devices can be
  ///     generated in parallel and in any order. User numbers (in user names) do not overlap between streams.
  public init(seed: UInt64, stream: Int = 0) {
    var tenantRandom = SyntheticRandom(seed: seed)
    tenants = SyntheticTenant.tenants(&tenantRandom)
    random = stream == 0 ? tenantRandom : SyntheticRandom(seed: seed ^ (UInt64(stream) &* 0xD6E8_FEB8_6659_FD93))
    firstUserNumber = stream * 1_000_000
  }

  /// The next user.
  public mutating func nextUser() -> SyntheticUser {
    usersMade += 1
    return SyntheticUser.make(
      number: firstUserNumber + usersMade, tenants: tenants, now: Self.referenceNow, random: &random)
  }

  /// A dump with the items of `users` users.
  public mutating func dump(users: Int) -> SyntheticDump {
    var items: [SyntheticItem] = []
    for _ in 0..<max(0, users) { items += self.items(for: nextUser()) }
    return SyntheticDump(items: items)
  }

  /// A dump of exactly `itemCount` items (the last user's items cut short if need be).
  public mutating func dump(itemCount: Int) -> SyntheticDump {
    var items: [SyntheticItem] = []
    items.reserveCapacity(max(0, itemCount))
    while items.count < itemCount { items += self.items(for: nextUser()).prefix(itemCount - items.count) }
    return SyntheticDump(items: items)
  }

  /// A device's dump: one user mostly, up to three on shared devices, between `minItems` and `maxItems` items.
  public mutating func device(minItems: Int, maxItems: Int) -> SyntheticDump {
    let target = random.within(max(1, minItems)...max(minItems, maxItems, 1))
    return dump(itemCount: target)
  }

  /// A user's items: MRRT, FRT (family apps, ADAL 2.1+), then one access token per resource.
  public mutating func items(for user: SyntheticUser) -> [SyntheticItem] {
    let cloud = user.tenant.cloud
    let host = cloud.loginHosts.count > 1 && random.chance(30) ? cloud.loginHosts[1] : cloud.loginHosts[0]
    let tenantRoll = random.below(100)
    let path = tenantRoll < 15 ? "common" : tenantRoll < 30 ? user.tenant.domain : user.tenant.id
    let authority = "https://\(host)/\(path)"
    let family: String? = user.era != .e1 && user.clientID != SyntheticApps.clientIDs[0] ? "1" : nil
    let refreshToken = "0.A" + SyntheticText.base64URL(random.bytes(random.within(620...820)))
    let signedIn = Date(timeIntervalSince1970: TimeInterval(user.signedIn))
    var items: [SyntheticItem] = []
    func item(
      _ kind: SyntheticItem.Kind, client: String, resource: String?, at: String?, rt: String?, expires: Date?,
      cached: Date?, ext: Date?, created: Date
    ) -> SyntheticItem {
      let userID = user.username.lowercased()
      let service = [
        SyntheticApps.generic, SyntheticText.base64URL(authority.lowercased()),
        resource.map { SyntheticText.base64URL($0.lowercased()) } ?? SyntheticApps.nilKey,
        SyntheticText.base64URL(client.lowercased()),
      ].joined(separator: "|")
      return SyntheticItem(
        kind: kind, era: user.era, authority: authority, resource: resource, clientID: client,
        familyID: user.era == .e1 ? nil : family, accessToken: at, refreshToken: rt, expiresOn: expires,
        cachedAt: user.era == .e4 ? cached : nil, extendedExpiresOn: user.era == .e1 ? nil : ext,
        homeAccountID: user.homeAccountID, idToken: user.idToken, userID: userID, user: user,
        account: SyntheticText.base64URL(userID), service: service, created: created)
    }
    items.append(
      item(
        .mrrt, client: user.clientID, resource: nil, at: nil, rt: refreshToken, expires: nil,
        cached: signedIn, ext: nil, created: signedIn))
    if family != nil {
      items.append(
        item(
          .frt, client: "foci-1", resource: nil, at: nil, rt: refreshToken, expires: nil,
          cached: signedIn, ext: nil, created: signedIn))
    }
    var resources = cloud.resources.map { $0.replacingOccurrences(of: "%tenant%", with: user.tenant.name) }
    for _ in 0..<random.within(1...min(4, resources.count)) {
      let resource = resources.remove(at: random.below(resources.count))
      let expired = random.chance(60)
      let issued = Self.referenceNow - Int64(expired ? random.within(7200...(60 * 86_400)) : random.within(0...3000))
      let expires = issued + Int64(random.within(3599...5399))
      let token = accessToken(for: user, resource: resource, issued: issued, expires: expires)
      let issuedDate = Date(timeIntervalSince1970: TimeInterval(issued))
      let expiresDate = Date(timeIntervalSince1970: TimeInterval(expires))
      let ext = random.chance(50) ? expiresDate.addingTimeInterval(3 * 3600) : nil
      items.append(
        item(
          .accessToken, client: user.clientID, resource: resource, at: token, rt: nil,
          expires: expiresDate, cached: issuedDate, ext: ext, created: issuedDate))
    }
    return items
  }

  /// A v1 access token for `resource`, as Azure AD issued them (around 1.5 KB).
  private mutating func accessToken(for user: SyntheticUser, resource: String, issued: Int64, expires: Int64) -> String
  {
    var claims: [(key: String, value: SyntheticClaim)] = [
      ("aud", .string(resource)), ("iss", .string("https://\(user.tenant.cloud.issuerHost)/\(user.tenant.id)/")),
      ("iat", .integer(issued)), ("nbf", .integer(issued)), ("exp", .integer(expires)), ("acr", .string("1")),
      ("aio", .string(SyntheticText.base64URL(random.bytes(72)))), ("amr", .strings(["pwd", "mfa"])),
      ("appid", .string(user.clientID.lowercased())), ("appidacr", .string("0")),
    ]
    for claim in user.claims where ["family_name", "given_name", "name", "oid"].contains(claim.key) {
      claims.append(claim)
    }
    claims += [
      ("ipaddr", .string("203.0.113.\(random.below(254) + 1)")),
      ("puid", .string(SyntheticText.hex(random.next(), digits: 16).uppercased())),
      ("scp", .string("Files.ReadWrite.All Mail.ReadWrite Sites.Read.All User.Read")),
      ("sub", .string(SyntheticText.base64URL(random.bytes(32)))), ("tid", .string(user.tenant.id)),
      ("unique_name", .string(user.username)), ("upn", .string(user.username)),
      ("uti", .string(SyntheticText.base64URL(random.bytes(16)))), ("ver", .string("1.0")),
    ]
    return SyntheticJWT.token(header: SyntheticJWT.accessTokenHeader, claims: claims, random: &random)
  }
}

/// The items of one keychain dump. Each dump starts with one unrelated keychain item (another app's), as
/// real dumps do, so item `i` is at index `i + 1` in the dump.
public struct SyntheticDump: Sendable {
  public var items: [SyntheticItem]

  public init(items: [SyntheticItem]) { self.items = items }

  /// How many unrelated items precede the ADAL items.
  public static let leadingOtherItems = 1

  /// The index of item `position` in the dump (counting every keychain item).
  public static func itemIndex(_ position: Int) -> Int { position + leadingOtherItems }
}
