import Adal2MSAL
import ArgumentParser
import Foundation

/// `--report`, `--report-format`, `--redact-usernames`: where the diff report goes and how it looks.
struct ReportOptions: ParsableArguments {
  @Option(help: ArgumentHelp("Write the report to this file (mode 0600) instead of standard output.", valueName: "file"))
  var report: String?

  @Option(help: "Report format: text (the default; coloured on a terminal unless NO_COLOR is set), json or markdown.")
  var reportFormat: ReportFormat = .text

  @Flag(help: "Replace usernames and account ids in the report with stable hashes, for reports that leave the team.")
  var redactUsernames = false

  /// Writes the report to the file (mode 0600, atomically) or to standard output as it is made: a large
  /// report is never held whole (a million items make about a gigabyte of text).
  func write(_ report: MigrationReport) throws {
    try output { write in try report.write(reportFormat, colorize: colorize, to: write) }
  }

  /// The report held in parts, for output that must wait (standard output after the store is written).
  func render(_ report: MigrationReport) -> RenderedReport {
    report.rendered(reportFormat, colorize: colorize)
  }

  /// Writes a held report to the file or standard output.
  func write(_ rendered: RenderedReport) throws {
    try output { write in try rendered.forEachChunk(write) }
  }

  /// Coloured only for text on a terminal.
  private var colorize: Bool { reportFormat == .text && report == nil && Terminal.colorOnStandardOutput }

  /// Hands `produce` the function that writes to the report's file or standard output.
  private func output(_ produce: (_ write: (UnsafeRawBufferPointer) throws -> Void) throws -> Void) throws {
    guard let path = report else {
      return try produce { try FileHandle.standardOutput.write(contentsOf: $0) }
    }
    do {
      try StoreCommandSupport.writeOwnerOnly(to: path, produce)
    } catch {
      throw StoreCommandSupport.fail(
        "cannot write the report (\(error))", file: path, todo: "check that the directory exists and is writable")
    }
  }
}

extension ReportFormat: ExpressibleByArgument {}
