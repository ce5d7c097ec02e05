import Adal2MSALSupport
import Foundation

/// A fatal problem with an ADAL input as a whole (unrecognised content, an invalid macOS blob, a limit
/// exceeded). Never contains a secret.
public struct ADALCacheError: Error, LocalizedError, CustomStringConvertible, Sendable, Hashable {
  public var message: String
  public var location: SourceLocation

  public init(_ message: String, at location: SourceLocation) {
    self.message = message
    self.location = location
  }

  public var description: String { "\(location): \(message)" }
  public var errorDescription: String? { description }
}

/// Why one item of a dump or blob could not be read. The reader turns it into an error `Diagnostic` (code
/// `adal.item-unreadable`) and goes on with the other items.
public struct ADALItemError: Error, LocalizedError, CustomStringConvertible, Sendable, Hashable {
  public var reason: String
  /// The item's location (file and item index).
  public var location: SourceLocation
  /// The item's keychain service attribute, when it has one (not a secret).
  public var service: String?

  public init(_ reason: String, at location: SourceLocation, service: String? = nil) {
    self.reason = reason
    self.location = location
    self.service = service
  }

  init(_ reason: String, source: ADALItemSource) {
    self.init(reason, at: source.location, service: source.service)
  }

  public var description: String {
    let svce = service.map { " (svce \($0))" } ?? ""
    return "\(location)\(svce): \(reason)"
  }
  public var errorDescription: String? { description }

  /// The diagnostic a reader reports for this item.
  public var diagnostic: Diagnostic {
    let svce = service.map { " (svce \($0))" } ?? ""
    return Diagnostic(.error, code: "adal.item-unreadable", "unreadable ADAL item\(svce): \(reason)", at: location)
  }
}
