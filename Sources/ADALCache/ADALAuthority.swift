import Foundation

/// An ADAL authority URL split the way CORE does (`msidHostWithPortIfNecessary`, `msidAADTenant`).
///
/// Parsed by hand (scheme `://` host `[:port]` path): every item has one, and authorities are plain
/// `https://host/tenant` URLs; anything without `://` and a host is not an authority.
public struct ADALAuthority: Sendable, Hashable, Codable, CustomStringConvertible {
  /// The authority exactly as archived (original case).
  public let original: String
  /// The host, lowercased, with `:port` when a port other than the scheme's default is given.
  public let environment: String
  /// The first path component, or the second for B2C `/tfp/<tenant>/<policy>` authorities. Case as archived.
  public let tenant: String?

  /// Parses an authority; nil when it has no scheme or host.
  public init?(_ authority: String) {
    let text = Substring(authority).drop { $0.isWhitespace }
    guard let separator = text.range(of: "://") else { return nil }
    let scheme = text[..<separator.lowerBound].lowercased()
    let rest = text[separator.upperBound...]
    let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
    var hostPort = rest[..<authorityEnd]
    if let at = hostPort.lastIndex(of: "@") { hostPort = hostPort[hostPort.index(after: at)...] }
    var host = hostPort
    var port: Int?
    if let colon = hostPort.lastIndex(of: ":"), !hostPort[colon...].contains("]") {
      let digits = hostPort[hostPort.index(after: colon)...]
      if !digits.isEmpty, digits.allSatisfy(\.isASCII), let number = Int(digits) { port = number }
      host = hostPort[..<colon]
    }
    let lowerHost = host.trimmingCharacters(in: .whitespaces).lowercased()
    guard !lowerHost.isEmpty, !scheme.isEmpty else { return nil }
    original = authority
    let defaultPort = scheme == "http" ? 80 : 443
    environment = port.map { $0 == defaultPort ? lowerHost : "\(lowerHost):\($0)" } ?? lowerHost
    let pathEnd = rest[authorityEnd...].firstIndex { $0 == "?" || $0 == "#" } ?? rest.endIndex
    let path = rest[authorityEnd..<pathEnd].split(separator: "/").map { String($0).trimmingCharacters(in: .whitespaces) }
      .filter { !$0.isEmpty }
    if path.first?.lowercased() == "tfp" {
      tenant = path.count > 1 ? path[1] : nil
    } else {
      tenant = path.first
    }
  }

  public var description: String { original }
}
