import Adal2MSALSupport
import Testing

#if canImport(Glibc)
  import CMalloc
  import Glibc
#endif

/// The command's allocator setting: set unless the user set it, and it keeps large blocks in mappings of their
/// own after a larger one was freed (which, by glibc's default, moves them into its heaps).
@Suite struct AllocatorTuningTests {
  @Test func aThresholdTheUserSetIsKept() {
    #expect(!AllocatorTuning.apply(environment: ["MALLOC_MMAP_THRESHOLD_": "65536"]))
    #expect(!AllocatorTuning.apply(environment: ["GLIBC_TUNABLES": "glibc.malloc.mmap_threshold=65536"]))
  }

  #if canImport(Glibc)
    @Test func largeBlocksKeepMappingsOfTheirOwnAfterALargerOneIsFreed() throws {
      #expect(AllocatorTuning.apply(environment: [:]))
      let megabyte = 1 << 20
      // By glibc's default, freeing this mapped block would raise the threshold to its size.
      free(malloc(8 * megabyte))
      let block = try #require(malloc(megabyte))
      defer { free(block) }
      // A block with a mapping of its own spans whole pages; one from a heap has a few bytes over its size.
      #expect(malloc_usable_size(block) >= megabyte + 2048)
    }
  #endif
}
