import Adal2MSALSupport
import Foundation
import UnifiedCache

extension MigrationReport {
  /// The report as GitHub-flavoured Markdown: a summary table, a table per user, the skips and conflicts,
  /// and the diagnostics.
  public func markdown() -> String { rendered(.markdown).text }

  func writeMarkdown(batches: UserBatches, to output: (UnsafeRawBufferPointer) throws -> Void) rethrows {
    try opening().bytes.withUnsafeBytes(output)
    // Users are independent: their sections are made on all cores, and written out a batch at a time.
    try batches.forEach(users.count, { Self.userSection(users[$0]).bytes }) { sections in
      for section in sections { try section.withUnsafeBytes(output) }
    }
    try closing().bytes.withUnsafeBytes(output)
  }

  /// The title, the inputs and the summary.
  private func opening() -> MarkdownText {
    var out = MarkdownText()
    out.line("# adal2msal migration plan")
    out.line()
    out.line("Planned at \(ReportDate.string(plannedAt))" + (redacted ? "; usernames redacted." : "."))
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

  /// The other entries, the skips and conflicts, and the diagnostics.
  private func closing() -> MarkdownText {
    var out = MarkdownText()
    if !otherEntries.isEmpty {
      out.line()
      out.line("## Other entries")
      out.line()
      Self.entryTable(otherEntries, into: &out)
    }
    let attention = skipsAndConflicts
    out.line()
    out.line("## Skipped and conflicts (\(attention.count))")
    out.line()
    if !attention.isEmpty {
      out.tableHeader(["Action", "Kind", "User", "Reason", "Sources"])
      for index in attention.indices {
        out.startRow()
        Self.actionAndKind(attention[index], into: &out)
        if let username = attention[index].username { out.code(username) } else { out.append("-") }
        out.nextCell()
        Self.reasonAndSources(attention[index], into: &out)
        out.endRow()
      }
    }
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
  private static func userSection(_ user: UserSection) -> MarkdownText {
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

  private static func entryTable(_ entries: [Entry], into out: inout MarkdownText) {
    out.tableHeader(["Action", "Kind", "Entity", "Reason", "Sources"])
    // By index: binding each entry to a local copies all its fields.
    for index in entries.indices {
      out.startRow()
      actionAndKind(entries[index], into: &out)
      let (headline, detail) = entries[index].summary()
      // Escaped apart: "<br>" between them holds nothing to escape and keeps their characters apart.
      out.escaped(headline)
      if !detail.isEmpty {
        out.append("<br>")
        out.escaped(detail)
      }
      out.nextCell()
      reasonAndSources(entries[index], into: &out)
      out.endRow()
    }
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
