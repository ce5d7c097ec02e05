import Foundation
import Testing
import _Adal2MSALTestSupport

@testable import Adal2MSAL

/// A run of one part whose report goes to a file holds the part for the report (`OnlyPart.heldUntilStaged`):
/// the report is rendered whole from it while it is written, instead of set aside in a temporary file and read
/// back. The part reaches the writer only once the report is staged, and the report is the same, byte for byte.
@Suite struct OnlyPartReportTests {
  /// Plans the multi-user dump as one part with `onlyPart`; returns the parts the writer got during planning,
  /// all it got, and the report file's bytes.
  func run(_ onlyPart: PartedMigration.OnlyPart, redact: Bool, in dir: URL) async throws -> (
    duringPlanning: Int, written: Int, report: Data
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
    try staged.finish()
    try staged.publish()
    return (duringPlanning, written.count, try Data(contentsOf: URL(fileURLWithPath: path)))
  }

  @Test(arguments: [false, true])
  func theHeldPartIsWrittenAfterStagingAndReportsTheSame(redact: Bool) async throws {
    let dir = try Fixtures.temporaryDirectory("only-part")
    let whileWritten = try await run(.renderedWhileWritten, redact: redact, in: dir)
    let held = try await run(.heldUntilStaged, redact: redact, in: dir)
    #expect(whileWritten.duringPlanning == 1 && whileWritten.written == 1)
    #expect(held.duringPlanning == 0, "the part went to the writer before the report was staged")
    #expect(held.written == 1)
    #expect(held.report.count > 1_000)
    // Without `==`, whose failure message diffs the bytes (minutes for a report this size).
    #expect(held.report.elementsEqual(whileWritten.report))
  }
}
