import Adal2MSALSupport
import Foundation

/// A fatal problem with a unified-cache input: not JSON, too large or deep, or JSON that is not a cache.
/// Messages name the place (byte offset, line and column, key path) and never contain a secret.
public struct UnifiedCacheError: Error, LocalizedError, CustomStringConvertible, Sendable, Hashable {
  /// What went wrong.
  public enum Reason: String, Sendable, Hashable, Codable {
    /// The bytes are not JSON (syntax error, bad UTF-8, bad escape).
    case notJSON = "not-json"
    /// An `InputLimits` limit was exceeded.
    case limitExceeded = "limit-exceeded"
    /// The JSON is valid but is not a unified cache (root not an object, or no known section).
    case notACache = "not-a-cache"
  }

  public var reason: Reason
  /// A one-line explanation, without secrets.
  public var message: String
  public var location: SourceLocation

  public init(_ reason: Reason, _ message: String, at location: SourceLocation) {
    self.reason = reason
    self.message = message
    self.location = location
  }

  public var description: String { "\(location): \(message) [unified.\(reason.rawValue)]" }
  public var errorDescription: String? { description }
}

/// What a reader produced: the cache, and the recoverable problems met on the way.
public struct UnifiedCacheReadResult: Sendable, Hashable {
  public var contents: UnifiedCacheContents
  public var diagnostics: [Diagnostic]

  public init(contents: UnifiedCacheContents = UnifiedCacheContents(), diagnostics: [Diagnostic] = []) {
    self.contents = contents
    self.diagnostics = diagnostics
  }
}
