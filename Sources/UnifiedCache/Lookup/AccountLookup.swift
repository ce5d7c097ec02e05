import Adal2MSALSupport
import Foundation

/// Finds accounts in a unified cache the way MSAL apps look them up: by username or by home account id.
public enum AccountLookup {
  /// Every account whose `username` equals `username` (trimmed, case-insensitive), in key order. With an
  /// `environment`, only accounts in the same alias group (e.g. login.microsoftonline.com matches
  /// login.windows.net); an unknown host matches only itself.
  public static func accountsForUsername(
    _ username: String, in contents: UnifiedCacheContents, environment: String? = nil
  ) -> [UnifiedAccount] {
    guard let wanted = normalizedUsername(username) else { return [] }
    let group = environment.map(EnvironmentAliases.group(forHost:))
    return contents.accounts.filter { account in
      guard normalizedUsername(account.username) == wanted else { return false }
      return group.map { $0 == EnvironmentAliases.group(forHost: account.environment) } ?? true
    }
  }

  /// The first account for `username` (see `accountsForUsername`), preferring one whose realm is its home
  /// tenant (the `utid` part of `home_account_id`), as the home account is the one MSAL returns first.
  public static func accountForUsername(
    _ username: String, in contents: UnifiedCacheContents, environment: String? = nil
  ) -> UnifiedAccount? {
    let accounts = accountsForUsername(username, in: contents, environment: environment)
    return accounts.first(where: \.isInHomeTenant) ?? accounts.first
  }

  /// Every account with this `home_account_id` (case-insensitive), in key order: one per tenant and environment.
  public static func accountsForIdentifier(_ homeAccountID: String, in contents: UnifiedCacheContents)
    -> [UnifiedAccount]
  {
    let wanted = homeAccountID.trimmedWhitespace().lowercased()
    guard !wanted.isEmpty else { return [] }
    return contents.accounts.filter { $0.homeAccountID.lowercased() == wanted }
  }

  /// The account with this `home_account_id` (case-insensitive), preferring its home-tenant entry.
  public static func accountForIdentifier(_ homeAccountID: String, in contents: UnifiedCacheContents) -> UnifiedAccount?
  {
    let accounts = accountsForIdentifier(homeAccountID, in: contents)
    return accounts.first(where: \.isInHomeTenant) ?? accounts.first
  }

  /// A username as accounts are looked up by it (here and in a store's index): trimmed and lowercased; nil when
  /// blank.
  public static func normalizedUsername(_ username: String?) -> String? {
    guard let trimmed = username?.trimmedWhitespaceAndNewlines(), !trimmed.isEmpty else { return nil }
    return trimmed.lowercasedSharingStorage()
  }
}

extension UnifiedCacheContents {
  /// `AccountLookup.accountForUsername(_:in:environment:)` on this cache.
  public func accountForUsername(_ username: String, environment: String? = nil) -> UnifiedAccount? {
    AccountLookup.accountForUsername(username, in: self, environment: environment)
  }

  /// `AccountLookup.accountForIdentifier(_:in:)` on this cache.
  public func accountForIdentifier(_ homeAccountID: String) -> UnifiedAccount? {
    AccountLookup.accountForIdentifier(homeAccountID, in: self)
  }
}
