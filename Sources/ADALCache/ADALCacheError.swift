import Adal2MSALSupport
import Foundation

/// A fatal problem with an ADAL input as a whole (unrecognised content, an invalid macOS blob, a limit
/// exceeded). Never contains a secret.
public struct ADALCacheError: Error, LocalizedError, CustomStringConvertible, Sendable, Hashable {
  /// What kind of failure: a run over a directory skips a file of any kind and goes on; `unsupported` and
  /// `wrongOption` name a format that was recognised.
  public enum Kind: Sendable, Hashable {
    /// The input is damaged or exceeds a limit.
    case unreadable
    /// No format adal2msal knows.
    case unrecognised
    /// A known format that adal2msal does not migrate yet.
    case unsupported(UnsupportedFormat)
    /// A file adal2msal reads, given in the wrong place: it belongs as the named role.
    case wrongOption(InputRole)
  }

  /// Where a file refused as `wrongOption` belongs. The reader knows what the file is, not how its caller takes
  /// files, so the run that called it says how to give it there (`remedy`): the command line names its options,
  /// a pipeline the library's parameters.
  public enum InputRole: String, Sendable, Hashable {
    /// An ADAL cache or dump, to migrate.
    case adalInput
    /// An MSAL unified cache, to merge or import.
    case msalInput
    /// An adal2msal store, to write or read.
    case store
  }

  public var message: String
  public var location: SourceLocation
  public var kind: Kind
  /// What to do instead, added after the message; nil when the thrower knows of nothing.
  public var remedy: String?

  public init(_ message: String, at location: SourceLocation, kind: Kind = .unreadable, remedy: String? = nil) {
    self.message = message
    self.location = location
    self.kind = kind
    self.remedy = remedy
  }

  /// Where the file belongs, when it was refused as given in the wrong place.
  public var belongsAs: InputRole? {
    if case .wrongOption(let role) = kind { role } else { nil }
  }

  /// The error for an input `InputFormatSniffer` refuses.
  public static func refusing(_ refusal: InputFormatSniffer.Refusal, file: String?) -> ADALCacheError {
    let location = SourceLocation(file: file)
    switch refusal {
    case .unsupported(let format):
      return ADALCacheError(
        "not supported yet: \(format.displayName); \(format.todo)", at: location, kind: .unsupported(format))
    case .sqlite(isStore: true):
      return ADALCacheError(
        "this is an adal2msal store, not an input cache", at: location, kind: .wrongOption(.store))
    case .sqlite(isStore: false):
      return ADALCacheError(
        "this is an SQLite database but not an adal2msal store or a token cache", at: location, kind: .unrecognised)
    }
  }

  public var description: String { "\(location): \(message)" + (remedy.map { ": \($0)" } ?? "") }
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
