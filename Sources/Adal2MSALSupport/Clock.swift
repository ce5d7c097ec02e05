import Foundation

/// The time source for every expiry decision, so that tests and `--now` can pin it.
public struct MigrationClock: Sendable {
  private let current: @Sendable () -> Date

  public init(_ now: @escaping @Sendable () -> Date) { self.current = now }

  public var now: Date { current() }

  /// The system clock.
  public static let system = MigrationClock { Date() }

  /// A clock stopped at `date`.
  public static func fixed(_ date: Date) -> MigrationClock { MigrationClock { date } }
}
