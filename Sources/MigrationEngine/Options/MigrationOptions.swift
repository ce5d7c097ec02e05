import Adal2MSALSupport
import Foundation
import UnifiedCache

/// How a migration is planned. Every decision that depends on the time reads `clock`, so a pinned clock makes
/// plans and reports reproducible byte for byte.
public struct MigrationOptions: Sendable {
  /// Which side wins when an input entity and the target cache disagree on the same cache key.
  public enum Preference: String, Sendable, Hashable, Codable, CaseIterable {
    /// The target cache (and, for ADAL entities, the MSAL inputs) wins; the disagreement is a `conflict`.
    case existing
    /// The inputs win: the existing entry is `update`d (fields the input does not set are kept).
    case adal
  }

  /// The application a family refresh token (`foci-1`) belongs to when no sibling item names the app.
  public var clientID: String?
  /// Do not migrate access tokens (they are reported as skipped).
  public var skipAccessTokens: Bool
  public var prefer: Preference
  /// The time every expiry decision and every defaulted `cached_at` uses.
  public var clock: MigrationClock
  /// Replace usernames, display names and account ids (also the uid inside `client_info`) in reports with stable
  /// `user-…`, `name-…` and `account-…` tokens (docs/report.md, its guarantees).
  public var redactUsernames: Bool
  /// The MSAL library the cache is for: the report shows each entry under the key that library will store it
  /// at (nil: the canonical key). Planning does not depend on it.
  public var targetLibrary: MSALLibrary?
  /// MSAL inputs that are an app's cache as it is now, which the app may have changed since the store was
  /// written: where one holds a key differently from the store, its entry wins (an update), whatever `prefer`
  /// says. Azure CLI's token cache under `--azure-cli-dir` is one: a token Azure CLI refreshed after the last
  /// run is newer than the store's, which written back would undo the refresh. Compared by file identity.
  public var currentCaches: [String] = []

  public init(
    clientID: String? = nil, skipAccessTokens: Bool = false, prefer: Preference = .existing,
    clock: MigrationClock = .system, redactUsernames: Bool = false, targetLibrary: MSALLibrary? = nil
  ) {
    self.clientID = clientID.flatMap { $0.trimmedWhitespace().isEmpty ? nil : $0 }
    self.skipAccessTokens = skipAccessTokens
    self.prefer = prefer
    self.clock = clock
    self.redactUsernames = redactUsernames
    self.targetLibrary = targetLibrary
  }
}
