#if canImport(Glibc)
  import CWriteback
  import Glibc
#endif

/// Sends a file's newly written bytes to disk while its writer goes on, so that the `fsync` that must follow
/// (before an atomic rename) has little left to wait for. Linux's page cache otherwise holds a whole report
/// (37 MB at 40,000 items) until that `fsync`, which then took 20–28 ms at the end of every run, with both cores
/// idle (docs/benchmarks.md, "The report sent to disk as it is written").
package enum Writeback {
  /// Starts writing `count` bytes of `descriptor` from `offset` to disk, without waiting for them.
  ///
  /// - Returns: whether the system took the request; false where it cannot (a pipe, a system without
  ///   `sync_file_range`). It is only a head start: the caller's `fsync` is what makes the bytes durable.
  @discardableResult
  package static func start(_ descriptor: Int32, offset: Int, count: Int) -> Bool {
    #if canImport(Glibc)
      let flags = UInt32(ADAL2MSAL_SYNC_FILE_RANGE_WRITE)
      return sync_file_range(descriptor, __off64_t(offset), __off64_t(count), flags) == 0
    #else
      return false
    #endif
  }
}
