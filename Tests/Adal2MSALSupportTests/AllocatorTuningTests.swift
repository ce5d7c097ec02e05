import Adal2MSALSupport
import Foundation
import Testing
import _Adal2MSALTestSupport

/// The command's allocator settings: each set unless the user set it; large blocks keep mappings of their own
/// after a larger one was freed (which, by glibc's default, moves them into its heaps); a new thread's heap is
/// made writable by the top pad at once, and a migration fits that pad to its input.
@Suite struct AllocatorTuningTests {
  @Test func settingsTheUserMadeAreKept() {
    #expect(!AllocatorTuning.apply(environment: ["MALLOC_MMAP_THRESHOLD_": "65536"]))
    #expect(!AllocatorTuning.apply(environment: ["MALLOC_TOP_PAD_": "65536"]))
    #expect(!AllocatorTuning.apply(environment: ["GLIBC_TUNABLES": "glibc.malloc.mmap_threshold=65536"]))
    #expect(!AllocatorTuning.fitTopPad(toInputBytes: 1 << 30, environment: ["MALLOC_TOP_PAD_": "65536"]))
    #expect(
      !AllocatorTuning.fitTopPad(toInputBytes: 1 << 30, environment: ["GLIBC_TUNABLES": "glibc.malloc.top_pad=0"]))
  }

  /// An eighth of the input, from glibc's default pad up to the pad of a command whose input is not known.
  @Test func thePadIsFittedToTheInput() {
    #expect(AllocatorTuning.topPadBytes(forInputBytes: 0) == AllocatorTuning.defaultTopPadBytes)
    #expect(AllocatorTuning.topPadBytes(forInputBytes: 42_582_432) == 5_322_804)
    #expect(AllocatorTuning.topPadBytes(forInputBytes: 169_002_074) == 21_125_259)
    #expect(AllocatorTuning.topPadBytes(forInputBytes: 673_400_000) == AllocatorTuning.heapTopPadBytes)
    #expect(AllocatorTuning.topPadBytes(forInputBytes: .max) == AllocatorTuning.heapTopPadBytes)
  }

  /// What the pad is fitted to: the files a run reads, a directory's by its files (hidden ones are not read),
  /// a path that is missing counting nothing.
  @Test func theInputBytesAreThoseOfTheFilesARunReads() throws {
    let dir = try Fixtures.temporaryDirectory()
    let fleet = dir.appendingPathComponent("fleet")
    try FileManager.default.createDirectory(at: fleet, withIntermediateDirectories: true)
    try Data(count: 100).write(to: fleet.appendingPathComponent("a.plist"))
    try Data(count: 200).write(to: fleet.appendingPathComponent("b.plist"))
    try Data(count: 400).write(to: fleet.appendingPathComponent(".hidden"))
    let single = dir.appendingPathComponent("single.json")
    try Data(count: 50).write(to: single)
    let missing = dir.appendingPathComponent("missing.json").path
    #expect(InputFile.totalBytes(of: [fleet.path, single.path, missing]) == 350)
    #expect(InputFile.totalBytes(of: []) == 0)
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

    /// A migration's pad, fitted to its input, is the one a heap made after it gets.
    @Test func aHeapMadeAfterThePadIsFittedGetsTheFittedPad() throws {
      let inputBytes = 16 << 20
      let fitted = Int(AllocatorTuning.topPadBytes(forInputBytes: inputBytes))
      let writable = try probe(["--new-heap", "--tuned", "--fit-to", String(inputBytes)])
      #expect(writable >= fitted)
      #expect(writable < Int(AllocatorTuning.heapTopPadBytes), "the pad set before the fit should not be used")
    }
  #endif
}
