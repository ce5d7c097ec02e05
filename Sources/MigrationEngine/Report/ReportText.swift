import Foundation
import UnifiedCache

extension MigrationReport {
  /// The report as plain text for a terminal (80-120 columns), aligned columns. With `colorize` the action
  /// words get ANSI colours (the caller decides whether the output is a terminal).
  public func text(colorize: Bool = false) -> String {
    var out = TextLines()
    out.line("adal2msal migration plan")
    out.line("planned at \(ReportDate.string(plannedAt))" + (redacted ? ", usernames redacted" : ""))
    if !inputs.isEmpty {
      out.blank()
      out.line("Inputs")
      out.table(
        [["role", "format", "bytes", "sha256", "file"]]
          + inputs.map { [$0.role.rawValue, $0.detectedFormat, String($0.byteCount), String($0.sha256.prefix(12)), $0.path] },
        indent: 2, rightAligned: [2])
    }
    out.blank()
    out.line("Summary")
    out.table(summaryRows(), indent: 2, rightAligned: Set(1...6))
    // By index: mapping the sections themselves copied each one (every string retained and released).
    for section in Array(users.indices).orderedParallelMap({ userSection(at: $0, colorize: colorize) }) { out.append(section) }
    if !otherEntries.isEmpty {
      out.blank()
      out.line("Other entries")
      entries(otherEntries, into: &out, colorize: colorize)
    }
    // Per user section, in parallel, reading entries in place.
    let attentionIndent = spaces(27)
    let sections = users.map(\.entries) + [otherEntries]
    let attentionLines = sections.orderedParallelMap(minimumChunk: 64) { entries in
      var lines = TextLines()
      var count = 0
      for index in entries.indices where entries[index].action.needsAttention {
        count += 1
        lines.wrapped(
          first: "  \(action(entries[index].action, colorize)) \(pad(entries[index].kind?.rawValue ?? "-", 13)) ",
          rest: attentionIndent
        ) {
          $0.append(contentsOf: (entries[index].username ?? "-").utf8)
          $0.append(contentsOf: ": ".utf8)
          Self.writeReason(entries[index].reason, code: entries[index].reasonCode, to: &$0)
        }
      }
      return (lines: lines, count: count)
    }
    out.blank()
    out.line("Skipped and conflicts (\(attentionLines.reduce(0) { $0 + $1.count }))")
    for section in attentionLines { out.append(section.lines) }
    out.blank()
    out.line("Diagnostics (\(diagnostics.count))")
    for diagnostic in diagnostics {
      let place = diagnostic.location.map { "\($0): " } ?? ""
      out.wrapped(
        "\(place)\(diagnostic.message) [\(diagnostic.code)]", first: "  \(pad(diagnostic.severity.rawValue, 8)) ",
        rest: spaces(11))
    }
    return out.text
  }

  func summaryRows() -> [[String]] {
    var rows = [["kind"] + PlanAction.allCases.map(\.rawValue) + ["total"]]
    let kinds: [UnifiedEntityKind?] = UnifiedEntityKind.allCases.sorted { $0.planOrder < $1.planOrder } + [nil]
    for kind in kinds {
      let counts = kindCounts[kind] ?? [:]
      if kind == nil, counts.isEmpty { continue }
      let values = PlanAction.allCases.map { counts[$0] ?? 0 }
      rows.append([kind?.rawValue ?? "(items)"] + values.map(String.init) + [String(values.reduce(0, +))])
    }
    let totals = PlanAction.allCases.map { actionCounts[$0] ?? 0 }
    rows.append(["total"] + totals.map(String.init) + [String(totals.reduce(0, +))])
    return rows
  }

  /// One user's section: its identity, then its entries.
  private func userSection(at index: Int, colorize: Bool) -> TextLines {
    users.withUnsafeBufferPointer { users in
      // The section is read in place through the buffer pointer, never copied.
      var out = TextLines()
      out.blank()
      out.line(
        "User \(users[index].username ?? "(no username)")"
          + (users[index].otherUsernames.isEmpty ? "" : " (also \(users[index].otherUsernames.joined(separator: ", ")))"))
      var facts: [[String]] = []
      facts.append(["status", users[index].status.rawValue + (users[index].reason.isEmpty ? "" : ": \(users[index].reason)")])
      if let home = users[index].homeAccountID { facts.append(["home account id", home]) }
      if let rule = users[index].rule { facts.append(["identity rule", rule.rawValue]) }
      if !users[index].candidates.isEmpty { facts.append(["candidates", users[index].candidates.joined(separator: ", ")]) }
      facts.append(["cloud", users[index].cloud])
      let width = facts.map { $0[0].count }.max() ?? 0
      for fact in facts {
        out.wrapped(fact[1], first: "  " + pad(fact[0], width) + "  ", rest: spaces(width + 6))
      }
      entries(users[index].entries, into: &out, colorize: colorize)
      return out
    }
  }

  private func entries(_ entries: [Entry], into out: inout TextLines, colorize: Bool) {
    // Through a buffer pointer, entries are read in place: through the array, each was copied (all its fields
    // retained and released) to call `summary()` on it.
    entries.withUnsafeBufferPointer { entries in
      for index in entries.indices {
        let (headline, detail) = entries[index].summary()
        out.line("  ", action(entries[index].action, colorize), " ", pad(entries[index].kind?.rawValue ?? "-", 13), " ", headline)
        let indent = Self.entryIndent
        if !detail.isEmpty { out.wrapped(detail, first: indent, rest: indent) }
        out.wrapped(first: Self.whyIndent, rest: Self.continuationIndent) {
          Self.writeReason(entries[index].reason, code: entries[index].reasonCode, to: &$0)
        }
        if !entries[index].sources.isEmpty {
          out.wrapped(first: Self.fromIndent, rest: Self.continuationIndent) {
            Self.writeSourceList(entries[index].sources, separator: ", ", to: &$0)
          }
        }
      }
    }
  }

  private static let entryIndent = spaces(13)
  private static let whyIndent = entryIndent + "why:  "
  private static let fromIndent = entryIndent + "from: "
  private static let continuationIndent = entryIndent + "      "

  /// Appends `reason [code]` as UTF-8 (no String made per entry).
  private static func writeReason(_ reason: String, code: String, to text: inout [UInt8]) {
    text.append(contentsOf: reason.utf8)
    text.append(contentsOf: " [".utf8)
    text.append(contentsOf: code.utf8)
    text.append(UInt8(ascii: "]"))
  }

  /// Appends at most `limit` sources, then how many more (the JSON report lists them all), as UTF-8.
  static func writeSourceList(_ sources: [PlanSource], separator: String, limit: Int = 8, to text: inout [UInt8]) {
    for index in sources.indices.prefix(limit) {
      if index > 0 { text.append(contentsOf: separator.utf8) }
      sources[index].write(to: &text)
    }
    if sources.count > limit { text.append(contentsOf: "\(separator)and \(sources.count - limit) more".utf8) }
  }

  private func action(_ action: PlanAction, _ colorize: Bool) -> String {
    let word = pad(action.rawValue, 10)
    guard colorize else { return word }
    let code =
      switch action {
      case .add: "32"
      case .update: "33"
      case .unchanged: "2"
      case .conflict: "31"
      case .skip: "35"
      }
    return "\u{1B}[\(code)m\(word)\u{1B}[0m"
  }
}

func pad(_ text: String, _ width: Int) -> String {
  let count = text.utf8.allSatisfy { $0 < 0x80 } ? text.utf8.count : text.count
  guard count < width else { return text }
  return text + spaces(width - count)
}

/// `count` spaces; the short runs (padding, indents) are made once.
func spaces(_ count: Int) -> String {
  count < spaceRuns.count ? spaceRuns[count] : String(repeating: " ", count: count)
}

private let spaceRuns = (0..<32).map { String(repeating: " ", count: $0) }

extension MigrationReport.Entry {
  /// A headline (what the entity is) and a detail line (its other fields), for the text and Markdown reports.
  /// A method, so that the text report calls it on entries in place (an argument was a copy of the entry).
  func summary() -> (String, String) {
    // The fields alone are captured: capturing `self` copied the entry.
    let fields = fields
    func f(_ name: String) -> String { Self.value(of: name, in: fields) ?? "-" }
    let family = Self.value(of: "family_id", in: fields).map { ", family \($0)" } ?? ""
    guard !fields.isEmpty else {
      return (kind == nil ? reasonCode : (sources.first?.label ?? "-"), "")
    }
    switch kind {
    case .account?:
      return (f("username"), "realm \(f("realm")), \(f("authority_type")), at \(f("environment"))")
    case .refreshToken?:
      return ("client \(f("client_id"))\(family)", "at \(f("environment")), secret \(f("secret"))")
    case .accessToken?:
      let expires = Self.value(of: "expires_on", in: fields).flatMap(Double.init)
        .map { ReportDate.string(Date(timeIntervalSince1970: $0)) }
      return (f("target"), "realm \(f("realm")), expires \(expires ?? "-"), secret \(f("secret"))")
    case .idToken?:
      return ("client \(f("client_id"))", "realm \(f("realm")), secret \(f("secret"))")
    case .appMetadata?:
      return ("client \(f("client_id"))", "at \(f("environment"))\(family)")
    case nil:
      return (reasonCode, "")
    }
  }

}
