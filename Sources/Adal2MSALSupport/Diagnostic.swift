/// A recoverable problem found while reading or planning: reported, never thrown.
///
/// One bad item never stops the others. Readers collect diagnostics next to what they could read, and the
/// report lists every one with its location.
public struct Diagnostic: Sendable, Hashable, Codable, CustomStringConvertible {
  /// How serious the problem is.
  public enum Severity: String, Sendable, Hashable, Codable, Comparable {
    case note, warning, error

    public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }
    private var rank: Int {
      switch self {
      case .note: 0
      case .warning: 1
      case .error: 2
      }
    }
  }

  public var severity: Severity
  /// A stable, machine-readable identifier such as `adal.tombstone` or `unified.key-mismatch`.
  public var code: String
  /// A one-line, human-readable message. Never contains a secret.
  public var message: String
  public var location: SourceLocation?

  public init(_ severity: Severity, code: String, _ message: String, at location: SourceLocation? = nil) {
    self.severity = severity
    self.code = code
    self.message = message
    self.location = location
  }

  public var description: String {
    let place = location.map { "\($0): " } ?? ""
    return "\(place)\(severity.rawValue): \(message) [\(code)]"
  }
}
