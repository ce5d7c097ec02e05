import Foundation

/// A count that closures on several threads add to (a test's workers, its background work).
public final class LockedCounter: @unchecked Sendable {  // `count` guarded by `lock`
  private let lock = NSLock()
  private var count = 0

  public init() {}

  public func add() { lock.withLock { count += 1 } }
  public var value: Int { lock.withLock { count } }
}
