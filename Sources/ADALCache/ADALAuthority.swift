import Adal2MSALSupport
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
  ///
  /// Every stage parses the authorities of every item again, and a dump has only a few distinct ones: the
  /// results are remembered (a bounded table, see `ADALAuthorityMemo`).
  public init?(_ authority: String) {
    switch ADALAuthorityMemo.shared.lookup(authority) {
    case .some(.some(let known)): self = known
    case .some(.none): return nil
    case .none:
      let parsed = Self(parsing: authority)
      ADALAuthorityMemo.shared.store(parsed, for: authority)
      guard let parsed else { return nil }
      self = parsed
    }
  }

  private init?(parsing authority: String) {
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
    let lowerHost = host.trimmedWhitespace().lowercased()
    guard !lowerHost.isEmpty, !scheme.isEmpty else { return nil }
    original = authority
    let defaultPort = scheme == "http" ? 80 : 443
    environment = port.map { $0 == defaultPort ? lowerHost : "\(lowerHost):\($0)" } ?? lowerHost
    let pathEnd = rest[authorityEnd...].firstIndex { $0 == "?" || $0 == "#" } ?? rest.endIndex
    let path = rest[authorityEnd..<pathEnd].split(separator: "/").map { String($0).trimmedWhitespace() }
      .filter { !$0.isEmpty }
    if path.first?.lowercased() == "tfp" {
      tenant = path.count > 1 ? path[1] : nil
    } else {
      tenant = path.first
    }
  }

  public var description: String { original }
}

/// Parsed authorities by text, shared by all threads. Bounded: once full, new authorities are parsed every
/// time and not kept, so hostile input with a distinct authority per item cannot grow it.
final class ADALAuthorityMemo: @unchecked Sendable {  // mutable state guarded by `lock`
  static let shared = ADALAuthorityMemo()
  static let capacity = 4_096

  private let lock = NSLock()
  private var parsed: [String: ADALAuthority?] = [:]

  /// nil when unknown; `.some(nil)` for text known not to be an authority.
  func lookup(_ authority: String) -> ADALAuthority?? {
    lock.lock()
    defer { lock.unlock() }
    return parsed[authority]
  }

  func store(_ value: ADALAuthority?, for authority: String) {
    lock.lock()
    defer { lock.unlock() }
    if parsed.count < Self.capacity { parsed[authority] = .some(value) }
  }
}
