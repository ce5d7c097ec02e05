import Dispatch

/// Lets go of `value` on a background thread. Freeing a large plan, report model or set of decoded inputs
/// (millions of objects at 100,000 items) takes a tenth of a second or more on one core, and nothing after it
/// needs that core: the next stage goes on while the value is freed, and a process that exits first does not
/// free it at all.
///
/// Pass the last reference (`releaseInBackground(consume report)`); a value still referenced elsewhere is
/// simply released here, as it would be anyway. ``BackgroundWork/waitForPending()`` returns once every value
/// handed over so far is freed.
///
/// - Parameter worthIt: false for a value of a few objects, which is freed here instead: handing it over wakes a
///   thread, which costs more than the free (a fleet's small dumps hand over three values each).
package func releaseInBackground<Value: Sendable>(_ value: consuming Value, worthIt: Bool = true) {
  guard worthIt else { return }
  let box = Handoff(value)
  // The closure holds the box, so the value goes when the closure takes it on the background thread, whether
  // or not this function has returned by then.
  DispatchQueue.global(qos: .utility).async(group: BackgroundWork.pending) { _ = box.take() }
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
