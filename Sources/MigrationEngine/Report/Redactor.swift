import Adal2MSALSupport
import Foundation
import UnifiedCache

/// Replaces personal identifiers in report text with stable tokens: a username becomes `user-<12 hex>`, a
/// home or local account id `account-<12 hex>` (the SHA-256 of the lowercased value), the same token
/// wherever the value appears, including inside cache keys, reasons and diagnostics.
package struct Redactor: Sendable {
  // Boxed, and nil when nothing is redacted: every report entry keeps its redactor (to make its fields when
  // asked), and the matcher inline was five arrays to retain and release per entry.
  private let matcher: Matcher?

  private final class Matcher: Sendable {
    let value: IdentityMatcher
    init(_ value: IdentityMatcher) { self.value = value }
  }

  static let none = Redactor(matcher: nil)

  private init(matcher: Matcher?) { self.matcher = matcher }

  init(plan: MigrationPlan) {
    var names = RedactionNames()
    names.add(plan)
    self.init(names)
  }

  package init(_ names: RedactionNames) {
    // Usernames first: a value that is both a username and an id always becomes a `user-` token.
    let pairs =
      names.usernames.map { ($0, "user-" + Self.digest($0)) }
      + names.accountIDs.map { ($0, "account-" + Self.digest($0)) }
    matcher = Matcher(IdentityMatcher(pairs))
  }

  fileprivate static func digest(_ value: String) -> String {
    String(SecretFingerprint.sha256Hex(Data(value.utf8)).prefix(12))
  }

  /// Whether every text is shown as it is (nothing is redacted).
  var isIdentity: Bool { matcher == nil }

  package func callAsFunction(_ text: String) -> String { matcher?.value(text) ?? text }

  func callAsFunction(_ text: String?) -> String? { text.map { self($0) } }

  /// The diagnostic with its message and its place's key path redacted: an MSAL cache's key path holds the
  /// entry's key, which starts with the home account id.
  package func callAsFunction(_ diagnostic: Diagnostic) -> Diagnostic {
    guard !isIdentity else { return diagnostic }
    var copy = diagnostic
    copy.message = self(diagnostic.message)
    copy.location?.keyPath = self(diagnostic.location?.keyPath)
    return copy
  }
}

/// The usernames and account ids a redacted report replaces, gathered from every plan of a run (a name of
/// one user can appear in another's section, so every part is seen before any section is written).
public struct RedactionNames: Sendable {
  fileprivate var usernames: Set<String> = []
  fileprivate var accountIDs: Set<String> = []

  public init() {}

  /// Adds the names and ids of `plan`'s users and entries (and of the entities they hold).
  public mutating func add(_ plan: MigrationPlan) {
    for user in plan.users {
      addName(user.username)
      for name in user.otherUsernames { addName(name) }
      addID(user.homeAccountID)
      for candidate in user.candidates { addID(candidate) }
    }
    for entry in plan.entries {
      addName(entry.username)
      addID(entry.homeAccountID)
      for entity in [entry.entity, entry.existing].compactMap({ $0 }) {
        addID(entity.homeAccountID)
        if case .account(let account) = entity {
          addName(account.username)
          addID(account.localAccountID)
        }
      }
    }
  }

  private mutating func addName(_ name: String?) {
    if let name = name?.trimmedWhitespace(), !name.isEmpty { usernames.insert(name.lowercased()) }
  }

  private mutating func addID(_ id: String?) {
    if let id = id?.trimmedWhitespace(), id.count >= 4 { accountIDs.insert(id.lowercased()) }
  }
}

extension RedactionNames {
  /// The token a redacted report shows for `username` (`user-<12 hex>`), for summaries printed beside it.
  public static func redactedUsername(_ username: String) -> String {
    "user-" + Redactor.digest(username.trimmedWhitespace().lowercased())
  }
}
