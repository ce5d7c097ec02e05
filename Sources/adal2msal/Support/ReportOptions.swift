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

  /// Renders the report and writes it to the file or standard output.
  func emit(_ report: MigrationReport) throws {
    let toTerminal = self.report == nil && Terminal.colorOnStandardOutput
    let rendered: String
    switch reportFormat {
    case .text: rendered = report.text(colorize: toTerminal)
    case .json: rendered = report.json()
    case .markdown: rendered = report.markdown()
    }
    if let path = self.report {
      try StoreCommandSupport.writeOwnerOnly(Data(rendered.utf8), to: path)
    } else {
      FileHandle.standardOutput.write(Data(rendered.utf8))
    }
  }
}
