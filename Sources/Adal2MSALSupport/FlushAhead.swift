#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Makes a file that is being written durable a few megabytes at a time, on another thread, so that the `fsync`
/// its writer owes at the end (before an atomic rename) waits for the last few megabytes only.
///
/// A disk with a volatile write cache (this project's VM's, most laptops' SSDs) empties all of it at an `fsync`:
/// the time grows with the bytes written since the last one, whether or not they were sent on their way
/// (`Writeback`). The 37 MB report of the 40k-item dry run waited 17–93 ms for its `fsync` at the end of the
/// run, with nothing else left to do (docs/benchmarks.md, "The report and the store made durable as they are
/// written").
///
/// At most one flush is in flight: the writer waits for the one before when the next is due, so a disk slower
/// than the writer holds the writer back by as much as the final `fsync` would have.
package final class FlushAhead {
  private let descriptor: Int32
  private let interval: Int
  private var unflushed = 0
  /// The flush in flight: its `errno`, 0 when it succeeded.
  private var inFlight: BackgroundValue<Int32>?

  /// The bytes written between two flushes.
  package static let defaultInterval = 4 << 20

  /// - Parameter descriptor: a file open for writing, which the caller keeps open until `finish` has returned.
  package init(_ descriptor: Int32, interval: Int = FlushAhead.defaultInterval) {
    self.descriptor = descriptor
    self.interval = interval
  }

  /// Counts `count` more bytes written, and starts a flush of the file once `interval` bytes have been written
  /// since the last one started.
  ///
  /// - Throws: the failure of the flush before, by its `errno`: data the writer wrote may not be on disk.
  package func wrote(_ count: Int) throws(SyncFailure) {
    unflushed += count
    guard unflushed >= interval else { return }
    try finish()
    unflushed = 0
    let descriptor = self.descriptor
    inFlight = BackgroundValue { Self.flush(descriptor) == 0 ? 0 : errno }
  }

  /// Waits for the flush in flight, if any. Call it before the final `fsync` and before the file is closed,
  /// whether or not the write failed.
  ///
  /// - Throws: that flush's failure, by its `errno`. A failed flush's error may be reported to one call only, so
  ///   the final `fsync` would not see it again.
  package func finish() throws(SyncFailure) {
    guard let flush = inFlight.take() else { return }
    let code = flush.value
    if code != 0 { throw SyncFailure(code: code) }
  }

  /// The file's data (and what reading it back needs) made durable.
  private static func flush(_ descriptor: Int32) -> Int32 {
    #if canImport(Glibc)
      fdatasync(descriptor)
    #else
      fsync(descriptor)
    #endif
  }
}

/// A flush of a file that failed, by its `errno`.
package struct SyncFailure: Error, Sendable, Hashable {
  package let code: Int32

  package init(code: Int32) { self.code = code }
}
