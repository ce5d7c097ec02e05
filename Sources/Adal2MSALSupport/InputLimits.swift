import Foundation

/// Resource limits for reading untrusted input. Every reader takes one; exceeding a limit is a clear error,
/// never a crash or an unbounded allocation.
public struct InputLimits: Sendable, Hashable, Codable {
  /// Largest input file accepted, in bytes.
  public var maxInputBytes: Int
  /// Largest number of objects in one property list or JSON document.
  public var maxObjects: Int
  /// Deepest nesting of containers. The readers recurse once per level, so this also bounds their stack use:
  /// a debug build overflows an 8 MiB thread stack near 400 levels of binary plist, and real inputs nest
  /// fewer than 20 (libxml2 stops at 256 on its own).
  public var maxDepth: Int
  /// Longest single string or data value, in bytes.
  public var maxStringBytes: Int
  /// Largest total decoded size relative to the input size (guards against shared-reference blow-ups in
  /// keyed archives, where one object may be referenced many times).
  public var maxExpansionFactor: Int
  /// Not a limit but a reading rule that every reader needs along with the limits: the time zone of dates a
  /// writer stored as naive local time (ADAL Python's and Azure CLI's `expiresOn`, `2017-04-03 10:36:27.808196`).
  /// The default is the zone of the machine running adal2msal (`TZ`), since the file is normally migrated
  /// where it was written; `--adal-time-zone` overrides it.
  public var localTimeZone: TimeZone

  public init(
    maxInputBytes: Int = 2 << 30, maxObjects: Int = 50_000_000, maxDepth: Int = 128,
    maxStringBytes: Int = 64 << 20, maxExpansionFactor: Int = 64, localTimeZone: TimeZone = .current
  ) {
    self.localTimeZone = localTimeZone
    self.maxInputBytes = maxInputBytes
    self.maxObjects = maxObjects
    self.maxDepth = maxDepth
    self.maxStringBytes = maxStringBytes
    self.maxExpansionFactor = maxExpansionFactor
  }

  /// The defaults: generous enough for a fleet-sized dump, small enough to fail fast on hostile input.
  public static let `default` = InputLimits()
}
