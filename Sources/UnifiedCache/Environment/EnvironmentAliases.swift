import Adal2MSALSupport
import Foundation

/// A set of hosts that name the same cloud: tokens cached under one are valid under the others.
public struct EnvironmentGroup: Sendable, Hashable, CustomStringConvertible {
  /// A stable short name (`public`, `china`, ...); for an unknown host, the host itself.
  public var name: String
  /// The host MSAL.NET, Java and msal-common write into the cache for this cloud (`preferred_cache`).
  public var preferredCacheHost: String
  /// Every host of the group, lowercased, the preferred one first.
  public var hosts: [String]
  /// False for a host in none of the built-in tables: it is its own group, and the caller should say so.
  public var isKnown: Bool

  public init(name: String, preferredCacheHost: String, hosts: [String], isKnown: Bool) {
    self.name = name
    self.preferredCacheHost = preferredCacheHost
    self.hosts = hosts
    self.isKnown = isKnown
  }

  public func contains(_ host: String) -> Bool { hosts.contains(EnvironmentAliases.normalize(host)) }

  public var description: String { isKnown ? "\(name) (\(hosts.joined(separator: ", ")))" : "\(name) (unknown)" }
}

/// The environment alias groups MSAL knows without network instance discovery: the msal-common
/// `AuthorityMetadata` table and MSAL.NET's `KnownMetadataProvider` (spec section 5). Never guessed: a host in
/// no table is its own group with `isKnown == false`.
public enum EnvironmentAliases {
  /// The built-in groups.
  public static let knownGroups: [EnvironmentGroup] = [
    group("public", "login.windows.net", ["login.microsoftonline.com", "login.microsoft.com", "sts.windows.net"]),
    group("china", "login.partner.microsoftonline.cn", ["login.chinacloudapi.cn"]),
    group("germany", "login.microsoftonline.de", []),
    group("usgov", "login.microsoftonline.us", ["login.usgovcloudapi.net"]),
    group("usgov-legacy", "login-us.microsoftonline.com", []),
    group("ppe", "login.windows-ppe.net", ["sts.windows-ppe.net", "login.microsoft-ppe.com"]),
    group("bleu", "login.sovcloud-identity.fr", []),
    group("delos", "login.sovcloud-identity.de", []),
    group("govsg", "login.sovcloud-identity.sg", []),
  ]

  private static let byHost: [String: EnvironmentGroup] = {
    var table: [String: EnvironmentGroup] = [:]
    for group in knownGroups { for host in group.hosts { table[host] = group } }
    return table
  }()

  /// The group of `host` (an environment or an authority host): lowercased, trailing dot and port removed.
  public static func group(forHost host: String) -> EnvironmentGroup {
    let normalized = normalize(host)
    if let known = byHost[normalized] { return known }
    return EnvironmentGroup(name: normalized, preferredCacheHost: normalized, hosts: [normalized], isKnown: false)
  }

  /// Whether two environments name the same cloud (same known group, or the same host).
  public static func areAliases(_ first: String, _ second: String) -> Bool {
    group(forHost: first) == group(forHost: second)
  }

  /// Lowercases, trims whitespace, and drops a `:port` and a trailing `.` (`Login.Windows.NET:443` →
  /// `login.windows.net`). A `scheme://` prefix or a path is not a host and is left as it is.
  public static func normalize(_ host: String) -> String {
    var text = host.trimmedWhitespace().lowercased()
    if let colon = text.lastIndex(of: ":"), !text[text.index(after: colon)...].isEmpty,
      text[text.index(after: colon)...].allSatisfy(\.isNumber), !text.contains("/")
    {
      text = String(text[..<colon])
    }
    while text.hasSuffix(".") { text.removeLast() }
    return text
  }

  private static func group(_ name: String, _ preferred: String, _ others: [String]) -> EnvironmentGroup {
    EnvironmentGroup(name: name, preferredCacheHost: preferred, hosts: [preferred] + others, isKnown: true)
  }
}
