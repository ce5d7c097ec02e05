import Adal2MSAL
import ArgumentParser
import Foundation

/// `--report`, `--report-format`, `--redact-usernames`: where the diff report goes and how it looks.
struct ReportOptions: ParsableArguments {
  enum Format: String, ExpressibleByArgument, CaseIterable {
    case text, json, markdown
  }

  @Option(help: ArgumentHelp("Write the report to this file (mode 0600) instead of standard output.", valueName: "file"))
  var report: String?

  @Option(help: "Report format: text (the default; coloured on a terminal unless NO_COLOR is set), json or markdown.")
  var reportFormat: Format = .text

  @Flag(help: "Replace usernames and account ids in the report with stable hashes, for reports that leave the team.")
  var redactUsernames = false

  /// The report in the chosen format (coloured only for a terminal on standard output).
  func render(_ report: MigrationReport) -> String {
    switch reportFormat {
    case .text: report.text(colorize: self.report == nil && Terminal.colorOnStandardOutput)
    case .json: report.json()
    case .markdown: report.markdown()
    }
  }

  /// Writes a rendered report to the file (mode 0600) or standard output.
  func write(_ rendered: String) throws {
    if let path = self.report {
      try StoreCommandSupport.writeOwnerOnly(Data(rendered.utf8), to: path)
    } else {
      FileHandle.standardOutput.write(Data(rendered.utf8))
    }
  }
}
