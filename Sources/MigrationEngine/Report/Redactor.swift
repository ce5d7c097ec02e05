import Adal2MSALSupport
import Foundation
import UnifiedCache

/// Replaces personal identifiers in report text with stable tokens: a username becomes `user-<12 hex>`, a
/// home or local account id `account-<12 hex>` (the SHA-256 of the lowercased value), the same token
/// wherever the value appears, including inside cache keys, reasons and diagnostics.
struct Redactor: Sendable {
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
    var usernames: Set<String> = []
    var accountIDs: Set<String> = []
    func addName(_ name: String?) {
      if let name = name?.trimmedWhitespace(), !name.isEmpty { usernames.insert(name.lowercased()) }
    }
    func addID(_ id: String?) {
      if let id = id?.trimmedWhitespace(), id.count >= 4 { accountIDs.insert(id.lowercased()) }
    }
    for user in plan.users {
      addName(user.username)
      user.otherUsernames.forEach(addName)
      addID(user.homeAccountID)
      user.candidates.forEach(addID)
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
    // Usernames first: a value that is both a username and an id always becomes a `user-` token.
    let pairs = usernames.map { ($0, "user-" + Self.digest($0)) } + accountIDs.map { ($0, "account-" + Self.digest($0)) }
    matcher = Matcher(IdentityMatcher(pairs))
  }

  private static func digest(_ value: String) -> String {
    String(SecretFingerprint.sha256Hex(Data(value.utf8)).prefix(12))
  }

  func callAsFunction(_ text: String) -> String { matcher?.value(text) ?? text }

  func callAsFunction(_ text: String?) -> String? { text.map { self($0) } }
}
