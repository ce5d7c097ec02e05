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

#if canImport(Glibc)
  import Glibc
#endif

/// Gives the memory freed so far back to the system. glibc keeps freed memory in its heaps (one per thread
/// that allocated, and the planner and readers run on every core), so a run that frees one part's items
/// before the next would otherwise keep the largest part's memory, and more as the heaps fragment: the
/// million-item run peaked 5–10% higher without it (CHANGELOG.md, benchmark history, "Memory"). A no-op elsewhere.
package func returnFreedMemory() {
  #if canImport(Glibc)
    // malloc_trim's result says only whether memory went back; there is nothing to do either way.
    _ = mallocTrim?(0)
  #endif
}

#if canImport(Glibc)
  /// glibc's `malloc_trim`, which Swift's Glibc module does not export: looked up once.
  private let mallocTrim: (@convention(c) (Int) -> Int32)? = {
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return nil }
    return unsafeBitCast(symbol, to: (@convention(c) (Int) -> Int32).self)
  }()
#endif
