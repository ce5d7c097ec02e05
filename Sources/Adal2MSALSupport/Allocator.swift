#if canImport(Glibc)
  import CMalloc
#endif

/// The allocator settings a migration's process makes before any work (the command calls `apply` first).
package enum AllocatorTuning {
  /// glibc serves large blocks from their own mappings only until the first such block is freed; it then raises
  /// the size it maps separately to that block's (up to 32 MiB) and serves later large blocks from its heaps,
  /// which keep their pages after a free. A migration frees many large buffers (decoded batches, arrays grown by
  /// doubling, rendered report parts) on two threads, each with a heap of its own: with the threshold raised,
  /// their pages stayed in the process and the 40k-item migrate's peak was about 30 MiB higher
  /// (docs/benchmarks.md). A fixed threshold gives every large block back when it is freed.
  ///
  /// A threshold set in `environment` (`MALLOC_MMAP_THRESHOLD_`, `GLIBC_TUNABLES`) is the user's and is kept.
  /// - Returns: whether the threshold was set (never on systems without glibc).
  @discardableResult
  package static func apply(environment: [String: String]) -> Bool {
    #if canImport(Glibc)
      guard environment["MALLOC_MMAP_THRESHOLD_"] == nil, environment["GLIBC_TUNABLES"] == nil else { return false }
      return mallopt(M_MMAP_THRESHOLD, largeBlockBytes) == 1
    #else
      return false
    #endif
  }

  /// Blocks at least this large get mappings of their own (glibc's starting threshold).
  package static let largeBlockBytes: Int32 = 128 << 10
}

/// Gives the memory freed so far back to the system. glibc keeps freed memory in its heaps (one per thread
/// that allocated, and the planner and readers run on every core), so a run that frees one part's items
/// before the next would otherwise keep the largest part's memory, and more as the heaps fragment: the
/// million-item run peaked 5–10% higher without it (CHANGELOG.md, benchmark history, "Memory"). A no-op elsewhere.
package func returnFreedMemory() {
  #if canImport(Glibc)
    // malloc_trim's result says only whether memory went back; there is nothing to do either way.
    _ = malloc_trim(0)
  #endif
}
