import Adal2MSAL
import Adal2MSALSynthetic
import Foundation

/// A deterministic plan of `count` new access tokens for the store benchmark and the store's crash and
/// concurrency tests (through `store-apply-child`). Different seeds give disjoint cache keys. Eight tokens
/// share an account, so identical strings share storage as they would in a real plan.
enum SyntheticStorePlan {
  static func make(count: Int, seed: UInt64) -> MigrationPlan {
    var generator = SyntheticRandom(state: seed &* 0x9E37_79B9_7F4A_7C15 &+ 1)
    let environment = "login.windows.net"
    let clientID = "1d18b3b0-251b-4714-a02a-9956cec86c2d"
    let realm = "49f548d0-12b7-4169-a390-bb5304d24462"
    let file = "synthetic-\(seed).json"
    let issued = Date(timeIntervalSince1970: 1_700_000_000)
    let expires = Date(timeIntervalSince1970: 1_700_003_600)
    var entries: [PlanEntry] = []
    entries.reserveCapacity(count)
    var home = ""
    for index in 0..<count {
      if index % 8 == 0 { home = "s\(seed)-\(hex(generator.next()))-\(index / 8).\(realm)" }
      let token = UnifiedAccessToken(
        homeAccountID: home, environment: environment, clientID: clientID, realm: realm,
        target: "https://graph.microsoft.com/scope\(index % 8)", secret: UnifiedSecret(secret(&generator)),
        cachedAt: issued, expiresOn: expires, extendedExpiresOn: expires)
      entries.append(
        PlanEntry(
          action: .add, entity: .accessToken(token), reasonCode: "bench.add", reason: "synthetic",
          sources: [PlanSource(file: file, itemIndex: index, label: "synthetic AccessToken")],
          identityRule: .unifiedInput))
    }
    return MigrationPlan(entries: entries, plannedAt: issued)
  }

  /// A 64-character pseudo-random token.
  private static func secret(_ generator: inout SyntheticRandom) -> String {
    (0..<4).map { _ in hex(generator.next()) }.joined()
  }

  private static func hex(_ value: UInt64) -> String {
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: 16 - digits.count) + digits
  }
}
