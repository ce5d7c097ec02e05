import Adal2MSALSupport
import Foundation
import UnifiedCache

/// Replaces personal identifiers in report text with stable tokens: a username becomes `user-<12 hex>`, a
/// home or local account id `account-<12 hex>` (the SHA-256 of the lowercased value), the same token
/// wherever the value appears, including inside cache keys, reasons and diagnostics. An entity's fields go
/// through `field(_:_:)`, which also replaces what is personal by what the field is: a display name, and the uid
/// inside a `client_info`.
package struct Redactor: Sendable {
  // Boxed, and nil when nothing is redacted: every report entry keeps its redactor (to make its fields when
  // asked), and the matcher inline was five arrays to retain and release per entry.
  private let matcher: Matcher?

  private final class Matcher: Sendable {
    let value: IdentityMatcher
    /// Each `client_info` of the run, by its value, as the report shows it (`Redactor.clientInfo(_:)`), made
    /// once per value rather than once per entry that holds it.
    let clientInfos: [String: String]
    init(_ value: IdentityMatcher, clientInfos: [String: String]) {
      self.value = value
      self.clientInfos = clientInfos
    }
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
    var clientInfos: [String: String] = [:]
    for value in names.clientInfos { clientInfos[value] = Self.clientInfo(value) }
    matcher = Matcher(IdentityMatcher(pairs), clientInfos: clientInfos)
  }

  fileprivate static func digest(_ value: String) -> String {
    String(SecretFingerprint.sha256Hex(Data(value.utf8)).prefix(12))
  }

  /// Whether every text is shown as it is (nothing is redacted).
  var isIdentity: Bool { matcher == nil }

  package func callAsFunction(_ text: String) -> String { matcher?.value(text) ?? text }

  func callAsFunction(_ text: String?) -> String? { text.map { self($0) } }

  /// The value of an entity's field (named as `EntityFields` names it) as the report shows it. A display name
  /// (`name`, `given_name`, `family_name`, `middle_name`) becomes `name-<12 hex>` whole: names are replaced by
  /// field and never searched for in other text, where a short one ("Ed", "An") or one that is also a word or a
  /// host ("Example") would be found inside what stays. A `client_info` is `clientInfo(_:)`'s. Any other
  /// value is redacted as text.
  func field(_ name: String, _ value: String) -> String {
    guard let matcher else { return value }
    switch name {
    case "name", "given_name", "family_name", "middle_name":
      return value.trimmedWhitespace().isEmpty ? value : "name-" + Self.digest(value.trimmedWhitespace().lowercased())
    case "client_info":
      return matcher.clientInfos[value] ?? Self.clientInfo(value)
    default:
      return matcher.value(value)
    }
  }

  /// A `client_info` (base64url JSON `{"uid":…,"utid":…}`) as a redacted report shows it: the same JSON with the
  /// uid as its token and the utid (a tenant id) as it is, encoded again, so that it still decodes to the
  /// home tenant and to the account's token but never to its id; members other than these two are left out. A
  /// value that is not such JSON becomes `client-info-<12 hex>`. The uid's token is made here, not looked up:
  /// it is the one the matcher gives the same id (`RedactionNames` gathers it) and, for a uid too short to be
  /// gathered, the one it would give.
  private static func clientInfo(_ value: String) -> String {
    guard let data = Base64URL.decode(value), let object = (try? JSONParser().parse(data))?.objectValue,
      let uid = object["uid"]?.stringValue, !uid.trimmedWhitespace().isEmpty
    else { return "client-info-" + digest(value) }
    var redacted = JSONObject()
    for member in object {
      switch member.key {
      case "uid": redacted["uid"] = .string("account-" + digest(uid.trimmedWhitespace().lowercased()))
      case "utid": redacted["utid"] = member.value
      default: continue
      }
    }
    return Base64URL.encode(JSONText.compact(.object(redacted)))
  }

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
  /// Every `client_info` value, as written (the redactor re-encodes each once, `Redactor.field(_:_:)`).
  fileprivate var clientInfos: Set<String> = []

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
        switch entity {
        case .account(let account):
          addName(account.username)
          addID(account.localAccountID)
          addID(account.alternativeAccountID)
          addClientInfo(account.clientInfo)
        case .accessToken(let token): addClientInfo(token.clientInfo)
        case .refreshToken(let token): addClientInfo(token.clientInfo)
        case .idToken(let token): addClientInfo(token.clientInfo)
        case .appMetadata: break
        }
      }
    }
  }

  /// Adds a `client_info` and the uid it holds (an account id, which any text may name).
  private mutating func addClientInfo(_ clientInfo: String?) {
    guard let clientInfo, !clientInfo.isEmpty, clientInfos.insert(clientInfo).inserted else { return }
    if let data = Base64URL.decode(clientInfo), let object = (try? JSONParser().parse(data))?.objectValue {
      addID(object["uid"]?.stringValue)
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
