import Foundation
import Testing
import _Adal2MSALTestSupport

@testable import MigrationEngine

/// A rendered report is written out part by part (`forEachChunk`) and joined on all cores (`text`): both must
/// give the same bytes, in every format, and `byteCount` must be their length.
@Suite struct RenderedReportTests {
  @Test(arguments: Scenario.names)
  func chunksAndTextAgree(_ name: String) throws {
    let report = Migration.report(try Scenario(name).plan())
    for format in ReportFormat.allCases {
      let rendered = report.rendered(format)
      var chunks: [[UInt8]] = []
      rendered.forEachChunk { chunks.append(Array($0)) }
      let written = chunks.flatMap { $0 }
      // Each user section is a part of its own in every format: more than one part is the case under test.
      if !report.users.isEmpty { #expect(chunks.count > 2, "\(name) \(format): \(chunks.count) parts") }
      #expect(written == Array(rendered.text.utf8), "\(name) \(format): the chunks and the joined text differ")
      #expect(rendered.byteCount == written.count, "\(name) \(format)")
      #expect(written.last == UInt8(ascii: "\n"), "\(name) \(format): no final newline")
    }
  }

  /// The public renderers are the joined text of the rendered parts (the golden files pin that text).
  @Test func publicRenderersAreTheJoinedParts() throws {
    let report = Migration.report(try Scenario("two-tenants").plan())
    #expect(report.text() == report.rendered(.text).text)
    #expect(report.text(colorize: true) == report.rendered(.text, colorize: true).text)
    #expect(report.text(colorize: true) != report.text())
    #expect(report.json() == report.rendered(.json).text)
    #expect(report.markdown() == report.rendered(.markdown).text)
  }
}

/// Reports are written a batch of users at a time: the batch size must never change a byte (commas between
/// JSON users, the order of "Skipped and conflicts" lines, section boundaries).
@Suite struct ReportBatchTests {
  @Test(arguments: Scenario.names)
  func batchSizeChangesNothing(_ name: String) throws {
    let report = Migration.report(try Scenario(name).plan())
    for format in ReportFormat.allCases {
      let whole = Array(report.rendered(format, colorize: format == .text).text.utf8)
      for size in [1, 2, 3] {
        var written: [UInt8] = []
        report.write(format, colorize: format == .text, usersPerBatch: size) { written += $0 }
        #expect(written == whole, "\(name) \(format), \(size) users per batch")
      }
    }
  }

  /// `ReportSpool` renders a `SectionedReport`, which makes each user's section as it renders it: it must write
  /// the bytes of the whole model, in every format, with usernames shown or redacted, whatever the batch size.
  @Test(arguments: Scenario.names)
  func sectionsMadeAsRenderedChangeNothing(_ name: String) throws {
    let plan = try Scenario(name).plan()
    for redacted in [false, true] {
      let redact = redacted ? Redactor(plan: plan) : .none
      let whole = MigrationReport(plan: plan, redact: redact, redacted: redacted)
      let sectioned = SectionedReport(plan: plan, redact: redact, redacted: redacted)
      #expect(sectioned.userCount == whole.users.count, "\(name)")
      for format in ReportFormat.allCases {
        let expected = Array(whole.rendered(format, colorize: format == .text).text.utf8)
        for size in [1, 3, MigrationReport.usersPerBatch] {
          var written: [UInt8] = []
          sectioned.write(format, colorize: format == .text, usersPerBatch: size) { written += $0 }
          #expect(written == expected, "\(name) \(format), redacted \(redacted), \(size) users per batch")
        }
      }
    }
  }

  /// The next batch is made while one is written out. When writing fails, the batch being made is waited for:
  /// no work of the call goes on after it has thrown, and nothing is made after the batch that was under way.
  @Test func aFailedWriteLeavesNoBatchBeingMade() {
    struct WriteFailed: Error {}
    let made = LockedCounter()
    #expect(throws: WriteFailed.self) {
      try UserBatches(size: 4).forEach(
        40,
        { index in
          usleep(5_000)  // so that the next batch is still being made when the first write fails
          made.add()
          return index
        }
      ) { _ in throw WriteFailed() }
    }
    let atReturn = made.value
    usleep(100_000)
    #expect(made.value == atReturn)
    #expect(atReturn == 8, "the first batch and the one made beside its write")
  }
}
