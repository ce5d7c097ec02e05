import Foundation
import Testing
import _Adal2MSALTestSupport

/// `adal2msal-bench pipeline` sets the store's write beside a plain insert loop of as many rows, timed in a process
/// of its own: the line must come from a real timing of that loop, or the ratio it prints is of nothing. No timing
/// here: the benchmark does that, on large dumps.
struct PipelineBenchmarkTests {
  @Test func theWriteIsSetBesideAPlainLoopTimedInItsOwnProcess() throws {
    let bench = try #require(
      BuiltProducts.url("adal2msal-bench"), "adal2msal-bench not built: swift build --build-tests")
    let work = try Fixtures.temporaryDirectory("pipeline")
    let output = try ProcessRunner.run(
      bench,
      arguments: [
        "pipeline", "--items", "120", "--items-per-dump", "60", "--skip-dry-run", "--work-dir", work.path,
      ],
      timeout: 600)
    #expect(output.exitCode == 0, "\(output.stderr.suffix(2_000))")

    let lines = output.stdout.split(separator: "\n").map(String.init)
    // "== 120 items: 2 files, … MB, 120 ADAL items, P plan entries, N rows written =="
    let header = try #require(lines.first { $0.hasPrefix("== 120 items:") }, "\(output.stdout)")
    let written = try #require(
      header.split(separator: ",").last?.split(separator: " ").first.flatMap { Int($0) }, "\(header)")
    #expect(written > 0, "\(header)")
    #expect(!lines.contains { $0.hasPrefix("floor: plain") }, "the loop is no longer a stage of the stages' child")

    // "write / plain SQLite inserts of the same rows and bytes, in a process of their own = R wall (W against P
    // rows/s; target: 200000 rows/s)"
    let write = try #require(
      lines.first { $0.hasPrefix("write / plain SQLite inserts") && $0.contains("in a process of their own") },
      "\(output.stdout)")
    let figures = write.drop { $0 != "(" }
    let numbers = figures.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
    try #require(numbers.count >= 3, "\(write)")
    let (storeRate, plainRate) = (numbers[0], numbers[1])
    #expect(storeRate > 0 && plainRate > 0, "\(write)")
    // Rows of hundreds of bytes, made durable: a rate no SQLite write reaches is a rate of no timing at all.
    #expect(storeRate < 10_000_000 && plainRate < 10_000_000, "\(write)")
  }
}
