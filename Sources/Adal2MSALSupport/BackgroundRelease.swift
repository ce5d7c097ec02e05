import Dispatch

/// Lets go of `value` on a background thread. Freeing a large plan, report model or set of decoded inputs
/// (millions of objects at 100,000 items) takes a tenth of a second or more on one core, and nothing after it
/// needs that core: the next stage goes on while the value is freed, and a process that exits first does not
/// free it at all.
///
/// Pass the last reference (`releaseInBackground(consume report)`); a value still referenced elsewhere is
/// simply released here, as it would be anyway.
package func releaseInBackground<Value: Sendable>(_ value: consuming Value) {
  let box = ReleaseBox(value)
  // The closure holds the box, so the value goes when the closure empties it on the background thread, whether
  // or not this function has returned by then.
  DispatchQueue.global(qos: .utility).async { box.release() }
}

/// Holds a value until `release()`; touched only by the one closure that releases it (hence `@unchecked`).
private final class ReleaseBox<Value: Sendable>: @unchecked Sendable {
  private var value: Value?

  init(_ value: consuming Value) { self.value = value }

  func release() { value = nil }
}
