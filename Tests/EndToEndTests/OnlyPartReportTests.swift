import Foundation
import Testing
import _Adal2MSALTestSupport

@testable import Adal2MSAL
@testable import MigrationEngine

/// A run of one part whose report goes to a file holds the part for the report (`OnlyPart.heldUntilStaged`):
/// the report is rendered whole from it while it is written, instead of set aside in a temporary file and read
/// back. The part reaches the writer only once the report is staged, with the rest merged into it, and the
/// report and what the writer gets are the same, byte for byte and entry for entry.
@Suite struct OnlyPartReportTests {
  /// Plans the multi-user dump as one part with `onlyPart`; returns the plans the writer got during planning,
  /// all it got (the rest last, when the writer gets it on its own), and the report file's bytes.
  func run(_ onlyPart: PartedMigration.OnlyPart, redact: Bool, in dir: URL) async throws -> (
    duringPlanning: Int, written: [MigrationPlan], report: Data
  ) {
    var options = MigrationOptions(clock: .fixed(Date(timeIntervalSince1970: 1_790_000_000)))
    options.redactUsernames = redact
    let pipeline = MigrationPipeline(options: options)
    let dump = Fixtures.url("adal/dump-multiuser.bplist").path
    var index = try await pipeline.index(adal: [dump], msal: [], keepingAtMost: 100_000, itemsPerPart: 25_000)
    index.partition(existing: UnifiedCacheContents(), maxItems: 25_000)
    #expect(index.isOnePart)
    let path = dir.appendingPathComponent("\(onlyPart)-\(redact).txt").path
    var run = PartedMigration(
      pipeline: pipeline, index: index, existing: UnifiedCacheContents(), itemsPerPart: 25_000,
      report: ReportWriting(destination: .file(path), format: .text, colorize: false), progress: nil)
    var written: [MigrationPlan] = []
    let rest = try run.plan(onlyPart: onlyPart) { written.append($0) }
    let duringPlanning = written.count
    let stagedReport = run.stageReport(rest)
    let staged = try #require(stagedReport)
    try run.writeHeldPart { written.append($0) }
    try run.writeRest(rest) { written.append($0) }
    try staged.finish()
    try staged.publish()
    return (duringPlanning, written, try Data(contentsOf: URL(fileURLWithPath: path)))
  }

  /// What the writer is given, entry by entry, in the order given.
  func entries(_ plans: [MigrationPlan]) -> [String] {
    plans.flatMap { $0.entries.map { "\($0.action) \($0.kind.map { "\($0)" } ?? "-") \($0.canonicalKey ?? "-")" } }
  }

  @Test(arguments: [false, true])
  func theHeldPartIsWrittenAfterStagingAndReportsTheSame(redact: Bool) async throws {
    let dir = try Fixtures.temporaryDirectory("only-part")
    let whileWritten = try await run(.renderedWhileWritten, redact: redact, in: dir)
    let held = try await run(.heldUntilStaged, redact: redact, in: dir)
    #expect(whileWritten.duringPlanning == 1 && whileWritten.written.count == 2)
    #expect(held.duringPlanning == 0, "the part went to the writer before the report was staged")
    // The rest merged into the part, in plan order: the same entries as the part and then the rest.
    #expect(held.written.count == 1)
    let (part, rest) = (whileWritten.written[0], whileWritten.written[1])
    #expect(!rest.entries.isEmpty, "the fixture's rest has entries to merge")
    #expect(entries(held.written) == entries([part.merged(with: rest)]))
    #expect(held.report.count > 1_000)
    // Without `==`, whose failure message diffs the bytes (minutes for a report this size).
    #expect(held.report.elementsEqual(whileWritten.report))
  }
}
