/// The clouds the engine knows offline: instance-discovery alias groups (msal-common `AuthorityMetadata.ts`,
/// MSAL.NET `KnownMetadataProvider`). Two hosts in one group are the same cloud; an unknown host is its own
/// cloud and is reported, never guessed into a group.
///
/// Kept in the engine (not `UnifiedCache`) only until that module offers the same table.
struct CloudGroups: Sendable {
  /// Each group: its preferred cache host first, then the other aliases.
  static let known: [[String]] = [
    ["login.windows.net", "login.microsoftonline.com", "login.microsoft.com", "sts.windows.net"],
    ["login.partner.microsoftonline.cn", "login.chinacloudapi.cn"],
    ["login.microsoftonline.de"],
    ["login.microsoftonline.us", "login.usgovcloudapi.net"],
    ["login-us.microsoftonline.com"],
    ["login.windows-ppe.net", "sts.windows-ppe.net", "login.microsoft-ppe.com"],
    ["login.sovcloud-identity.fr"],
    ["login.sovcloud-identity.de"],
    ["login.sovcloud-identity.sg"],
  ]

  private static let groupByHost: [String: String] = {
    var map: [String: String] = [:]
    for group in known {
      for host in group { map[host] = group[0] }
    }
    return map
  }()

  /// The group's id (its preferred cache host) for a known host; nil for a host in no group.
  static func knownGroup(of host: String) -> String? { groupByHost[host.lowercased()] }

  /// The group id: the known group's preferred cache host, else the host itself (its own group).
  static func group(of host: String) -> String { knownGroup(of: host) ?? host.lowercased() }

  static func sameCloud(_ lhs: String, _ rhs: String) -> Bool { group(of: lhs) == group(of: rhs) }
}
