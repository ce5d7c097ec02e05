import Adal2MSALSupport
import Foundation
import UnifiedCache

extension MigrationReport {
  /// The report as GitHub-flavoured Markdown: a summary table, a table per user, the skips and conflicts,
  /// and the diagnostics.
  public func markdown() -> String {
    var out: [String] = ["# adal2msal migration plan", ""]
    out.append("Planned at \(ReportDate.string(plannedAt))" + (redacted ? "; usernames redacted." : "."))
    if !inputs.isEmpty {
      out += ["", "## Inputs", ""]
      out += table(
        ["Role", "Format", "Bytes", "SHA-256", "File"],
        inputs.map { [$0.role.rawValue, $0.detectedFormat, String($0.byteCount), code(String($0.sha256.prefix(12))), code($0.path)] })
    }
    out += ["", "## Summary", ""]
    let rows = summaryRows()
    out += table(["Kind"] + (rows.first ?? []).dropFirst(), Array(rows.dropFirst()))
    for user in users {
      out += ["", "## User \(code(user.username ?? "(no username)"))", ""]
      if !user.otherUsernames.isEmpty { out.append("- Also seen as: \(user.otherUsernames.map(code).joined(separator: ", "))") }
      out.append("- Status: \(user.status.rawValue)" + (user.reason.isEmpty ? "" : " (\(escape(user.reason)))"))
      if let home = user.homeAccountID { out.append("- Home account id: \(code(home))") }
      if let rule = user.rule { out.append("- Identity rule: \(code(rule.rawValue))") }
      if !user.candidates.isEmpty { out.append("- Candidates: \(user.candidates.map(code).joined(separator: ", "))") }
      out.append("- Cloud: \(code(user.cloud))")
      if !user.entries.isEmpty {
        out.append("")
        out += entryTable(user.entries)
      }
    }
    if !otherEntries.isEmpty {
      out += ["", "## Other entries", ""]
      out += entryTable(otherEntries)
    }
    let attention = skipsAndConflicts
    out += ["", "## Skipped and conflicts (\(attention.count))", ""]
    if !attention.isEmpty {
      out += table(
        ["Action", "Kind", "User", "Reason", "Sources"],
        attention.map {
          [$0.action.rawValue, $0.kind?.rawValue ?? "-", $0.username.map(code) ?? "-",
           escape($0.reason) + " " + code($0.reasonCode), sources($0)]
        })
    }
    out += ["", "## Diagnostics (\(diagnostics.count))", ""]
    if !diagnostics.isEmpty {
      out += table(
        ["Severity", "Code", "Location", "Message"],
        diagnostics.map {
          [$0.severity.rawValue, code($0.code), escape($0.location?.description ?? "-"), escape($0.message)]
        })
    }
    return out.joined(separator: "\n") + "\n"
  }

  private func entryTable(_ entries: [Entry]) -> [String] {
    table(
      ["Action", "Kind", "Entity", "Reason", "Sources"],
      entries.map {
        [$0.action.rawValue, $0.kind?.rawValue ?? "-", escape(Self.markdownSummary($0)),
         escape($0.reason) + " " + code($0.reasonCode), sources($0)]
      })
  }

  private static func markdownSummary(_ entry: Entry) -> String {
    let (headline, detail) = summary(entry)
    return detail.isEmpty ? headline : "\(headline)<br>\(detail)"
  }

  private func sources(_ entry: Entry) -> String {
    entry.sources.isEmpty ? "-" : escape(Self.sourceList(entry.sources, separator: "<br>"))
  }

  private func table(_ header: [String], _ rows: [[String]]) -> [String] {
    ["| " + header.joined(separator: " | ") + " |", "|" + header.map { _ in "---|" }.joined()]
      + rows.map { "| " + $0.joined(separator: " | ") + " |" }
  }

  private func code(_ text: String) -> String { "`" + text.replacingOccurrences(of: "`", with: "'") + "`" }

  private func escape(_ text: String) -> String {
    text.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\n", with: " ")
  }
}
