import Adal2MSAL
import ArgumentParser
import Foundation

/// `--report`, `--report-format`, `--redact-usernames`: where the full report goes and how it looks.
struct ReportOptions: ParsableArguments {
  @Option(
    help: ArgumentHelp(
      "Write the full report (every entry with its action, reason and sources) to this file (mode 0600); `-` is standard output. By default it goes to standard output on a dry run and nowhere otherwise.",
      valueName: "file"), transform: PathArgument.nonEmpty)
  var report: String?

  @Option(help: "Report format: text (the default; coloured on a terminal unless NO_COLOR is set), json or markdown.")
  var reportFormat: ReportFormat = .text

  @Flag(
    help:
      "Replace usernames, display names and account ids (also the uid inside client_info) in the report (and in the summary on standard error) with stable hashes, for reports that leave the team."
  )
  var redactUsernames = false

  /// Where the report goes: the file, standard output for `-` or by default on a dry run, else nowhere.
  func destination(dryRun: Bool) -> ReportDestination {
    switch report {
    case nil: dryRun ? Self.standardOutput : .none
    case "-": Self.standardOutput
    case let path?: .file(path)
    }
  }

  /// Coloured only for text on a terminal.
  func colorize(dryRun: Bool) -> Bool {
    guard reportFormat == .text, case .stream = destination(dryRun: dryRun) else { return false }
    return Terminal.colorOnStandardOutput
  }

  private static let standardOutput = ReportDestination.stream { try Terminal.standardOutput($0, what: "the report") }
}

extension ReportFormat: ExpressibleByArgument {}
