import Adal2MSALSupport
import Foundation
import Testing
import _Adal2MSALTestSupport

/// The command's allocator settings: each set unless the user set it; large blocks keep mappings of their own
/// after a larger one was freed (which, by glibc's default, moves them into its heaps); a new thread's heap is
/// made writable by the top pad at once.
@Suite struct AllocatorTuningTests {
  @Test func settingsTheUserMadeAreKept() {
    #expect(!AllocatorTuning.apply(environment: ["MALLOC_MMAP_THRESHOLD_": "65536"]))
    #expect(!AllocatorTuning.apply(environment: ["MALLOC_TOP_PAD_": "65536"]))
    #expect(!AllocatorTuning.apply(environment: ["GLIBC_TUNABLES": "glibc.malloc.mmap_threshold=65536"]))
  }

  #if canImport(Glibc)
    /// The probe's one number, run in a fresh process (`allocator-probe`).
    private func probe(_ arguments: [String]) throws -> Int {
      let probe = try #require(
        BuiltProducts.url("allocator-probe"), "allocator-probe not built: swift build --build-tests")
      let output = try ProcessRunner.run(probe, arguments: arguments, environment: ["PATH": "/usr/bin:/bin"])
      #expect(output.exitCode == 0, "\(output.stderr)")
      return try #require(Int(output.stdout.trimmingCharacters(in: .whitespacesAndNewlines)), "\(output.stdout)")
    }

    /// A heap's free space would serve the block whatever the setting, so each is probed in a fresh process.
    @Test func largeBlocksKeepMappingsOfTheirOwnAfterALargerOneIsFreed() throws {
      let megabyte = 1 << 20
      // A block with a mapping of its own spans whole pages; one from a heap has a few bytes over its size.
      #expect(try probe([]) < megabyte + 2048, "glibc's default should serve it from a heap")
      #expect(try probe(["--tuned"]) >= megabyte + 2048)
    }

    /// By glibc's default a new heap is made writable 128 KiB past its first block, then page by page.
    @Test func aNewThreadsHeapIsMadeWritableByThePadAtOnce() throws {
      let pad = Int(AllocatorTuning.heapTopPadBytes)
      #expect(try probe(["--new-heap"]) < pad / 8, "glibc's default pad should be far smaller")
      #expect(try probe(["--new-heap", "--tuned"]) >= pad)
    }
  #endif
}
