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
    for section in users.orderedParallelMap({ userSection($0, colorize: colorize) }) { out.append(section) }
    if !otherEntries.isEmpty {
      out.blank()
      out.line("Other entries")
      entries(otherEntries, into: &out, colorize: colorize)
    }
    // Per user section, in parallel, reading entries in place.
    let attentionIndent = String(repeating: " ", count: 27)
    let sections = users.map(\.entries) + [otherEntries]
    let attentionLines = sections.orderedParallelMap(minimumChunk: 64) { entries in
      var lines = TextLines()
      var count = 0
      for index in entries.indices where entries[index].action.needsAttention {
        count += 1
        lines.wrapped(
          "\(entries[index].username ?? "-"): \(entries[index].reason) [\(entries[index].reasonCode)]",
          first: "  \(action(entries[index].action, colorize)) \(pad(entries[index].kind?.rawValue ?? "-", 13)) ",
          rest: attentionIndent)
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
        rest: String(repeating: " ", count: 11))
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
  private func userSection(_ user: UserSection, colorize: Bool) -> TextLines {
    var out = TextLines()
    out.blank()
    out.line("User \(user.username ?? "(no username)")" + (user.otherUsernames.isEmpty ? "" : " (also \(user.otherUsernames.joined(separator: ", ")))"))
    var facts: [[String]] = []
    facts.append(["status", user.status.rawValue + (user.reason.isEmpty ? "" : ": \(user.reason)")])
    if let home = user.homeAccountID { facts.append(["home account id", home]) }
    if let rule = user.rule { facts.append(["identity rule", rule.rawValue]) }
    if !user.candidates.isEmpty { facts.append(["candidates", user.candidates.joined(separator: ", ")]) }
    facts.append(["cloud", user.cloud])
    let width = facts.map { $0[0].count }.max() ?? 0
    for fact in facts {
      out.wrapped(fact[1], first: "  " + pad(fact[0], width) + "  ", rest: String(repeating: " ", count: width + 6))
    }
    entries(user.entries, into: &out, colorize: colorize)
    return out
  }

  private func entries(_ entries: [Entry], into out: inout TextLines, colorize: Bool) {
    // Entries are read in place (`entries[index]`): binding each to a local copied all its fields.
    for index in entries.indices {
      let (headline, detail) = Self.summary(entries[index])
      out.line("  \(action(entries[index].action, colorize)) \(pad(entries[index].kind?.rawValue ?? "-", 13)) \(headline)")
      let indent = Self.entryIndent
      if !detail.isEmpty { out.wrapped(detail, first: indent, rest: indent) }
      out.wrapped("\(entries[index].reason) [\(entries[index].reasonCode)]", first: Self.whyIndent, rest: Self.continuationIndent)
      if !entries[index].sources.isEmpty {
        out.wrapped(Self.sourceList(entries[index].sources, separator: ", "), first: Self.fromIndent, rest: Self.continuationIndent)
      }
    }
  }

  private static let entryIndent = String(repeating: " ", count: 13)
  private static let whyIndent = entryIndent + "why:  "
  private static let fromIndent = entryIndent + "from: "
  private static let continuationIndent = entryIndent + "      "

  /// At most `limit` sources, then how many more (the JSON report lists them all).
  static func sourceList(_ sources: [PlanSource], separator: String, limit: Int = 8) -> String {
    var text = ""
    for index in sources.indices.prefix(limit) {
      if index > 0 { text += separator }
      sources[index].write(to: &text)
    }
    if sources.count > limit { text += "\(separator)and \(sources.count - limit) more" }
    return text
  }

  /// A headline (what the entity is) and a detail line (its other fields) for an entry.
  static func summary(_ entry: borrowing Entry) -> (String, String) {
    // The fields alone are captured: capturing `entry` copied every entry.
    let fields = entry.fields
    func f(_ name: String) -> String { Entry.value(of: name, in: fields) ?? "-" }
    let family = Entry.value(of: "family_id", in: fields).map { ", family \($0)" } ?? ""
    guard !fields.isEmpty else {
      return (entry.kind == nil ? entry.reasonCode : (entry.sources.first?.label ?? "-"), "")
    }
    switch entry.kind {
    case .account?:
      return (f("username"), "realm \(f("realm")), \(f("authority_type")), at \(f("environment"))")
    case .refreshToken?:
      return ("client \(f("client_id"))\(family)", "at \(f("environment")), secret \(f("secret"))")
    case .accessToken?:
      let expires = Entry.value(of: "expires_on", in: fields).flatMap(Double.init)
        .map { ReportDate.string(Date(timeIntervalSince1970: $0)) }
      return (f("target"), "realm \(f("realm")), expires \(expires ?? "-"), secret \(f("secret"))")
    case .idToken?:
      return ("client \(f("client_id"))", "realm \(f("realm")), secret \(f("secret"))")
    case .appMetadata?:
      return ("client \(f("client_id"))", "at \(f("environment"))\(family)")
    case nil:
      return (entry.reasonCode, "")
    }
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
  return text + (width - count < spaces.count ? spaces[width - count] : String(repeating: " ", count: width - count))
}

/// Runs of spaces for padding, made once.
private let spaces = (0..<32).map { String(repeating: " ", count: $0) }

/// Lines of text with aligned tables; trailing spaces trimmed, one final newline.
struct TextLines {
  // UTF-8 bytes, each line trimmed and ended as it is added: reports of 100,000 entries are about 100 MB, and
  // building them as Strings, line by line and word by word, took seconds. Lines made elsewhere (in
  // parallel) are kept as chunks and copied once, into the final String.
  private var chunks: [[UInt8]] = []
  private var bytes: [UInt8] = []

  /// The finished text.
  var text: String {
    let parts = chunks + [bytes]
    return String(unsafeUninitializedCapacity: parts.reduce(0) { $0 + $1.count }) { buffer in
      var offset = 0
      for part in parts {
        _ = UnsafeMutableBufferPointer(rebasing: buffer[offset...]).initialize(fromContentsOf: part)
        offset += part.count
      }
      return offset
    }
  }

  /// Appends lines made elsewhere, without copying them. (Trimming the next line stops at the empty buffer:
  /// every chunk ends with a newline.)
  mutating func append(_ other: TextLines) {
    if !bytes.isEmpty { chunks.append(bytes) }
    bytes = []
    chunks += other.chunks
    if !other.bytes.isEmpty { chunks.append(other.bytes) }
  }

  mutating func line(_ line: String) {
    bytes.append(contentsOf: line.utf8)
    endLine()
  }

  /// Ends the line being written, without its trailing spaces (padding). A space is one byte and never part
  /// of another character, and the previous line ends with a newline, so trimming stops in time.
  private mutating func endLine() {
    while bytes.last == UInt8(ascii: " ") { bytes.removeLast() }
    bytes.append(UInt8(ascii: "\n"))
  }

  /// Word-wraps `text` to `width` columns: `first` before the first line, `rest` before the others.
  mutating func wrapped(_ text: String, first: String, rest: String, width: Int = 118) {
    // ASCII text without escapes (nearly all) is wrapped on its bytes, where a byte is a column; anything else
    // is undone and wrapped by characters.
    let start = bytes.count
    var currentWidth = Self.visibleCount(first)
    bytes.append(contentsOf: first.utf8)
    var empty = true
    var text = text
    let plain = text.withUTF8 { utf8 -> Bool in
      var wordStart = 0
      for position in 0...utf8.count {
        if position < utf8.count {
          let byte = utf8[position]
          if byte >= 0x80 || byte == 0x1B { return false }
          if byte != UInt8(ascii: " ") { continue }
        }
        let word = UnsafeBufferPointer(rebasing: utf8[wordStart..<position])
        wordStart = position + 1
        if !empty, currentWidth + 1 + word.count > width {
          endLine()
          bytes.append(contentsOf: rest.utf8)
          currentWidth = Self.visibleCount(rest)
          empty = true
        }
        if !empty {
          bytes.append(UInt8(ascii: " "))
          currentWidth += 1
        }
        bytes.append(contentsOf: word)
        currentWidth += word.count
        empty = false
      }
      return true
    }
    guard plain else {
      bytes.removeSubrange(start...)
      return wrappedByCharacters(text, first: first, rest: rest, width: width)
    }
    endLine()
  }

  /// `wrapped` for text with non-ASCII characters or escapes, where columns are characters a terminal shows.
  private mutating func wrappedByCharacters(_ text: String, first: String, rest: String, width: Int) {
    var current = first
    var currentWidth = Self.visibleCount(first)
    let restWidth = Self.visibleCount(rest)
    var empty = true
    for word in text.split(separator: " ", omittingEmptySubsequences: false) {
      let wordWidth = Self.visibleCount(word)
      if !empty, currentWidth + 1 + wordWidth > width {
        line(current)
        current = rest
        currentWidth = restWidth
        empty = true
      }
      if !empty {
        current += " "
        currentWidth += 1
      }
      current += word
      currentWidth += wordWidth
      empty = false
    }
    line(current)
  }

  mutating func blank() { line("") }

  mutating func table(_ rows: [[String]], indent: Int, rightAligned: Set<Int> = []) {
    let columns = rows.map(\.count).max() ?? 0
    let widths = (0..<columns).map { column in rows.map { column < $0.count ? $0[column].count : 0 }.max() ?? 0 }
    for row in rows {
      let cells = row.enumerated().map { column, cell in
        let gap = String(repeating: " ", count: max(0, widths[column] - cell.count))
        return rightAligned.contains(column) ? gap + cell : cell + gap
      }
      line(String(repeating: " ", count: indent) + cells.joined(separator: "  "))
    }
  }

  /// Characters a terminal shows: ANSI colour sequences (`ESC [ … m`) take no column.
  static func visibleCount(_ text: some StringProtocol) -> Int {
    if text.utf8.allSatisfy({ $0 < 0x80 && $0 != 0x1B }) { return text.utf8.count }
    var count = 0
    var inEscape = false
    for character in text {
      if character == "\u{1B}" {
        inEscape = true
      } else if inEscape {
        if character == "m" { inEscape = false }
      } else {
        count += 1
      }
    }
    return count
  }
}
