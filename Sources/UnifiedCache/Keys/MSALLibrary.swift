/// The MSAL library that will load an exported cache. Each computes cache keys and spells optional fields its
/// own way, and finds the entries it replaces or removes by the key it computes, so an export is written for one
/// of them (the rules: docs/unified-cache-keys.md; the libraries' code they were read from: docs/sources.md).
public enum MSALLibrary: String, Sendable, Hashable, CaseIterable, Codable {
  /// MSAL.NET (also reads every other style: it re-keys every entity on load).
  case dotnet
  /// MSAL Python (and Azure CLI 2.30+, which uses it).
  case python
  /// MSAL for Java (msal4j).
  case java
  /// MSAL Node (msal-common's cache).
  case node
  /// MSAL for Go.
  case go
  /// MSAL for iOS and macOS (IdentityCore keychain items).
  case objc

  /// Whether the library cannot use an access token without `expires_on`: MSAL Python reads it with
  /// `int(entry["expires_on"])` (a KeyError out of `acquire_token_silent`), MSAL Java throws on an access token
  /// lacking it, msal-common's cache schema requires it, and MSAL ObjC serves it as never expiring (IdentityCore
  /// compares a nil `expiresOn`, which is never earlier than now), long after the server stopped taking it. MSAL.NET
  /// and MSAL Go read a missing one as 0, an expired token they refresh (docs/unified-cache-keys.md).
  public var requiresAccessTokenExpiry: Bool {
    switch self {
    case .python, .java, .node, .objc: true
    case .dotnet, .go: false
    }
  }

  /// Why an export for this library leaves out an access token without `expires_on` (`requiresAccessTokenExpiry`).
  var accessTokenExpiryNeed: String {
    self == .objc
      ? "MSAL ObjC serves an access token without expiresOn as never expiring"
      : "\(displayName) needs expires_on (epoch seconds) on every access token"
  }

  /// The library's name as users know it.
  public var displayName: String {
    switch self {
    case .dotnet: "MSAL.NET"
    case .python: "MSAL Python"
    case .java: "MSAL Java"
    case .node: "MSAL Node"
    case .go: "MSAL Go"
    case .objc: "MSAL ObjC (iOS/macOS keychain)"
    }
  }
}
