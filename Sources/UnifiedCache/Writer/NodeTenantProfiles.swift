import Adal2MSALSupport
import Foundation

/// msal-node's one Account per home account and environment, with a tenant profile for each tenant.
///
/// msal-node (msal-common 14+) keys an Account by the tenant half of its home account id
/// (`LibraryKeys.accountKey`), so the Accounts of one user in several tenants (the home tenant and guest tenants)
/// share one key. It stores them as one entry: the home tenant's Account, whose `tenantProfiles` field lists every
/// tenant as a JSON-encoded string `{"tenantId":…,"localAccountId":…,"name":…,"isHomeTenant":…}` (members
/// without a value left out). An export for it merges such Accounts the same way: the home tenant's (realm equal
/// to the tenant half of `home_account_id`) is the entry, else the first by canonical key, said in a note; the
/// profiles an imported entry already lists are kept as they were written, and a tenant is listed once.
/// docs/unified-cache-keys.md, "msal-node's tenant profiles".
enum NodeTenantProfiles {
  /// The field msal-node writes the profiles under.
  static let field = "tenantProfiles"
  /// The code of the note said when no Account of a merged user is the home tenant's.
  static let noHomeTenantCode = "export.tenant-profiles"

  /// `entities` with the Accounts msal-node keys alike merged into one, each Account with its `tenantProfiles`,
  /// and a note for each merged user without a home-tenant Account. An Account of a tenant already merged (the
  /// same realm but for case; not met in a `UnifiedSection`, whose canonical keys are lowercased) is passed on
  /// after the merged one, for the writer to leave out as keyed alike rather than drop it unsaid.
  static func merge(_ entities: [AnyUnifiedEntity]) -> (entities: [AnyUnifiedEntity], notes: [Diagnostic]) {
    var order: [String] = []
    var groups: [String: [UnifiedAccount]] = [:]
    var others: [AnyUnifiedEntity] = []
    for entity in entities {
      guard case .account(let account) = entity else {
        others.append(entity)
        continue
      }
      let key = LibraryKeys.key(for: entity, in: .node)
      if groups[key] == nil { order.append(key) }
      groups[key, default: []].append(account)
    }
    var merged: [AnyUnifiedEntity] = []
    var notes: [Diagnostic] = []
    for key in order {
      var tenants: [UnifiedAccount] = []
      var sameTenant: [UnifiedAccount] = []
      var realms: Set<String> = []
      for account in groups[key] ?? [] {
        if realms.insert(account.realm.lowercased()).inserted {
          tenants.append(account)
        } else {
          sameTenant.append(account)
        }
      }
      tenants.sort { $0.canonicalKey < $1.canonicalKey }
      let home = tenants.firstIndex(where: \.isInHomeTenant)
      let base = tenants.remove(at: home ?? 0)
      if home == nil, !tenants.isEmpty {
        notes.append(
          Diagnostic(
            .note, code: noHomeTenantCode,
            "MSAL Node keeps one account per home account and environment ('\(key)'), with a tenant profile per "
              + "tenant; none of its \(tenants.count + 1) tenants is the home tenant "
              + "'\(UnifiedAccount.homeTenant(of: base.homeAccountID) ?? "")': wrote the account of tenant '\(base.realm)' "
              + "as the entry, and the others as its tenant profiles",
            at: SourceLocation(keyPath: "\(UnifiedEntityKind.account.sectionName).\(key)")))
      }
      merged.append(.account(withProfiles(base, others: tenants)))
      for account in sameTenant {
        // The same account read under another alias of the cloud: one entry under the cache host.
        guard let twin = ([base] + tenants).first(where: { $0 == account }) else {
          merged.append(.account(account))
          continue
        }
        notes.append(
          Diagnostic(
            .note, code: CacheExport.sameEntryCode,
            "MSAL Node keeps one account per home account and environment ('\(key)'), and two entries of tenant "
              + "'\(twin.realm)' are one entry under \(twin.environment): wrote it once",
            at: SourceLocation(keyPath: "\(UnifiedEntityKind.account.sectionName).\(key)")))
      }
    }
    return (merged + others, notes)
  }

  /// `base` with `tenantProfiles`: the profiles it already lists, then its own and each of `others`' (unless its
  /// tenant is listed), then those the others list of further tenants.
  static func withProfiles(_ base: UnifiedAccount, others: [UnifiedAccount]) -> UnifiedAccount {
    var profiles: [JSONValue] = []
    var listed: Set<String> = []
    func add(_ profile: JSONValue, tenant: String?) {
      if let tenant, !listed.insert(tenant.lowercased()).inserted { return }
      profiles.append(profile)
    }
    for profile in listedProfiles(of: base) { add(profile, tenant: tenantID(of: profile)) }
    for account in [base] + others { add(.string(profile(of: account)), tenant: account.realm) }
    for account in others {
      for profile in listedProfiles(of: account) { add(profile, tenant: tenantID(of: profile)) }
    }
    var written = base
    written.additionalFields[field] = .array(profiles)
    return written
  }

  /// The tenant profile of `account`, as msal-node writes one: a JSON object in one line, as a string.
  static func profile(of account: UnifiedAccount) -> String {
    var object = JSONObject()
    object["tenantId"] = .string(account.realm)
    object["localAccountId"] = account.localAccountID.map(JSONValue.string)
    object["name"] = account.name.map(JSONValue.string)
    object["isHomeTenant"] = .bool(account.isInHomeTenant)
    return JSONText.compact(.object(object))
  }

  /// The profiles an imported entry lists (each as it was written), none when it has no such array.
  private static func listedProfiles(of account: UnifiedAccount) -> [JSONValue] {
    account.additionalFields[field]?.arrayValue ?? []
  }

  /// The `tenantId` of a listed profile: a JSON-encoded string (as msal-node writes them) or an object.
  private static func tenantID(of profile: JSONValue) -> String? {
    switch profile {
    case .string(let text):
      guard let parsed = try? JSONParser().parse(Data(text.utf8)) else { return nil }
      return parsed.objectValue?["tenantId"]?.stringValue
    case .object(let object): return object["tenantId"]?.stringValue
    default: return nil
    }
  }
}
