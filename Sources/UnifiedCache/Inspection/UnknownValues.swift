import Adal2MSALSupport

/// How the fields and sections this tool does not model are shown: by name and size only. Their values are
/// carried through a migration unchanged, but they may hold anything, tokens included (a future MSAL's
/// `refresh_token_v2`, an app's own secret), so `inspect` and `accounts` print them only when asked to.
public enum UnknownValues {
  /// `<withheld: string, 42 bytes>`: the JSON type and the size of the value's compact JSON text.
  public static func summary(_ value: JSONValue) -> JSONValue {
    .string("<withheld: \(value.typeName), \(size(value)) bytes>")
  }

  /// The size of the value's compact JSON text, in bytes.
  public static func size(_ value: JSONValue) -> Int { JSONText.compact(value).utf8.count }

  /// Every member's value replaced by its `summary`; the names stay.
  public static func withheld(_ object: JSONObject) -> JSONObject {
    JSONObject(object.map { JSONMember($0.key, summary($0.value)) })
  }

  /// `name (42 bytes)` for each member, for one-line text output.
  public static func names(_ object: JSONObject) -> [String] {
    object.map { "\($0.key) (\(size($0.value)) bytes)" }
  }

  /// The entity with its unknown fields withheld.
  public static func withholding(_ entity: AnyUnifiedEntity) -> AnyUnifiedEntity {
    switch entity {
    case .account(var value):
      value.additionalFields = withheld(value.additionalFields)
      return .account(value)
    case .accessToken(var value):
      value.additionalFields = withheld(value.additionalFields)
      return .accessToken(value)
    case .refreshToken(var value):
      value.additionalFields = withheld(value.additionalFields)
      return .refreshToken(value)
    case .idToken(var value):
      value.additionalFields = withheld(value.additionalFields)
      return .idToken(value)
    case .appMetadata(var value):
      value.additionalFields = withheld(value.additionalFields)
      return .appMetadata(value)
    }
  }

  /// The account with its unknown fields withheld.
  public static func withholding(_ account: UnifiedAccount) -> UnifiedAccount {
    var account = account
    account.additionalFields = withheld(account.additionalFields)
    return account
  }

  /// The cache with every unknown section and every entity's unknown fields withheld.
  public static func withholding(_ contents: UnifiedCacheContents) -> UnifiedCacheContents {
    var sections = JSONObject()
    for member in contents.unknownSections {
      // A known section's unmodelled entries: each entry withheld, so the entries' keys still show.
      if UnmodelledEntries.isKnownSection(member.key), let entries = member.value.objectValue {
        sections[member.key] = .object(withheld(entries))
      } else {
        sections[member.key] = summary(member.value)
      }
    }
    var out = UnifiedCacheContents(unknownSections: sections)
    for entity in contents.allEntities { out.upsert(withholding(entity)) }
    return out
  }
}
