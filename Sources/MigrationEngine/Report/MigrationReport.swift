import Adal2MSALSupport
import Foundation
import UnifiedCache

/// The report of a plan: a summary, one section per user, every skip and conflict with its reason, and the
/// diagnostics. Rendered as text, JSON (schema: docs/report-schema.json) or Markdown. Secrets appear only as
/// fingerprints; with `redactUsernames` every username, display name and account id is a stable `user-…` /
/// `name-…` / `account-…` token. The same plan always renders to the same bytes.
public struct MigrationReport: Sendable {
  /// The JSON report's schema version.
  public static let schemaVersion = 1
  /// The text report's first line, and the Markdown report's after `# `.
  static let title = "adal2msal migration plan"

  /// Whether `opening` (a file's first bytes) begins a report this tool writes, in any of its formats: the text
  /// and Markdown title, or JSON whose first member is `schemaVersion`.
  public static func isReport(opening: Data) -> Bool {
    let text = String(decoding: opening.prefix(64), as: UTF8.self)
    if text.hasPrefix(title + "\n") || text.hasPrefix("# " + title + "\n") { return true }
    guard text.first == "{" else { return false }
    return text.dropFirst().drop(while: \.isWhitespace).hasPrefix("\"schemaVersion\":")
  }

  /// One entry as reported (already redacted).
  public struct Entry: Sendable, Hashable {
    public var action: PlanAction
    public var kind: UnifiedEntityKind?
    public var key: String?
    /// The library whose key `key` is (nil: the canonical key); the text and Markdown reports show it then.
    public var keyStyle: MSALLibrary?
    public var reasonCode: String
    public var reason: String
    public var rule: IdentityRule?
    public var username: String?
    public var homeAccountID: String?
    public var sources: [PlanSource]
    /// The entity's fields (JSON name, text); secrets as fingerprints, timestamps as epoch seconds. Made from
    /// the plan's entity on each read (until set), so that a report keeps no copy of them: at 100,000 items
    /// they were 1.5 million strings, made, kept, and freed one by one on one core when the report went.
    public var fields: [(name: String, value: String)] {
      get { assignedFields ?? origin.fields(existing: false) }
      set { assignedFields = newValue }
    }
    /// The fields of the entity the target holds now, made as `fields` are.
    public var existingFields: [(name: String, value: String)] {
      get { assignedExistingFields ?? origin.fields(existing: true) }
      set { assignedExistingFields = newValue }
    }
    /// Calls `body` with each of `fields` (or of `existingFields`) in order, without making the list.
    func forEachField(existing: Bool, _ body: (String, String) -> Void) {
      if let assigned = existing ? assignedExistingFields : assignedFields {
        for index in assigned.indices { body(assigned[index].name, assigned[index].value) }
      } else {
        origin.forEachField(existing: existing, body)
      }
    }
    /// What a summary reads the fields from: those set, else only the fields it shows, made from the entity.
    var fieldReader: EntryFieldReader { EntryFieldReader(assigned: assignedFields, origin: origin) }
    private var assignedFields: [(name: String, value: String)]?
    private var assignedExistingFields: [(name: String, value: String)]?
    private let origin: FieldOrigin

    public static func == (lhs: Entry, rhs: Entry) -> Bool {
      lhs.action == rhs.action && lhs.key == rhs.key && lhs.reason == rhs.reason && lhs.sources == rhs.sources
        && lhs.fields.map { "\($0.name)=\($0.value)" } == rhs.fields.map { "\($0.name)=\($0.value)" }
    }
    public func hash(into hasher: inout Hasher) {
      hasher.combine(action)
      hasher.combine(key)
      hasher.combine(reason)
    }

    /// A field's value.
    public func field(_ name: String) -> String? { Self.value(of: name, in: fields) }

    static func value(of name: String, in fields: [(name: String, value: String)]) -> String? {
      // By index: `first(where:)` copied every (name, value) pair it passed.
      for index in fields.indices where fields[index].name == name { return fields[index].value }
      return nil
    }
  }

  /// One user: its identity and its entries.
  public struct UserSection: Sendable, Hashable {
    public var username: String?
    public var otherUsernames: [String]
    public var homeAccountID: String?
    public var cloud: String
    public var status: PlanUser.Status
    public var rule: IdentityRule?
    public var reasonCode: String
    public var reason: String
    public var candidates: [String]
    public var entries: [Entry]
  }

  public var plannedAt: Date
  public var inputs: [PlanInput]
  public var redacted: Bool
  /// The library whose keys the entries show (nil: canonical keys).
  public var targetLibrary: MSALLibrary?
  /// Counts per action, over every entry.
  public var actionCounts: [PlanAction: Int]
  /// Counts per kind and action; entries without a kind (skipped items) are under nil.
  public var kindCounts: [UnifiedEntityKind?: [PlanAction: Int]]
  public var users: [UserSection]
  /// Entries that belong to no user (app metadata, items that name nobody).
  public var otherEntries: [Entry]
  public var diagnostics: [Diagnostic]

  public init(plan: MigrationPlan, redactUsernames: Bool = false) {
    self.init(plan: plan, redact: redactUsernames ? Redactor(plan: plan) : .none, redacted: redactUsernames)
  }

  init(plan: MigrationPlan, redact: Redactor, redacted: Bool) {
    let grouped = ReportSections.group(plan)
    self.init(opening: plan, others: grouped.others, redact: redact, redacted: redacted)
    users = grouped.users.orderedParallelMap { Self.userSection($0, of: plan, redact: redact) }
  }

  /// The report of `plan` without its user sections (`SectionedReport` makes each as it renders it): its
  /// opening, the entries at `others` (positions in the plan's entries) and its diagnostics.
  init(opening plan: MigrationPlan, others: [Int], redact: Redactor, redacted: Bool) {
    plannedAt = plan.plannedAt
    inputs = plan.inputs
    self.redacted = redacted
    targetLibrary = plan.targetLibrary
    (actionCounts, kindCounts) = Self.counts(plan.entries)
    users = []
    otherEntries = others.map { Entry(plan.entries, at: $0, redact: redact, library: plan.targetLibrary) }
    diagnostics = plan.diagnostics.map { redact($0) }
  }

  /// The section of `section`'s user, its entries read from `plan`.
  static func userSection(_ section: ReportSections.Section, of plan: MigrationPlan, redact: Redactor) -> UserSection {
    UserSection(
      username: redact(section.user.username), otherUsernames: section.user.otherUsernames.map { redact($0) },
      homeAccountID: redact(section.user.homeAccountID), cloud: section.user.cloud, status: section.user.status,
      rule: section.user.rule, reasonCode: section.user.reasonCode, reason: redact(section.user.reason),
      candidates: section.user.candidates.map { redact($0) },
      entries: section.entries.map { Entry(plan.entries, at: $0, redact: redact, library: plan.targetLibrary) })
  }

  /// A report without sections: what its opening shows (`ReportSpool` writes the sections).
  init(
    plannedAt: Date, inputs: [PlanInput], redacted: Bool, actionCounts: [PlanAction: Int],
    kindCounts: [UnifiedEntityKind?: [PlanAction: Int]], targetLibrary: MSALLibrary? = nil
  ) {
    self.plannedAt = plannedAt
    self.inputs = inputs
    self.redacted = redacted
    self.targetLibrary = targetLibrary
    self.actionCounts = actionCounts
    self.kindCounts = kindCounts
    users = []
    otherEntries = []
    diagnostics = []
  }

}

extension MigrationReport.Entry {
  /// The report entry of `entries[index]`, read in place (a copy of a plan entry retains every field it holds);
  /// its key as `library` will store it, else the canonical key.
  init(_ entries: [PlanEntry], at index: Int, redact: Redactor, library: MSALLibrary? = nil) {
    // Through a buffer pointer: through the array, the compiler copied the whole plan entry to read its last
    // fields.
    self = entries.withUnsafeBufferPointer { Self($0, at: index, redact: redact, library: library) }
  }

  private init(_ entries: UnsafeBufferPointer<PlanEntry>, at index: Int, redact: Redactor, library: MSALLibrary?) {
    let key: String?
    var keyStyle: MSALLibrary?
    if let library, let entity = entries[index].entityBox?.value {
      key = redact(LibraryKeys.key(for: library.stored(entity), in: library))
      keyStyle = library
    } else {
      key = redact(entries[index].canonicalKey)
    }
    // Through the memberwise initializer (declared in this extension, so that the struct keeps it): assigned
    // field by field, the entry was made aside and copied into place, a retain and a release of each field
    // (docs/benchmarks.md, "Counting calls"). The boxes are read as stored properties: through a computed one,
    // the whole plan entry was copied.
    self.init(
      action: entries[index].action, kind: entries[index].kind, key: key, keyStyle: keyStyle,
      reasonCode: entries[index].reasonCode, reason: redact(entries[index].reason), rule: entries[index].identityRule,
      username: redact(entries[index].username), homeAccountID: redact(entries[index].homeAccountID),
      sources: entries[index].sources,
      origin: FieldOrigin(boxes: (entries[index].entityBox, entries[index].existingBox), redact: redact))
  }
}

extension MigrationReport {
  /// Entries per action and per (kind, action), only the pairs that occur. Counted in a flat table first: two
  /// nested dictionary updates per entry were a measurable serial share of a large report.
  static func counts(
    _ entries: [PlanEntry]
  ) -> (actions: [PlanAction: Int], kinds: [UnifiedEntityKind?: [PlanAction: Int]]) {
    let kinds = UnifiedEntityKind.allCases.map(Optional.some) + [nil]
    let actions = PlanAction.allCases
    var table = [Int](repeating: 0, count: kinds.count * actions.count)
    for index in entries.indices {
      let kind = kinds.firstIndex(of: entries[index].kind) ?? kinds.count - 1
      let action = actions.firstIndex(of: entries[index].action) ?? 0
      table[kind * actions.count + action] += 1
    }
    var byAction: [PlanAction: Int] = [:]
    var byKind: [UnifiedEntityKind?: [PlanAction: Int]] = [:]
    for (kindIndex, kind) in kinds.enumerated() {
      for (actionIndex, action) in actions.enumerated() {
        let count = table[kindIndex * actions.count + actionIndex]
        guard count > 0 else { continue }
        byAction[action, default: 0] += count
        byKind[kind, default: [:]][action] = count
      }
    }
    return (byAction, byKind)
  }
}

/// Where a report entry's fields come from: the plan entry's (shared, immutable) entities and the report's
/// redactor.
private struct FieldOrigin: Sendable {
  var boxes: (entity: EntityBox?, existing: EntityBox?)
  var redact: Redactor

  func fields(existing: Bool) -> [(name: String, value: String)] {
    guard let box = existing ? boxes.existing : boxes.entity else { return [] }
    return EntityFields.pairs(of: box.value) { redact.field($0, $1) }
  }

  /// `fields(existing:)` one by one, without the list.
  func forEachField(existing: Bool, _ body: (String, String) -> Void) {
    guard let box = existing ? boxes.existing : boxes.entity else { return }
    box.forEachField { body($0, redact.field($0, $1)) }
  }

  /// The summary's fields of the entity (`EntityFields.summaryValues`), as `fields(existing: false)` lists them.
  func summaryValues() -> SummaryValues {
    guard let box = boxes.entity else { return SummaryValues() }
    // Without a transform when nothing is redacted: the fingerprint and the expiry stay numbers.
    return box.summaryValues(redact.isIdentity ? nil : { redact($0) })
  }
}

/// A report entry's fields as its summary reads them: the fields a caller set (`Entry.fields`), else those the
/// summary shows, made from the plan's entity.
struct EntryFieldReader {
  fileprivate var assigned: [(name: String, value: String)]?
  fileprivate var origin: FieldOrigin

  /// Whether the entry has no fields (a skipped item, which has no entity).
  var isEmpty: Bool {
    // Not `assigned.map(\.isEmpty)`: the key path was made and released for every entry of a report.
    if let assigned { return assigned.isEmpty }
    return origin.boxes.entity == nil
  }

  /// The values of the summary's fields (none when there are none).
  func summaryValues() -> SummaryValues {
    guard let assigned else { return origin.summaryValues() }
    var values = SummaryValues()
    for field in EntityFields.SummaryField.allCases {
      values[field] = MigrationReport.Entry.value(of: field.name, in: assigned)
    }
    return values
  }
}
