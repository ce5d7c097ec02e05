import ADALCache
import Adal2MSALSupport
import Foundation
import UnifiedCache

/// What one item says about its user's home account id by itself (rules 1 and 2), and the existing accounts
/// a user name points to (rule 3).
enum IdentityEvidence {
  /// Rule 1: the archived `homeAccountId` (ADAL 2.7+), trimmed; nil when blank.
  static func archivedHomeAccountID(_ item: ADALTokenItem) -> String? {
    guard let home = item.homeAccountID?.trimmedWhitespaceAndNewlines(), !home.isEmpty else {
      return nil
    }
    return home
  }

  /// Rule 2: `client_info` in `additionalServer`: base64url JSON `{"uid":…,"utid":…}` gives `uid.utid`.
  static func clientInfoHomeAccountID(_ item: ADALTokenItem) -> String? {
    guard let entry = item.additionalServer.first(where: { $0.key == "client_info" }),
      let encoded = entry.value.stringValue, let data = Base64URL.decode(encoded),
      let object = (try? JSONParser().parse(data))?.objectValue,
      let uid = object["uid"]?.stringValue?.trimmedWhitespace(), !uid.isEmpty,
      let utid = object["utid"]?.stringValue?.trimmedWhitespace(), !utid.isEmpty
    else { return nil }
    return "\(uid).\(utid)"
  }
}

/// Existing unified accounts (target store plus MSAL inputs) by cloud and normalized user name: the
/// `accountForUsername` rule (trimmed, case-insensitive, same environment alias group).
struct ExistingAccountIndex: Sendable {
  private var byNameAndCloud: [String: [UnifiedAccount]] = [:]

  init(_ accounts: [UnifiedAccount]) {
    for account in accounts {
      guard let name = account.username?.trimmedWhitespaceAndNewlines().lowercased(),
        !name.isEmpty, !account.homeAccountID.isEmpty
      else { continue }
      byNameAndCloud["\(CloudGroups.group(of: account.environment))|\(name)", default: []].append(account)
    }
  }

  /// The distinct home account ids (compared case-insensitively, smallest spelling kept), sorted.
  func homeAccountIDs(username: String, cloud: String) -> [String] {
    // A new store and no MSAL inputs (the common run): no key to make, per item, for a lookup that fails.
    if byNameAndCloud.isEmpty { return [] }
    let key = "\(cloud)|\(username.trimmedWhitespaceAndNewlines().lowercased())"
    var byLower: [String: String] = [:]
    for account in byNameAndCloud[key] ?? [] {
      let lower = account.homeAccountID.lowercased()
      byLower[lower] = min(byLower[lower] ?? account.homeAccountID, account.homeAccountID)
    }
    return byLower.values.sorted()
  }
}
