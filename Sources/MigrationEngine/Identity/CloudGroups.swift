import UnifiedCache

/// The cloud of a host, as the engine names it: the name of its environment alias group (`public`, `china`,
/// `usgov`, ... from `UnifiedCache.EnvironmentAliases`). An unknown host is its own cloud, named by the host,
/// and is reported, never guessed.
enum CloudGroups {
  /// The group's name for a known host; nil for a host in no known group.
  static func knownGroup(of host: String) -> String? {
    let group = EnvironmentAliases.group(forHost: host)
    return group.isKnown ? group.name : nil
  }

  /// The group's name, or the normalized host itself for an unknown host.
  static func group(of host: String) -> String { EnvironmentAliases.group(forHost: host).name }

  /// `group(of:)`, and whether the host is in a known group (`knownGroup(of:) != nil`), looked up once.
  static func lookUp(_ host: String) -> (name: String, isKnown: Bool) {
    let group = EnvironmentAliases.group(forHost: host)
    return (group.name, group.isKnown)
  }
}
