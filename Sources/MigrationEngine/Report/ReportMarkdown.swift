import Adal2MSALSupport
import Foundation
import UnifiedCache

extension MigrationReport {
  /// The report as GitHub-flavoured Markdown: a summary table, a table per user, the skips and conflicts,
  /// and the diagnostics.
  public func markdown() -> String { rendered(.markdown).text }

  /// A user's section, with its rows for "Skipped and conflicts".
  static func markdownPiece(of user: borrowing UserSection) -> ReportPiece {
    let (rows, count) = attentionRows(user.entries)
    return ReportPiece(body: userSection(user).bytes, attention: rows, attentionCount: count)
  }

  /// The row of "Other entries"' entry `index`, with its row for "Skipped and conflicts".
  func markdownPiece(ofOther index: Int) -> ReportPiece {
    var out = MarkdownText()
    Self.entryRow(otherEntries[index], into: &out)
    let (rows, count) = Self.attentionRows([otherEntries[index]])
    return ReportPiece(body: out.bytes, attention: rows, attentionCount: count)
  }

  /// The heading of "Other entries" (nothing when there are none).
  static func markdownOthersHeading(count: Int) -> MarkdownText {
    var out = MarkdownText()
    guard count > 0 else { return out }
    out.line()
    out.line("## Other entries")
    out.line()
    out.tableHeader(entryColumns)
    return out
  }

  /// The heading of "Skipped and conflicts".
  static func markdownAttentionHeading(count: Int) -> MarkdownText {
    var out = MarkdownText()
    out.line()
    out.line("## Skipped and conflicts (\(count))")
    out.line()
    if count > 0 { out.tableHeader(["Action", "Kind", "User", "Reason", "Sources"]) }
    return out
  }

  private static func attentionRows(_ entries: [Entry]) -> (rows: [UInt8], count: Int) {
    var out = MarkdownText()
    var count = 0
    for index in entries.indices where entries[index].action.needsAttention {
      count += 1
      out.startRow()
      actionAndKind(entries[index], into: &out)
      if let username = entries[index].username { out.code(username) } else { out.append("-") }
      out.nextCell()
      reasonAndSources(entries[index], into: &out)
      out.endRow()
    }
    return (out.bytes, count)
  }

  /// The title, the inputs and the summary.
  func markdownOpening() -> MarkdownText {
    var out = MarkdownText()
    out.line("# " + Self.title)
    out.line()
    out.line("Planned at \(ReportDate.string(plannedAt))" + (redacted ? "; usernames redacted." : "."))
    if let targetLibrary {
      out.line()
      out.line("Keys as \(targetLibrary.displayName) stores them (`--for \(targetLibrary.rawValue)`).")
    }
    if !inputs.isEmpty {
      out.line()
      out.line("## Inputs")
      out.line()
      out.tableHeader(["Role", "Format", "Bytes", "SHA-256", "File"])
      for input in inputs {
        out.startRow()
        out.append("\(input.role.rawValue) | \(input.detectedFormat) | \(input.byteCount) | ")
        out.code(String(input.sha256.prefix(12)))
        out.nextCell()
        out.code(input.path)
        out.endRow()
      }
    }
    out.line()
    out.line("## Summary")
    out.line()
    let rows = summaryRows()
    out.tableHeader(["Kind"] + (rows.first ?? []).dropFirst())
    for row in rows.dropFirst() { out.row(row) }
    return out
  }

  /// The diagnostics, which end the report.
  static func markdownDiagnostics(_ diagnostics: [Diagnostic]) -> MarkdownText {
    var out = MarkdownText()
    out.line()
    out.line("## Diagnostics (\(diagnostics.count))")
    out.line()
    if !diagnostics.isEmpty {
      out.tableHeader(["Severity", "Code", "Location", "Message"])
      for diagnostic in diagnostics {
        out.startRow()
        out.append(diagnostic.severity.rawValue)
        out.nextCell()
        out.code(diagnostic.code)
        out.nextCell()
        out.escaped(diagnostic.location?.description ?? "-")
        out.nextCell()
        out.escaped(diagnostic.message)
        out.endRow()
      }
    }
    return out
  }

  /// One user's section: a blank line, its heading, its facts, its entries.
  private static func userSection(_ user: borrowing UserSection) -> MarkdownText {
    var out = MarkdownText()
    out.line()
    out.codeLine("## User ", user.username ?? "(no username)")
    out.line()
    if !user.otherUsernames.isEmpty { out.codesLine("- Also seen as: ", user.otherUsernames) }
    out.append("- Status: \(user.status.rawValue)")
    if !user.reason.isEmpty {
      out.append(" (")
      out.escaped(user.reason)
      out.append(")")
    }
    out.line()
    if let home = user.homeAccountID { out.codeLine("- Home account id: ", home) }
    if let rule = user.rule { out.codeLine("- Identity rule: ", rule.rawValue) }
    if !user.candidates.isEmpty { out.codesLine("- Candidates: ", user.candidates) }
    out.codeLine("- Cloud: ", user.cloud)
    if !user.entries.isEmpty {
      out.line()
      entryTable(user.entries, into: &out)
    }
    return out
  }

  private static let entryColumns = ["Action", "Kind", "Entity", "Reason", "Sources"]

  private static func entryTable(_ entries: [Entry], into out: inout MarkdownText) {
    out.tableHeader(entryColumns)
    // By index: binding each entry to a local copies all its fields.
    for index in entries.indices { entryRow(entries[index], into: &out) }
  }

  private static func entryRow(_ entry: borrowing Entry, into out: inout MarkdownText) {
    out.startRow()
    actionAndKind(entry, into: &out)
    let (headline, detail) = entry.summary()
    // Escaped apart: "<br>" between them holds nothing to escape and keeps their characters apart.
    out.escaped(headline)
    if !detail.isEmpty {
      out.append("<br>")
      out.escaped(detail)
    }
    if entry.keyStyle != nil, let key = entry.key {
      out.append("<br>key ")
      out.code(key)
    }
    out.nextCell()
    reasonAndSources(entry, into: &out)
    out.endRow()
  }

  /// The first two cells of an entry row.
  private static func actionAndKind(_ entry: borrowing Entry, into out: inout MarkdownText) {
    out.append(entry.action.rawValue)
    out.nextCell()
    out.append(entry.kind?.rawValue ?? "-")
    out.nextCell()
  }

  /// The last two cells of an entry row.
  private static func reasonAndSources(_ entry: borrowing Entry, into out: inout MarkdownText) {
    out.escaped(entry.reason)
    out.append(" ")
    out.code(entry.reasonCode)
    out.nextCell()
    if entry.sources.isEmpty {
      out.append("-")
    } else {
      out.escaped { writeSourceList(entry.sources, separator: "<br>", to: &$0) }
    }
  }
}
