import Adal2MSALSupport
import Foundation

/// The shape both property list values and resolved archives are rendered from, with secrets already
/// replaced by their fingerprints.
enum RenderNode {
  case null
  case bool(Bool)
  case integer(Int128)
  case real(Double)
  case string(String)
  case date(Date)
  case data(Data)
  case uid(UInt64)
  /// A secret, as `SecretFingerprint.of(_:)`.
  case secret(String)
  case list(set: Bool, [RenderNode])
  /// A dictionary with string keys, or an archived object (with its class name and `$objects` index).
  case map(className: String?, objectIndex: Int?, [(key: String, value: RenderNode)])
  /// A dictionary whose keys are not all strings.
  case pairs([(key: RenderNode, value: RenderNode)])
}

extension RenderNode {
  init(_ value: PropertyListValue, showSecrets: Bool, secret: Bool = false) {
    let hide = secret && !showSecrets
    switch value {
    case .null: self = .null
    case .bool(let flag): self = .bool(flag)
    case .integer(let number): self = .integer(number)
    case .real(let number): self = .real(number)
    case .date(let date): self = .date(date)
    case .uid(let uid): self = .uid(uid)
    case .data(let data): self = hide ? .secret(SecretFingerprint.of(data)) : .data(data)
    case .string(let text): self = RenderNode.string(text.value, showSecrets: showSecrets, secret: secret)
    case .array(let elements), .set(let elements):
      let nodes = elements.map { RenderNode($0, showSecrets: showSecrets, secret: secret) }
      if case .set = value { self = .list(set: true, nodes) } else { self = .list(set: false, nodes) }
    case .dictionary(let dictionary):
      self = .map(
        className: nil, objectIndex: nil,
        dictionary.map { entry in
          let isSecret = secret || SecretPolicy.isSecretKey(entry.key)
          return (
            SecretPolicy.shownKey(entry.key, showSecrets: showSecrets),
            RenderNode(entry.value, showSecrets: showSecrets, secret: isSecret)
          )
        })
    }
  }

  init(_ value: ArchiveValue, showSecrets: Bool, secret: Bool = false) {
    let hide = secret && !showSecrets
    switch value {
    case .null: self = .null
    case .bool(let flag): self = .bool(flag)
    case .integer(let number): self = .integer(number)
    case .real(let number): self = .real(number)
    case .date(let date): self = .date(date)
    case .data(let data): self = hide ? .secret(SecretFingerprint.of(data)) : .data(data)
    case .string(let text): self = RenderNode.string(text.value, showSecrets: showSecrets, secret: secret)
    case .array(let elements):
      self = .list(set: false, elements.map { RenderNode($0, showSecrets: showSecrets, secret: secret) })
    case .set(let elements):
      self = .list(set: true, elements.map { RenderNode($0, showSecrets: showSecrets, secret: secret) })
    case .dictionary(let entries):
      if let keyed = value.stringKeyedEntries, keyed.count == entries.count {
        self = .map(
          className: nil, objectIndex: nil,
          keyed.map { entry in
            let isSecret = secret || SecretPolicy.isSecretKey(entry.key)
            return (
              SecretPolicy.shownKey(entry.key, showSecrets: showSecrets),
              RenderNode(entry.value, showSecrets: showSecrets, secret: isSecret)
            )
          })
      } else {
        // A string key still names its value (`refreshToken` beside keys that are objects).
        self = .pairs(
          entries.map { entry in
            let isSecret = secret || entry.key.stringValue.map(SecretPolicy.isSecretKey) == true
            return (
              RenderNode(entry.key, showSecrets: showSecrets, secret: secret),
              RenderNode(entry.value, showSecrets: showSecrets, secret: isSecret)
            )
          })
      }
    case .object(let object):
      self = .map(
        className: object.className, objectIndex: object.objectIndex,
        object.fields.map { field in
          let isSecret = secret || SecretPolicy.isSecretKey(field.key)
          return (field.key, RenderNode(field.value, showSecrets: showSecrets, secret: isSecret))
        })
    }
  }

  private static func string(_ text: String, showSecrets: Bool, secret: Bool) -> RenderNode {
    if showSecrets || !(secret || SecretPolicy.looksLikeToken(text)) { return .string(text) }
    return .secret(SecretFingerprint.of(text))
  }
}
