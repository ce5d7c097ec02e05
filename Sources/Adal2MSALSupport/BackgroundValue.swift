import Dispatch
import Foundation

/// A value computed on another thread while the caller goes on with other work; `value` waits for it.
///
/// For work that needs nothing from what the caller does meanwhile (an input file's digest while its items
/// are decoded) and would otherwise take its own turn on one core.
package final class BackgroundValue<Value: Sendable>: @unchecked Sendable {  // `result`: guarded by `lock`
  private let lock = NSLock()
  private let done = DispatchSemaphore(value: 0)
  private var result: Value?

  /// Starts `make` on a global queue. Its closure, and what it captured, may be let go after `value` has
  /// returned (`BackgroundWork.waitForPending()` waits for that).
  package init(_ make: @escaping @Sendable () -> Value) {
    DispatchQueue.global(qos: .userInitiated).async(group: BackgroundWork.pending) {
      let made = make()
      self.lock.withLock { self.result = made }
      self.done.signal()
    }
  }

  /// The value, once `make` has returned.
  package var value: Value {
    done.wait()
    defer { done.signal() }  // so that a later call does not wait
    return lock.withLock { result! }
  }
}
