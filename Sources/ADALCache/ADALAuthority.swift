import Foundation

/// An ADAL authority URL split the way CORE does (`msidHostWithPortIfNecessary`, `msidAADTenant`).
public struct ADALAuthority: Sendable, Hashable, Codable, CustomStringConvertible {
  /// The authority exactly as archived (original case).
  public let original: String
  /// The host, lowercased, with `:port` when a port other than the scheme's default is given.
  public let environment: String
  /// The first path component, or the second for B2C `/tfp/<tenant>/<policy>` authorities. Case as archived.
  public let tenant: String?

  /// Parses an authority; nil when it has no host (not an absolute URL).
  public init?(_ authority: String) {
    let trimmed = authority.trimmedWhitespaceAndNewlines()
    guard let components = URLComponents(string: trimmed), let host = components.host, !host.isEmpty else {
      return nil
    }
    original = authority
    let scheme = components.scheme?.lowercased()
    let defaultPort = scheme == "http" ? 80 : 443
    if let port = components.port, port != defaultPort {
      environment = "\(host.lowercased()):\(port)"
    } else {
      environment = host.lowercased()
    }
    let path = components.path.split(separator: "/").map(String.init)
    if path.first?.lowercased() == "tfp" {
      tenant = path.count > 1 ? path[1] : nil
    } else {
      tenant = path.first
    }
  }

  public var description: String { original }
}
