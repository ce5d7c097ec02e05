import UnifiedCache

/// The cloud of a host, as the engine names it: the preferred cache host of its environment alias group
/// (`UnifiedCache.EnvironmentAliases`). An unknown host is its own cloud and is reported, never guessed.
enum CloudGroups {
  /// The group id (its preferred cache host) for a known host; nil for a host in no known group.
  static func knownGroup(of host: String) -> String? {
    let group = EnvironmentAliases.group(forHost: host)
    return group.isKnown ? group.preferredCacheHost : nil
  }

  /// The group id: the known group's preferred cache host, else the normalized host itself.
  static func group(of host: String) -> String { EnvironmentAliases.group(forHost: host).preferredCacheHost }
}
