import Adal2MSALSupport

/// Descriptions and mirrors of JSON values: compact JSON in which every string that could be a secret is its
/// fingerprint (`SecretPolicy`: any string under a key that names a secret, such as `secret` or `refresh_token`,
/// or anywhere below one; a token-shaped string anywhere; a token-shaped key). A cache's unknown sections and an
/// entity's `additionalFields` are JSON carried through unread, which may hold credentials (MSAL Go's refresh
/// tokens, a future MSAL's `refresh_token_v2`): printing, interpolating or dumping them shows none.
///
/// A mirror's children are the shown (already fingerprinted) values, as `ShownJSON`: a string under `secret` is
/// hidden by its key, which the string's own mirror no longer sees. Without a custom mirror, `dump` and the
/// debugger walk the enum payloads and print the text itself.
extension JSONValue: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
  public var description: String { JSONText.compact(shown()) }
  public var debugDescription: String { description }
  public var customMirror: Mirror { shown().mirror(of: self) }

  /// The value with every string that could be a secret replaced by its fingerprint; `secret` when the value
  /// stands under a key that names a secret.
  func shown(secret: Bool = false) -> JSONValue {
    switch self {
    case .null, .bool, .number: self
    case .string(let text): secret || SecretPolicy.looksLikeToken(text) ? .string(SecretFingerprint.of(text)) : self
    case .array(let items): .array(items.map { $0.shown(secret: secret) })
    case .object(let object): .object(object.shown(secret: secret))
    }
  }

  /// A mirror of `subject` whose children are this (shown) value's elements or members.
  fileprivate func mirror<Subject>(of subject: Subject) -> Mirror {
    switch self {
    case .array(let items):
      Mirror(subject, unlabeledChildren: items.map(ShownJSON.init), displayStyle: .collection)
    case .object(let object):
      Mirror(
        subject, children: object.members.map { Mirror.Child(label: $0.key, value: ShownJSON($0.value)) },
        displayStyle: .dictionary)
    case .null, .bool, .number, .string:
      Mirror(subject, children: [:])
    }
  }
}

extension JSONObject: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
  public var description: String { JSONText.compact(.object(shown())) }
  public var debugDescription: String { description }
  public var customMirror: Mirror { JSONValue.object(shown()).mirror(of: self) }

  /// The members `shown`, each hidden by its own key too.
  func shown(secret: Bool = false) -> JSONObject { JSONObject(members.map { $0.shown(secret: secret) }) }
}

/// A member shows its value as it would be shown in its object: hidden by its key.
extension JSONMember: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
  public var description: String {
    let member = shown()
    return "\(JSONText.compact(.string(member.key))): \(JSONText.compact(member.value))"
  }
  public var debugDescription: String { description }
  public var customMirror: Mirror {
    let member = shown()
    return Mirror(self, children: ["key": member.key, "value": ShownJSON(member.value)], displayStyle: .struct)
  }

  func shown(secret: Bool = false) -> JSONMember {
    JSONMember(
      SecretPolicy.shownKey(key), value.shown(secret: secret || SecretPolicy.isSecretKey(key)))
  }
}

/// A JSON value already shown (its secrets fingerprinted), as mirrors give their children: showing it again
/// would take the fingerprint of a fingerprint under a key such as `secret`.
struct ShownJSON: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
  let value: JSONValue

  init(_ value: JSONValue) { self.value = value }

  var description: String { JSONText.compact(value) }
  var debugDescription: String { description }
  var customMirror: Mirror { value.mirror(of: self) }
}
