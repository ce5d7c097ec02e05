import Adal2MSALSupport
import Foundation
import Testing
import _Adal2MSALTestSupport

/// The command's allocator setting: set unless the user set it, and it keeps large blocks in mappings of their
/// own after a larger one was freed (which, by glibc's default, moves them into its heaps).
@Suite struct AllocatorTuningTests {
  @Test func aThresholdTheUserSetIsKept() {
    #expect(!AllocatorTuning.apply(environment: ["MALLOC_MMAP_THRESHOLD_": "65536"]))
    #expect(!AllocatorTuning.apply(environment: ["GLIBC_TUNABLES": "glibc.malloc.mmap_threshold=65536"]))
  }

  #if canImport(Glibc)
    /// In a fresh process (`allocator-probe`): a heap's free space would serve the block whatever the setting.
    @Test func largeBlocksKeepMappingsOfTheirOwnAfterALargerOneIsFreed() throws {
      let probe = try #require(
        BuiltProducts.url("allocator-probe"), "allocator-probe not built: swift build --build-tests")
      func usableSize(_ arguments: [String]) throws -> Int {
        let output = try ProcessRunner.run(probe, arguments: arguments, environment: ["PATH": "/usr/bin:/bin"])
        #expect(output.exitCode == 0, "\(output.stderr)")
        return try #require(Int(output.stdout.trimmingCharacters(in: .whitespacesAndNewlines)), "\(output.stdout)")
      }
      let megabyte = 1 << 20
      // A block with a mapping of its own spans whole pages; one from a heap has a few bytes over its size.
      #expect(try usableSize([]) < megabyte + 2048, "glibc's default should serve it from a heap")
      #expect(try usableSize(["--tuned"]) >= megabyte + 2048)
    }
  #endif
}
