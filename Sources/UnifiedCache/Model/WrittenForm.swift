/// How an entry was written in the file it was read from: the key it was stored under and, for each modelled
/// field whose name varies between MSAL libraries (`kid`/`key_id`/`keyid`, `requested_claims`/`requestedClaims`,
/// `ext_expires_on` beside `extended_expires_on`, ...), the names it had there.
///
/// An export without a target library writes the entry back in this form, so a cache imported and exported
/// unchanged keeps its keys and spellings. It is not part of the entity's identity: two entries that differ only
/// in how they were spelled describe the same entity, so equality and hashing ignore it.
public struct WrittenForm: Sendable, Hashable, CustomStringConvertible {
  /// The entry's key in its file; nil for entries without one (keychain items, entities made from ADAL items).
  public var key: String?
  /// Modelled field name -> the names it was written under, in file order; only fields written otherwise than
  /// the model's own name (or under more than one name) appear.
  public var fieldNames: [String: [String]]
  /// Written name -> the exact JSON of a modelled field whose text the model normalizes (a timestamp written as
  /// a number or with a fraction, Go's `credential_type` `IDToken`). Written back while the model's value is
  /// still the one it was read as.
  public var values: [String: JSONValue]

  public init(key: String? = nil, fieldNames: [String: [String]] = [:], values: [String: JSONValue] = [:]) {
    self.key = key
    self.fieldNames = fieldNames
    self.values = values
  }

  /// Whether there is nothing to remember.
  public var isEmpty: Bool { key == nil && fieldNames.isEmpty && values.isEmpty }

  /// The names to write `field` under: as read, else the model's name.
  public func names(for field: String) -> [String] { fieldNames[field] ?? [field] }

  public static func == (lhs: WrittenForm, rhs: WrittenForm) -> Bool { true }
  public func hash(into hasher: inout Hasher) {}

  public var description: String {
    "WrittenForm(key: \(key ?? "-"), fieldNames: \(fieldNames), values: \(values.keys.sorted()))"
  }
}
