import Adal2MSALSupport
import Foundation
import UnifiedCache

/// What a plan does with one target entity (or one input item that maps to none).
public enum PlanAction: String, Sendable, Hashable, Codable, CaseIterable {
  /// A new entity: written by the apply.
  case add
  /// An existing entity whose fields change: written by the apply.
  case update
  /// The target already holds exactly this entity: nothing to write.
  case unchanged
  /// The ADAL side and the existing side disagree and neither may win silently (or two candidate identities
  /// for one user): nothing written, reported.
  case conflict
  /// An input item that does not migrate (expired access token, tombstone, guest, unreadable, ...): reported.
  case skip

  /// Whether applying the plan writes this entry.
  public var writes: Bool { self == .add || self == .update }

  /// Whether the entry needs a reader's attention: a skip or a conflict.
  public var needsAttention: Bool { self == .skip || self == .conflict }
}

/// Which rule gave an account its identity (docs/mapping.md, "1. Identity").
public enum IdentityRule: String, Sendable, Hashable, Codable, CaseIterable {
  /// 1. The item's archived `homeAccountId` (ADAL 2.7+).
  case archivedHomeAccountID = "archived-home-account-id"
  /// 2. `client_info` left in `additionalServer`.
  case clientInfo = "client-info"
  /// 3. An existing unified Account with the same username in the same cloud (`accountForUsername`).
  case existingAccountByUsername = "existing-account-by-username"
  /// 4. Another ADAL item of the same user (same `oid`) that has an identity from rules 1-3.
  case siblingItem = "sibling-item"
  /// 5. Derived from the id token as `oid.tid`, for non-guests only.
  case derivedFromIDToken = "derived-oid-tid"
  /// 6. ADFS: `home_account_id` = `sub`.
  case adfsSubject = "adfs-sub"
  /// The entity came from an MSAL input or the target store, not from ADAL.
  case unifiedInput = "unified-input"
}

/// One input item a plan entry came from.
public struct PlanSource: Sendable, Hashable, Codable, CustomStringConvertible {
  /// The input file as given on the command line (or a name the library caller chose).
  public var file: String
  /// The item's index in the file, for dumps; nil for whole-file inputs such as a single archived item.
  public var itemIndex: Int?
  /// A short description of the item: `ADAL MRRT`, `ADAL AT https://graph.windows.net`, `MSAL RefreshToken`.
  public var label: String

  public init(file: String, itemIndex: Int? = nil, label: String) {
    self.file = file
    self.itemIndex = itemIndex
    self.label = label
  }

  public var description: String {
    var text: [UInt8] = []
    write(to: &text)
    return String(decoding: text, as: UTF8.self)
  }

  /// Appends the description (`file#index (label)`) as UTF-8: reports list thousands of sources, and build
  /// their lines as bytes.
  func write(to text: inout [UInt8]) {
    text.appendUTF8(file)
    if let itemIndex {
      text.append(UInt8(ascii: "#"))
      text.appendDecimal(itemIndex)
    }
    text.appendLiteral(" (")
    text.appendUTF8(label)
    text.append(UInt8(ascii: ")"))
  }
}

/// One line of the plan: one action on one target entity, with its reason and where it came from.
public struct PlanEntry: Sendable, Hashable {
  // `reasonCode` comes first so that the memberwise initializer, which the public one builds through, has other
  // labels (docs/benchmarks.md, "Counting calls").
  /// A stable machine-readable reason code (`adal.expired-access-token`, `identity.guest`, ...).
  public var reasonCode: String
  public var action: PlanAction
  /// The entity kind; nil for a skipped input item that maps to no entity.
  public var kind: UnifiedEntityKind?
  /// The canonical key of the target entity; nil when there is none. When the entry has an `entity`, this is
  /// always its `canonicalKey` (setting `entity` sets it), so that sorting, reports and the store's writer use
  /// it rather than building the key again.
  public private(set) var canonicalKey: String?
  /// The entity as it will be after the apply (add, update, unchanged), or the ADAL-side proposal (conflict).
  public var entity: AnyUnifiedEntity? {
    get { entityBox?.value }
    set {
      entityBox = newValue.map(EntityBox.init)
      if let newValue { canonicalKey = newValue.canonicalKey }
    }
  }
  /// The entity the target holds now (update, unchanged, conflict).
  public var existing: AnyUnifiedEntity? {
    get { existingBox?.value }
    set { existingBox = newValue.map(EntityBox.init) }
  }
  // Entities are boxed: plans are sorted and grouped, and an entity inline made every copy of an entry
  // dozens of reference counts (and the entry a kilobyte). Readable in the package, for report entries that read
  // the fields when asked and the store's writer (a copy of an entity retains each of its strings; `entity` copies
  // it out of the box, `entityBox?.value` is read in place).
  package private(set) var entityBox: EntityBox?
  private(set) var existingBox: EntityBox?
  /// A one-line human-readable reason, never with a secret.
  public var reason: String
  public var sources: [PlanSource]
  /// The identity rule that fired, for entities bound to an account.
  public var identityRule: IdentityRule?
  /// The user this entry belongs to (the displayable id as read), for the per-user sections of the report.
  public var username: String?
  /// The account's home account id, when known.
  public var homeAccountID: String?
}

extension PlanEntry {
  /// An entry; `canonicalKey` is used only when there is no `entity` (an entity's entry has its key).
  public init(
    action: PlanAction, kind: UnifiedEntityKind? = nil, canonicalKey: String? = nil, entity: AnyUnifiedEntity? = nil,
    existing: AnyUnifiedEntity? = nil, reasonCode: String, reason: String, sources: [PlanSource] = [],
    identityRule: IdentityRule? = nil, username: String? = nil, homeAccountID: String? = nil
  ) {
    self.init(
      action: action, kind: kind, canonicalKey: entity?.canonicalKey ?? canonicalKey,
      entityBox: entity.map(EntityBox.init),
      existingBox: existing.map(EntityBox.init), reasonCode: reasonCode, reason: reason, sources: sources,
      identityRule: identityRule, username: username, homeAccountID: homeAccountID)
  }

  /// An entry for entities that are boxed already (the planner's proposals), sharing the boxes.
  /// `canonicalKey`, when given, must be the entity's (the proposal's key, computed once).
  init(
    action: PlanAction, kind: UnifiedEntityKind? = nil, canonicalKey: String? = nil, entityBox: EntityBox?,
    existingBox: EntityBox?, reasonCode: String, reason: String, sources: [PlanSource] = [],
    identityRule: IdentityRule? = nil, username: String? = nil, homeAccountID: String? = nil
  ) {
    assert(canonicalKey == nil || entityBox == nil || canonicalKey == entityBox?.value.canonicalKey)
    self.init(
      reasonCode: reasonCode, action: action, kind: kind ?? entityBox?.value.kind ?? existingBox?.value.kind,
      canonicalKey: canonicalKey ?? entityBox?.value.canonicalKey ?? existingBox?.value.canonicalKey,
      entityBox: entityBox, existingBox: existingBox, reason: reason, sources: sources, identityRule: identityRule,
      username: username, homeAccountID: homeAccountID)
  }
}

/// An immutable, shared entity.
package final class EntityBox: Sendable, Hashable {
  package let value: AnyUnifiedEntity

  init(_ value: AnyUnifiedEntity) { self.value = value }

  package static func == (lhs: EntityBox, rhs: EntityBox) -> Bool { lhs === rhs || lhs.value == rhs.value }
  package func hash(into hasher: inout Hasher) { hasher.combine(value) }
}

/// One input of a run, recorded with its digest so a run can be traced to exact bytes.
public struct PlanInput: Sendable, Hashable, Codable {
  /// What the input was given as: an ADAL cache (`--adal`) or an MSAL cache (`--msal`).
  public enum Role: String, Sendable, Hashable, Codable {
    case adal, msal
  }
  public var path: String
  public var role: Role
  /// Lowercase hex SHA-256 of the file's bytes.
  public var sha256: String
  public var byteCount: Int
  /// What the reader detected (`objection-json`, `binary-plist-dump`, `macos-blob`, `msal-json`, ...).
  public var detectedFormat: String

  public init(path: String, role: Role, sha256: String, byteCount: Int, detectedFormat: String) {
    self.path = path
    self.role = role
    self.sha256 = sha256
    self.byteCount = byteCount
    self.detectedFormat = detectedFormat
  }
}

/// The plan of a migration: every target entity with its action, every skipped item with its reason. The plan
/// is the dry-run diff; applying it writes exactly the `add` and `update` entries.
public struct MigrationPlan: Sendable, Hashable {
  /// Entries in a deterministic order (by kind, then canonical key, then first source), whatever the input order.
  public var entries: [PlanEntry]
  /// Reader and engine diagnostics (notes and warnings that are not plan entries), deterministic order.
  public var diagnostics: [Diagnostic]
  public var inputs: [PlanInput]
  /// The clock reading every expiry decision used.
  public var plannedAt: Date
  /// Every ADAL user the planner met, with the identity it resolved (or why it could not), deterministic order.
  public var users: [PlanUser]
  /// The library the cache is for (`MigrationOptions.targetLibrary`): reports show its keys.
  public var targetLibrary: MSALLibrary?

  public init(
    entries: [PlanEntry], diagnostics: [Diagnostic] = [], inputs: [PlanInput] = [], plannedAt: Date,
    users: [PlanUser] = [], targetLibrary: MSALLibrary? = nil
  ) {
    self.entries = entries
    self.diagnostics = diagnostics
    self.inputs = inputs
    self.plannedAt = plannedAt
    self.users = users
    self.targetLibrary = targetLibrary
  }

  /// The entries an apply writes (`add` and `update`).
  public var writes: [PlanEntry] { entries.filter { $0.action.writes } }

  /// Calls `body` with each entry in order, read in place: a `for` loop over `entries` (or `count(where:)`,
  /// `contains(where:)`) copies each entry it passes, a retain of each of its fields. (The closure is still
  /// handed a copy unless it is inlined; the hottest loops read the fields they need through
  /// `entries.withUnsafeBufferPointer` and `buffer[index].field`, which never copies the entry.)
  public func forEachEntry(_ body: (borrowing PlanEntry) throws -> Void) rethrows {
    try entries.withUnsafeBufferPointer { buffer in
      for index in buffer.indices { try body(buffer[index]) }
    }
  }

  /// How many entries have each action.
  public func count(_ action: PlanAction) -> Int {
    entries.withUnsafeBufferPointer { buffer in buffer.indices.count { buffer[$0].action == action } }
  }

  /// Whether the plan changes nothing (no add, update).
  public var isNoChange: Bool { !hasEntry { $0.writes } }

  private func hasEntry(_ action: (PlanAction) -> Bool) -> Bool {
    entries.withUnsafeBufferPointer { buffer in buffer.indices.contains { action(buffer[$0].action) } }
  }
}

/// One ADAL user (the items of one object id, or of one user name when there is no id token) and the identity
/// the planner resolved for it.
public struct PlanUser: Sendable, Hashable {
  /// Whether the user got an identity.
  public enum Status: String, Sendable, Hashable, Codable {
    case resolved, skipped, conflict
  }

  /// The displayable id of the user's newest item (original case); nil when no item names the user.
  public var username: String?
  /// Other user names the same user had (a UPN change), sorted.
  public var otherUsernames: [String]
  /// The cloud: the name of the environment alias group (`public`, `china`, ...), or the host when unknown.
  public var cloud: String
  public var status: Status
  public var homeAccountID: String?
  /// The rule that gave the identity (the first rule, in docs/mapping.md's order, that fired for any of its items).
  public var rule: IdentityRule?
  /// `identity.resolved`, `identity.guest`, `identity.conflict`, ...
  public var reasonCode: String
  public var reason: String
  /// For a conflict: every candidate home account id, sorted.
  public var candidates: [String]
  /// The user's items.
  public var sources: [PlanSource]

  public init(
    username: String?, otherUsernames: [String] = [], cloud: String, status: Status, homeAccountID: String? = nil,
    rule: IdentityRule? = nil, reasonCode: String, reason: String, candidates: [String] = [],
    sources: [PlanSource] = []
  ) {
    self.username = username
    self.otherUsernames = otherUsernames
    self.cloud = cloud
    self.status = status
    self.homeAccountID = homeAccountID
    self.rule = rule
    self.reasonCode = reasonCode
    self.reason = reason
    self.candidates = candidates
    self.sources = sources
  }
}
