import Dispatch

/// Lets go of `value` on a background thread. Freeing a large plan, report model or set of decoded inputs
/// (millions of objects at 100,000 items) takes a tenth of a second or more on one core, and nothing after it
/// needs that core: the next stage goes on while the value is freed, and a process that exits first does not
/// free it at all.
///
/// Pass the last reference (`releaseInBackground(consume report)`); a value still referenced elsewhere is
/// simply released here, as it would be anyway. ``BackgroundRelease/waitForPending()`` returns once every value
/// handed over so far is freed.
package func releaseInBackground<Value: Sendable>(_ value: consuming Value) {
  let box = Handoff(value)
  // The closure holds the box, so the value goes when the closure takes it on the background thread, whether
  // or not this function has returned by then.
  DispatchQueue.global(qos: .utility).async(group: BackgroundRelease.pending) { _ = box.take() }
}

/// The values that runs free on a background thread once they are done with them (a read's records, a plan
/// after its report): see ``waitForPending()``.
public enum BackgroundRelease {
  fileprivate static let pending = DispatchGroup()

  /// Returns once every value handed to a background thread to be freed, so far, has been freed.
  ///
  /// A run returns before the values it no longer needs are freed. Wait here where that matters: before
  /// measuring memory after a run, or before a leak checker looks at the heap (libFuzzer's leak check runs
  /// right after each input, and it cannot see every reference a value still in the queue holds, so it takes
  /// the value for a leak).
  public static func waitForPending() { pending.wait() }
}

/// A value handed to the one closure that takes it, so that the closure holds its only reference: a value
/// captured by a closure stays referenced by the closure's context (an array sorted there was copied on write,
/// and a value to free there was freed by whoever let the closure go).
package final class Handoff<Value: Sendable>: @unchecked Sendable {  // `value`: taken once, by one closure
  private var value: Value?

  package init(_ value: consuming Value) { self.value = value }

  package func take() -> Value {
    guard let value = value.take() else { preconditionFailure("a handoff is taken once") }
    return value
  }
}
