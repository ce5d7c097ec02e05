#if canImport(Glibc)
  import CMalloc
#endif

/// The allocator settings a migration's process makes before any work (the command calls `apply` first).
package enum AllocatorTuning {
  /// Makes two glibc settings, each unless the user set it:
  ///
  /// - The threshold for blocks mapped on their own, fixed at `largeBlockBytes`. glibc serves large blocks from
  ///   their own mappings only until the first such block is freed; it then raises the threshold to that block's
  ///   size (up to 32 MiB) and serves later large blocks from its heaps, which keep their pages after a free. A
  ///   migration frees many large buffers (decoded batches, arrays grown by doubling, rendered report parts) on
  ///   two threads, each with a heap of its own: with the threshold raised, their pages stayed in the process and
  ///   the 40k-item migrate's peak was about 30 MiB higher (docs/benchmarks.md). A fixed threshold gives every
  ///   large block back when it is freed.
  /// - The top pad, `heapTopPadBytes`. glibc makes a thread's heap (every heap but the main thread's) writable
  ///   only as far as it is used, one `mprotect` a growth: a page at a time for small blocks, 35,000 calls in a
  ///   40k-item dry run, each made under the heap's lock and waiting for the address-space lock that the other
  ///   core's page faults take. With the pad, a new heap is made writable that far at once.
  ///
  /// - Returns: whether both were set (never on systems without glibc).
  @discardableResult
  package static func apply(environment: [String: String]) -> Bool {
    #if canImport(Glibc)
      // `GLIBC_TUNABLES` may set either, in a syntax not worth parsing here: the user's settings are kept whole.
      guard environment["GLIBC_TUNABLES"] == nil else { return false }
      let threshold = environment["MALLOC_MMAP_THRESHOLD_"] == nil && mallopt(M_MMAP_THRESHOLD, largeBlockBytes) == 1
      let pad = environment["MALLOC_TOP_PAD_"] == nil && mallopt(M_TOP_PAD, heapTopPadBytes) == 1
      return threshold && pad
    #else
      return false
    #endif
  }

  /// Blocks at least this large get mappings of their own (glibc's starting threshold).
  package static let largeBlockBytes: Int32 = 128 << 10

  /// How far a new heap is made writable at once, and how much free space a heap keeps at its top rather than
  /// give back (glibc's default is 128 KiB), for a command whose input is not known yet; a migration fits it to
  /// its input (`fitTopPad`). 32 MiB more than halved the `mprotect` calls of a 40k-item run and raised its
  /// peak 3–4 MiB; 64 MiB removed nearly all of them but raised the peak 17 MiB, above 1.5x the input
  /// (docs/benchmarks.md, "Memory").
  package static let heapTopPadBytes: Int32 = 32 << 20

  /// glibc's own top pad, the least a fitted pad is.
  package static let defaultTopPadBytes: Int32 = 128 << 10

  /// The top pad for a run that reads `inputBytes` bytes: an eighth of them, from glibc's default up to
  /// `heapTopPadBytes`. The free space a heap keeps at its top stays in the process: a fixed 32 MiB kept
  /// about 8 MiB more at the end of a 42.6 MB dump's `migrate` (peak 81–84 MiB, 73–76 MiB with a pad of 4–8
  /// MiB), while the runs whose heaps grow the most, and so make most of the `mprotect` calls the pad saves, read
  /// the largest inputs (docs/benchmarks.md, "Memory").
  package static func topPadBytes(forInputBytes inputBytes: Int) -> Int32 {
    Int32(min(Int(heapTopPadBytes), max(Int(defaultTopPadBytes), inputBytes / 8)))
  }

  /// Sets the top pad to `topPadBytes(forInputBytes:)`, unless the user set it (as `apply` does). A heap is made
  /// writable as far as the pad at the time it is made, so a migration calls it before it reads anything.
  ///
  /// - Returns: whether it was set (never on systems without glibc).
  @discardableResult
  package static func fitTopPad(toInputBytes inputBytes: Int, environment: [String: String]) -> Bool {
    #if canImport(Glibc)
      guard environment["GLIBC_TUNABLES"] == nil, environment["MALLOC_TOP_PAD_"] == nil else { return false }
      return mallopt(M_TOP_PAD, topPadBytes(forInputBytes: inputBytes)) == 1
    #else
      return false
    #endif
  }
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
