import Adal2MSALSupport
import UnifiedCache

/// A user's section, or one entry of "Other entries", rendered in one format: its bytes, and its lines (rows
/// in Markdown; nothing in JSON) for "Skipped and conflicts". Pieces are independent: they are made on all
/// cores, or a part of a run at a time, and put in order by `ReportAssembler`.
struct ReportPiece: Sendable {
  var body: [UInt8]
  var attention: [UInt8]
  var attentionCount: Int
}

extension MigrationReport {
  /// User `index`'s section.
  func piece(ofUser index: Int, _ format: ReportFormat, colorize: Bool) -> ReportPiece {
    // Through the buffer pointer the section is read in place, never copied.
    users.withUnsafeBufferPointer { Self.piece(of: $0[index], format, colorize: colorize) }
  }

  /// `user`'s section.
  static func piece(of user: borrowing UserSection, _ format: ReportFormat, colorize: Bool) -> ReportPiece {
    switch format {
    case .text: textPiece(of: user, colorize: colorize).terminalSafe(colorize: colorize)
    case .json: jsonPiece(of: user)
    case .markdown: markdownPiece(of: user).terminalSafe(colorize: false)
    }
  }

  /// Other entry `index`.
  func piece(ofOther index: Int, _ format: ReportFormat, colorize: Bool) -> ReportPiece {
    switch format {
    case .text: textPiece(ofOther: index, colorize: colorize).terminalSafe(colorize: colorize)
    case .json: jsonPiece(ofOther: index)
    case .markdown: markdownPiece(ofOther: index).terminalSafe(colorize: false)
    }
  }
}

extension ReportPiece {
  /// The piece with the control characters of its names and values escaped (`TerminalText`): every user
  /// section and other entry of a text or Markdown report passes here, so a username with ESC or BEL cannot
  /// reach the reader's terminal. JSON escapes them itself.
  func terminalSafe(colorize: Bool) -> ReportPiece {
    ReportPiece(
      body: TerminalText.escaped(bytes: body, keepingColors: colorize),
      attention: TerminalText.escaped(bytes: attention, keepingColors: colorize), attentionCount: attentionCount)
  }
}

/// Writes a report from its parts, which must come in this order: `opening`, every user section, `beginOthers`
/// and every other entry, `beginAttention` and every piece's attention lines (users', then others'), and
/// `end`. The one layout of every report, whole (`MigrationReport.write`) or assembled from parts
/// (`ReportSpool`).
struct ReportAssembler {
  typealias Output = (UnsafeRawBufferPointer) throws -> Void

  let format: ReportFormat
  let colorize: Bool
  /// JSON's writer: it places the commas and the closing brackets between the parts.
  private var json = JSONWriter(indent: 2)

  init(format: ReportFormat, colorize: Bool) {
    self.format = format
    self.colorize = colorize
  }

  /// The title, the inputs and the summary of `report` (its sections are not read).
  mutating func opening(_ report: MigrationReport, to output: Output) rethrows {
    switch format {
    case .text:
      var lines = report.textOpening()
      try TerminalText.escaped(bytes: lines.takeBytes(), keepingColors: false).withUnsafeBytes(output)
    case .json:
      report.jsonOpening(into: &json)
      try MigrationReport.flush(&json, to: output)
    case .markdown:
      try TerminalText.escaped(bytes: report.markdownOpening().bytes, keepingColors: false).withUnsafeBytes(output)
    }
  }

  mutating func section(_ body: [UInt8], to output: Output) rethrows {
    try piece(body, to: output)
  }

  /// Starts "Other entries", which holds `count` entries.
  mutating func beginOthers(count: Int, to output: Output) rethrows {
    switch format {
    case .text:
      guard count > 0 else { return }
      var lines = TextLines()
      lines.blank()
      lines.line("Other entries")
      try lines.flush(to: output)
    case .json:
      json.endArray()
      json.key("otherEntries")
      json.beginArray()
      try MigrationReport.flush(&json, to: output)
    case .markdown: try MigrationReport.markdownOthersHeading(count: count).bytes.withUnsafeBytes(output)
    }
  }

  mutating func other(_ body: [UInt8], to output: Output) rethrows {
    try piece(body, to: output)
  }

  /// Starts "Skipped and conflicts", which lists `count` entries.
  mutating func beginAttention(count: Int, to output: Output) rethrows {
    switch format {
    case .text:
      var lines = TextLines()
      lines.blank()
      lines.line("Skipped and conflicts (\(count))")
      try lines.flush(to: output)
    case .json: break
    case .markdown: try MigrationReport.markdownAttentionHeading(count: count).bytes.withUnsafeBytes(output)
    }
  }

  mutating func attention(_ lines: [UInt8], to output: Output) rethrows {
    guard format != .json else { return }
    try lines.withUnsafeBytes(output)
  }

  /// The diagnostics, and the end of the report.
  mutating func end(diagnostics: [Diagnostic], to output: Output) rethrows {
    switch format {
    case .text:
      var lines = MigrationReport.textDiagnostics(diagnostics)
      try TerminalText.escaped(bytes: lines.takeBytes(), keepingColors: false).withUnsafeBytes(output)
    case .json:
      MigrationReport.jsonClosing(diagnostics, into: &json)
      try MigrationReport.flush(&json, to: output)
    case .markdown:
      try TerminalText.escaped(bytes: MigrationReport.markdownDiagnostics(diagnostics).bytes, keepingColors: false)
        .withUnsafeBytes(output)
    }
  }

  private mutating func piece(_ body: [UInt8], to output: Output) rethrows {
    guard format == .json else { return try body.withUnsafeBytes(output) }
    json.append(valueBytes: body)
    try MigrationReport.flush(&json, to: output)
  }
}
