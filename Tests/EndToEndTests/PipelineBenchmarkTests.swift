import Foundation
import Testing

/// `adal2msal-bench pipeline` sets the store's write beside a plain insert loop of as many rows, timed in a process
/// of its own: the line must come from a real timing of that loop, or the ratio it prints is of nothing. No timing
/// here: the benchmark does that, on large dumps.
struct PipelineBenchmarkTests {
  @Test func theWriteIsSetBesideAPlainLoopTimedInItsOwnProcess() throws {
    let lines = try BenchHarness.lines(
      ["pipeline", "--items", "120", "--items-per-dump", "60", "--skip-dry-run"], workName: "pipeline")
    // "== 120 items: 2 files, … MB, 120 ADAL items, P plan entries, N rows written =="
    let header = try #require(lines.first { $0.hasPrefix("== 120 items:") }, "\(lines.joined(separator: "\n"))")
    let written = try #require(
      header.split(separator: ",").last?.split(separator: " ").first.flatMap { Int($0) }, "\(header)")
    #expect(written > 0, "\(header)")
    #expect(!lines.contains { $0.hasPrefix("floor: plain") }, "the loop is no longer a stage of the stages' child")

    // "write / plain SQLite inserts of the same rows and bytes, in a process of their own = R wall (W against P
    // rows/s; target: 200000 rows/s)"
    let write = try #require(
      lines.first { $0.hasPrefix("write / plain SQLite inserts") && $0.contains("in a process of their own") },
      "\(lines.joined(separator: "\n"))")
    let numbers = BenchHarness.figures(of: write)
    // The two rates and the target, and no digit of the line before them.
    try #require(numbers.count == 3 && numbers[2] == 200_000, "\(write)")
    let (storeRate, plainRate) = (numbers[0], numbers[1])
    #expect(storeRate > 0 && plainRate > 0, "\(write)")
    // Rows of hundreds of bytes, made durable: a rate no SQLite write reaches is a rate of no timing at all.
    #expect(storeRate < 10_000_000 && plainRate < 10_000_000, "\(write)")

    // The run's ratio is to issue 23's floor, the read and that plain loop; the floor of the store's own schema,
    // which inherits its cost, is named so and given no target.
    let text = lines.joined(separator: "\n")
    let peer = try #require(
      lines.first { $0.hasPrefix("end to end / (read floor + plain SQLite inserts of the same rows and bytes) = ") },
      "\(text)")
    #expect(peer.hasSuffix(" wall (target: at most 1.5)"), "\(peer)")
    let ratio = peer.split(separator: "=").last?.split(separator: " ").first.flatMap { Double(String($0)) }
    #expect((ratio ?? 0) > 0, "\(peer)")
    let schema = try #require(
      lines.first { $0.hasPrefix("end to end / (read floor + raw inserts into the store's own schema") }, "\(text)")
    #expect(schema.contains("which inherit its cost") && schema.hasSuffix("(no target)"), "\(schema)")
    #expect(!text.contains("target <= 3"), "\(text)")
  }

  /// An input with no ADAL item gives nothing to time: its rates and ratios would be of nothing (a wall ratio of
  /// 14 against the floors, 0 rows/s), so the benchmark fails and names it.
  @Test func anInputWithoutADALItemsIsAFailureNotFigures() throws {
    let dump = try BenchHarness.dumpWithoutADALItems("pipeline-no-adal")
    let output = try BenchHarness.run(
      ["pipeline", "--input", dump.path, "--skip-dry-run"], workName: "pipeline-no-adal-work")
    #expect(output.exitCode == 1, "\(output.stderr)")
    #expect(
      output.stderr.contains("\(dump.path): adal2msal read no ADAL items from it; nothing to migrate"),
      "\(output.stderr)")
    #expect(!output.stdout.contains("== summary =="), "\(output.stdout)")
  }
}
