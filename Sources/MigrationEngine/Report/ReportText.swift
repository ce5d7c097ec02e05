import Adal2MSALSupport
import Foundation
import UnifiedCache

extension MigrationReport {
  /// The report as plain text for a terminal (80-120 columns), aligned columns. With `colorize` the action
  /// words get ANSI colours (the caller decides whether the output is a terminal).
  public func text(colorize: Bool = false) -> String { rendered(.text, colorize: colorize).text }

  /// The title, the inputs and the summary.
  func textOpening() -> TextLines {
    var out = TextLines()
    out.line(Self.title)
    out.line("planned at \(ReportDate.string(plannedAt))" + (redacted ? ", usernames redacted" : ""))
    if let targetLibrary {
      out.line("keys as \(targetLibrary.displayName) stores them (--for \(targetLibrary.rawValue))")
    }
    if !inputs.isEmpty {
      out.blank()
      out.line("Inputs")
      out.table(
        [["role", "format", "bytes", "sha256", "file"]]
          + inputs.map {
            [$0.role.rawValue, $0.detectedFormat, String($0.byteCount), String($0.sha256.prefix(12)), $0.path]
          },
        indent: 2, rightAligned: [2])
    }
    out.blank()
    out.line("Summary")
    out.table(summaryRows(), indent: 2, rightAligned: Set(1...6))
    return out
  }

  /// The diagnostics, which end the report.
  static func textDiagnostics(_ diagnostics: [Diagnostic]) -> TextLines {
    var out = TextLines()
    out.blank()
    out.line("Diagnostics (\(diagnostics.count))")
    for diagnostic in diagnostics {
      let place = diagnostic.location.map { "\($0): " } ?? ""
      out.wrapped(
        "\(place)\(diagnostic.message) [\(diagnostic.code)]", first: "  \(pad(diagnostic.severity.rawValue, 8)) ",
        rest: spaces(11))
    }
    return out
  }

  /// The text of "Other entries"' entry `index`, with its line for "Skipped and conflicts".
  func textPiece(ofOther index: Int, colorize: Bool) -> ReportPiece {
    var out = TextLines()
    var attention = Attention()
    Self.entries([otherEntries[index]], into: &out, attention: &attention, colorize: colorize)
    return ReportPiece(body: out.takeBytes(), attention: attention.lines.takeBytes(), attentionCount: attention.count)
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

  /// The lines of a section's skips and conflicts, for the report's "Skipped and conflicts".
  private struct Attention {
    var lines = TextLines()
    var count = 0
  }

  /// A user's section (its identity, then its entries), and its skips and conflicts.
  static func textPiece(of user: borrowing UserSection, colorize: Bool) -> ReportPiece {
    // About 630 bytes an entry: sized up front, a section's buffer was copied as it grew.
    var out = TextLines(reservingCapacity: 512 + 640 * user.entries.count)
    out.blank()
    // Written straight into the section's bytes: the facts as an array of String pairs, and their labels
    // padded and joined per user, were most of the allocations of a section.
    out.line {
      $0.appendLiteral("User ")
      $0.appendUTF8(user.username ?? "(no username)")
      guard !user.otherUsernames.isEmpty else { return }
      $0.appendLiteral(" (also ")
      Self.write(user.otherUsernames, to: &$0)
      $0.append(UInt8(ascii: ")"))
    }
    func shows(_ fact: Fact) -> Bool {
      switch fact {
      case .status, .cloud: true
      case .homeAccountID: user.homeAccountID != nil
      case .rule: user.rule != nil
      case .candidates: !user.candidates.isEmpty
      }
    }
    var width = 0
    for fact in Fact.allCases where shows(fact) { width = max(width, fact.label.utf8.count) }
    for fact in Fact.allCases where shows(fact) {
      out.wrapped(first: fact.prefix(width: width), rest: Fact.continuation(width: width)) { text in
        switch fact {
        case .status:
          text.appendUTF8(user.status.rawValue)
          if !user.reason.isEmpty {
            text.appendLiteral(": ")
            text.appendUTF8(user.reason)
          }
        case .homeAccountID: text.appendUTF8(user.homeAccountID ?? "")
        case .rule: text.appendUTF8(user.rule?.rawValue ?? "")
        case .candidates: Self.write(user.candidates, to: &text)
        case .cloud: text.appendUTF8(user.cloud)
        }
      }
    }
    var attention = Attention()
    Self.entries(user.entries, into: &out, attention: &attention, colorize: colorize)
    return ReportPiece(body: out.takeBytes(), attention: attention.lines.takeBytes(), attentionCount: attention.count)
  }

  /// A line of a user's identity: its label, padded to the widest of the section's.
  private enum Fact: Int, CaseIterable {
    case status, homeAccountID, rule, candidates, cloud

    var label: String {
      switch self {
      case .status: "status"
      case .homeAccountID: "home account id"
      case .rule: "identity rule"
      case .candidates: "candidates"
      case .cloud: "cloud"
      }
    }

    /// `label` indented and padded to `width` columns, then two spaces: made once for each width.
    func prefix(width: Int) -> LinePrefix { Self.prefixes[rawValue][width] }

    /// The indent of a fact's wrapped lines, under its value, when labels are `width` wide.
    static func continuation(width: Int) -> LinePrefix { continuations[width] }

    private static let widest = allCases.map(\.label.utf8.count).max() ?? 0
    private static let prefixes = allCases.map { fact in
      (0...widest).map { LinePrefix("  " + pad(fact.label, $0) + "  ") }
    }
    private static let continuations = (0...widest).map { LinePrefix(spaces($0 + 6)) }
  }

  /// Appends `names` joined by ", " as UTF-8.
  private static func write(_ names: [String], to text: inout [UInt8]) {
    for index in names.indices {
      if index > 0 { text.appendLiteral(", ") }
      text.appendUTF8(names[index])
    }
  }

  private static func entries(_ entries: [Entry], into out: inout TextLines, attention: inout Attention, colorize: Bool)
  {
    // Through a buffer pointer, entries are read in place (through the array, each was copied, all its fields
    // retained and released), and the summary is given their parts, not the entry (see `EntrySummary`).
    entries.withUnsafeBufferPointer { entries in
      for index in entries.indices {
        let summary = EntrySummary(
          kind: entries[index].kind, reasonCode: entries[index].reasonCode, sources: entries[index].sources,
          fields: entries[index].fieldReader)
        out.line {
          // The line starts as its entry's line in "Skipped and conflicts" does: action and kind.
          $0.append(contentsOf: Self.entryPrefix(entries[index].action, entries[index].kind, colorize).bytes)
          summary.writeHeadline(to: &$0)
        }
        if summary.hasDetail {
          out.wrapped(first: Self.entryIndent, rest: Self.entryIndent) { summary.writeDetail(to: &$0) }
        }
        if entries[index].keyStyle != nil, let key = entries[index].key {
          out.wrapped(first: Self.keyIndent, rest: Self.continuationIndent) { $0.appendUTF8(key) }
        }
        out.wrapped(first: Self.whyIndent, rest: Self.continuationIndent) {
          Self.writeReason(entries[index].reason, code: entries[index].reasonCode, to: &$0)
        }
        if !entries[index].sources.isEmpty {
          out.wrapped(first: Self.fromIndent, rest: Self.continuationIndent) {
            Self.writeSourceList(entries[index].sources, separator: ", ", to: &$0)
          }
        }
        guard entries[index].action.needsAttention else { continue }
        // About 150 bytes a line: room for a few, or the lines' buffer grew four times from empty.
        if attention.count == 0 { attention.lines = TextLines(reservingCapacity: 512) }
        attention.count += 1
        attention.lines.wrapped(
          first: Self.entryPrefix(entries[index].action, entries[index].kind, colorize),
          rest: Self.attentionIndent
        ) {
          $0.appendUTF8(entries[index].username ?? "-")
          $0.appendLiteral(": ")
          Self.writeReason(entries[index].reason, code: entries[index].reasonCode, to: &$0)
        }
      }
    }
  }

  /// An entry's lines start under its action; its labelled lines' values, and their wrapped lines, line up.
  private static let entryIndentText = spaces(13)
  private static let entryIndent = LinePrefix(entryIndentText)
  private static let whyIndent = LinePrefix(entryIndentText + "why:  ")
  private static let keyIndent = LinePrefix(entryIndentText + "key:  ")
  private static let fromIndent = LinePrefix(entryIndentText + "from: ")
  private static let continuationIndent = LinePrefix(entryIndentText + "      ")
  private static let attentionIndent = LinePrefix(spaces(27))

  /// Appends `reason [code]` as UTF-8 (no String made per entry).
  private static func writeReason(_ reason: String, code: String, to text: inout [UInt8]) {
    text.appendUTF8(reason)
    text.appendLiteral(" [")
    text.appendUTF8(code)
    text.append(UInt8(ascii: "]"))
  }

  /// Appends at most `limit` sources, then how many more (the JSON report lists them all), as UTF-8.
  static func writeSourceList(
    _ sources: [PlanSource], separator: StaticString, limit: Int = 8, to text: inout [UInt8]
  ) {
    for index in sources.indices.prefix(limit) {
      if index > 0 { text.appendLiteral(separator) }
      sources[index].write(to: &text)
    }
    guard sources.count > limit else { return }
    text.appendLiteral(separator)
    text.appendLiteral("and ")
    text.appendDecimal(sources.count - limit)
    text.appendLiteral(" more")
  }

  // The action and kind columns, padded once rather than for every entry.
  // Found by position (a few integer compares): hashing the enum per entry cost more.
  private static let actions = PlanAction.allCases
  private static let kinds = UnifiedEntityKind.allCases
  private static let paddedKinds = kinds.map { pad($0.rawValue, 13) } + [pad("-", 13)]

  private static func kindPosition(_ kind: UnifiedEntityKind?) -> Int {
    kind.flatMap { kinds.firstIndex(of: $0) } ?? paddedKinds.count - 1
  }

  /// The start of an entry's line, and of its line in "Skipped and conflicts": its action (coloured with
  /// `colorize`) and kind, padded.
  private static func entryPrefix(_ action: PlanAction, _ kind: UnifiedEntityKind?, _ colorize: Bool) -> LinePrefix {
    let row = (colorize ? actions.count : 0) + (actions.firstIndex(of: action) ?? 0)
    return entryPrefixes[row * paddedKinds.count + kindPosition(kind)]
  }

  // Made once for each action (and kind), plain and coloured, rather than for every entry.
  private static let actionWords = [false, true].map { colorize in
    actions.map { action in
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
  /// One table, by colour, action and kind: a lookup is one index (nested arrays were three, each
  /// retained and released).
  private static let entryPrefixes = actionWords.joined().flatMap { word in
    paddedKinds.map { LinePrefix("  \(word) \($0) ") }
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
