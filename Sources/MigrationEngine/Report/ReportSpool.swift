import Adal2MSALSupport
import Foundation
import UnifiedCache

/// The report of a run planned in parts (`PlanningSession`), byte for byte the report of the whole plan, made
/// without holding it: each part's user sections and other entries are rendered when the part is added and
/// kept aside (`SpillFile`: in memory, then in a temporary file) with their place in plan order; `finish` writes the opening (which
/// needs every count), then the pieces in that order, then the diagnostics.
public struct ReportSpool {
  private let format: ReportFormat
  private let colorize: Bool
  private let redact: Redactor
  private let redacted: Bool
  private let spill: SpillFile
  private var sections: [Spooled<SectionOrder>] = []
  private var others: [Spooled<EntryOrder>] = []
  private var diagnostics: [Diagnostic] = []
  private var actionCounts: [PlanAction: Int] = [:]
  private var kindCounts: [UnifiedEntityKind?: [PlanAction: Int]] = [:]
  private var partsAdded = 0
  /// The plan of a run's only part, rendered by `finish` (`hold`).
  private var held: MigrationPlan?
  /// Users rendered at once (tests make it small).
  var usersPerBatch = MigrationReport.usersPerBatch

  /// Where a section goes: every user in plan order, then the accounts only the MSAL inputs know.
  enum SectionOrder: Comparable {
    case user(UserOrder)
    case account(EntryOrder)
  }

  private struct Spooled<Order: Comparable> {
    var order: Order
    /// The piece's number in the order it was added: ties keep it.
    var sequence: Int
    var offset: Int
    /// Bytes of the piece, then of its "Skipped and conflicts" lines, which follow it in the file.
    var bodyBytes: Int
    var attentionBytes: Int
    /// Entries its "Skipped and conflicts" lines list.
    var attentionEntries: Int
  }

  /// - Parameters:
  ///   - names: every username and account id of the run (`RedactionNames` over all parts), for a redacted
  ///     report; nil for a report that shows them.
  ///   - directory: where the temporary file is made once the pieces outgrow memory (it is unlinked at once).
  public init(
    format: ReportFormat, colorize: Bool = false, redacting names: RedactionNames? = nil,
    directory: String = NSTemporaryDirectory()
  ) {
    self.format = format
    self.colorize = colorize
    redact = names.map(Redactor.init) ?? .none
    redacted = names != nil
    spill = SpillFile(directory: directory)
  }

  /// Renders the sections and other entries of one part's plan into the temporary file.
  public mutating func add(_ plan: MigrationPlan) throws {
    precondition(held == nil, "a spool that holds a part takes no other")
    partsAdded += 1
    let report = SectionedReport(plan: plan, redact: redact, redacted: redacted)
    for (action, count) in report.header.actionCounts { actionCounts[action, default: 0] += count }
    for (kind, counts) in report.header.kindCounts {
      for (action, count) in counts { kindCounts[kind, default: [:]][action, default: 0] += count }
    }
    diagnostics += plan.diagnostics
    var position = 0
    let (format, colorize) = (format, colorize)
    try UserBatches(size: usersPerBatch).forEach(
      report.userCount, { report.piece(ofUser: $0, format, colorize: colorize) }
    ) {
      pieces in
      for piece in pieces {
        let order: SectionOrder =
          switch report.origin(ofUser: position) {
          case .user(let index): .user(UserOrder(plan.users[index]))
          case .entry(let index): .account(EntryOrder(plan.entries[index]))
          }
        sections.append(try spool(piece, order: order, sequence: sections.count))
        position += 1
      }
    }
    for index in report.header.otherEntries.indices {
      let piece = report.header.piece(ofOther: index, format, colorize: colorize)
      others.append(
        try spool(piece, order: EntryOrder(plan.entries[report.otherOrigins[index]]), sequence: others.count))
    }
  }

  /// Keeps the plan of a run's only part for `finish`, which renders it with the rest as one plan, each section
  /// written as it is made. For a run whose report waits for nothing but the planning (a dry run), rendering
  /// the part at once (`add`) only set its 37 MB of text (40,000 items) aside in the temporary file to read it
  /// back. Nothing may be added or held before.
  public mutating func hold(_ plan: MigrationPlan) {
    precondition(partsAdded == 0 && held == nil, "a spool holds only a run's only part")
    held = plan
  }

  /// Adds `rest` (what `PlanningSession.finish` planned: it lists the run's inputs), then writes the whole
  /// report to `output`. `rest` is nil when the plan held is the whole run's already (its rest merged in).
  public mutating func finish(_ rest: MigrationPlan?, to output: (UnsafeRawBufferPointer) throws -> Void) throws {
    if partsAdded == 0 {
      // A run of one part held, or of no part: its sections are already in plan order, so they are written as
      // they are rendered instead of set aside and read back (which held up to `SpillFile`'s memory limit of
      // text). Taken out of `held`, the part's entries are unique, and `rest`'s are merged into them in place.
      var whole: MigrationPlan
      if let part = held.take() {
        whole = if let rest { (consume part).merged(with: rest) } else { part }
      } else if let rest {
        whole = rest
      } else {
        preconditionFailure("ReportSpool: nothing held, and no rest to finish with")
      }
      whole.diagnostics.sort(by: PlanOrder.diagnostics)
      let report = SectionedReport(plan: whole, redact: redact, redacted: redacted)
      try report.write(format, colorize: colorize, usersPerBatch: usersPerBatch, to: output)
      // The plan (which the report holds too) is millions of objects at 100,000 items: freed here, on one core,
      // it would hold up the end of every dry run (with the report's whole model, a tenth of a second).
      releaseInBackground(consume report)
      releaseInBackground(consume whole)
      return
    }
    guard let rest else { preconditionFailure("ReportSpool: a run in parts finishes with its rest") }
    try add(rest)
    let header = MigrationReport(
      plannedAt: rest.plannedAt, inputs: rest.inputs, redacted: redacted, actionCounts: actionCounts,
      kindCounts: kindCounts, targetLibrary: rest.targetLibrary)
    sections.sort { ($0.order, $0.sequence) < ($1.order, $1.sequence) }
    others.sort { ($0.order, $0.sequence) < ($1.order, $1.sequence) }
    var assembler = ReportAssembler(format: format, colorize: colorize)
    try assembler.opening(header, to: output)
    for piece in sections {
      try assembler.section(try spill.read(at: piece.offset, count: piece.bodyBytes), to: output)
    }
    try assembler.beginOthers(count: others.count, to: output)
    for piece in others { try assembler.other(try spill.read(at: piece.offset, count: piece.bodyBytes), to: output) }
    let attentionTotal = sections.reduce(0) { $0 + $1.attentionEntries } + others.reduce(0) { $0 + $1.attentionEntries }
    try assembler.beginAttention(count: attentionTotal, to: output)
    for piece in sections where piece.attentionBytes > 0 {
      try assembler.attention(try attention(of: piece), to: output)
    }
    for piece in others where piece.attentionBytes > 0 { try assembler.attention(try attention(of: piece), to: output) }
    let sorted = diagnostics.sorted(by: PlanOrder.diagnostics).map { redact($0) }
    try assembler.end(diagnostics: sorted, to: output)
  }

  private func spool<Order>(_ piece: ReportPiece, order: Order, sequence: Int) throws -> Spooled<Order> {
    let offset = try spill.append(piece.body)
    if !piece.attention.isEmpty { try spill.append(piece.attention) }
    return Spooled(
      order: order, sequence: sequence, offset: offset, bodyBytes: piece.body.count,
      attentionBytes: piece.attention.count, attentionEntries: piece.attentionCount)
  }

  private func attention<Order>(of piece: Spooled<Order>) throws -> [UInt8] {
    try spill.read(at: piece.offset + piece.bodyBytes, count: piece.attentionBytes)
  }
}
