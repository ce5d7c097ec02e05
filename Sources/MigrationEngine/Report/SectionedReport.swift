import Adal2MSALSupport

/// The report of a plan whose user sections are made as they are rendered: each on the core that renders it,
/// from the plan's entries, and let go once rendered. `ReportSpool` renders this way, so that a report's
/// sections are never held whole, as `MigrationReport.users` holds them (docs/benchmarks.md, "Memory": the
/// 10k-item `migrate` peaks about 1.5 MiB lower).
struct SectionedReport: Sendable {
  /// The report's opening, its other entries and its diagnostics: everything but the user sections.
  let header: MigrationReport
  private let plan: MigrationPlan
  private let sections: [ReportSections.Section]
  /// Where each of `header.otherEntries` is in the plan's entries.
  let otherOrigins: [Int]
  private let redact: Redactor

  init(plan: MigrationPlan, redact: Redactor, redacted: Bool) {
    let grouped = ReportSections.group(plan)
    header = MigrationReport(opening: plan, others: grouped.others, redact: redact, redacted: redacted)
    self.plan = plan
    sections = grouped.users
    otherOrigins = grouped.others
    self.redact = redact
  }

  var userCount: Int { sections.count }

  /// What places user `index`'s section in the report (`ReportSpool` orders the sections of several plans).
  func origin(ofUser index: Int) -> ReportSections.Origin { sections[index].origin }

  /// User `index`'s section, made and rendered.
  func piece(ofUser index: Int, _ format: ReportFormat, colorize: Bool) -> ReportPiece {
    MigrationReport.piece(
      of: MigrationReport.userSection(sections[index], of: plan, redact: redact), format, colorize: colorize)
  }

  /// Writes the whole report, as `MigrationReport.write` writes it.
  func write(
    _ format: ReportFormat, colorize: Bool, usersPerBatch: Int, to output: (UnsafeRawBufferPointer) throws -> Void
  ) rethrows {
    try header.write(
      format, colorize: colorize, userCount: userCount, usersPerBatch: usersPerBatch,
      userPiece: { [self] in piece(ofUser: $0, format, colorize: colorize) }, to: output)
  }
}
