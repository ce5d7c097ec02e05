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

/// What counts as a secret when showing property lists and archives.
public enum SecretPolicy {
  /// Coder keys and dictionary keys whose values are always secrets.
  public static let secretKeys: Set<String> = ["accessToken", "refreshToken", "sessionKey", "secret", "rawIdToken"]

  /// Whether the values under this key are secrets: one of `secretKeys`, or, compared without case, `_` and
  /// `-`, a name such as `refresh_token`, `access_token`, `id_token`, `client_secret`, `password`, `prt` or
  /// `certificate`, or any name ending in `token`, `secret`, `password` or `key` (`x-ms-token`, `appSecret`,
  /// `userPassword`, `signingKey`).
  public static func isSecretKey(_ key: String) -> Bool {
    if secretKeys.contains(key) { return true }
    let folded = String(key.lowercased().unicodeScalars.filter { $0 != "_" && $0 != "-" })
    if namedSecrets.contains(folded) { return true }
    return ["token", "secret", "password", "key"].contains { folded.hasSuffix($0) }
  }

  /// Folded names (lowercase, no `_` or `-`) of secrets that `isSecretKey`'s suffixes do not catch.
  private static let namedSecrets: Set<String> = [
    "passwd", "pwd", "assertion", "clientassertion", "authorizationcode", "cookie", "prt", "credential",
    "credentials", "certificate", "cert",
  ]

  /// Whether a string looks like a token or holds one: it, or a word of it (split at white space and at the
  /// `?`, `&`, `=`, `#`, `,`, `;` and quotes of a header or a URL's query: `Bearer eyJ…`, `msauth://app/?code=0.AX…`),
  /// is a JWT-like `xxx.yyy.zzz` of base64url segments, or more than 64 characters with no control character that
  /// is no URL (`scheme://…`). Azure AD's refresh tokens (`0.AXoA…`) have dots, Microsoft accounts' (`M.C5…`) `!`,
  /// `*` and `$`, and a damaged archive shows them in the generic tree under no key that names them; a URL without
  /// such a part, or a sentence, keeps its text.
  public static func looksLikeToken(_ text: String) -> Bool {
    if isTokenShaped(text) { return true }
    let words = text.utf8.split(whereSeparator: wordSeparators.contains)
    return words.count > 1 && words.contains { isTokenShaped(String(decoding: $0, as: UTF8.self)) }
  }

  /// Where `looksLikeToken` splits a string into words.
  private static let wordSeparators: Set<UInt8> = [
    0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: "?"), UInt8(ascii: "&"), UInt8(ascii: "="), UInt8(ascii: "#"),
    UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "\""), UInt8(ascii: "'"),
  ]

  private static func isTokenShaped(_ text: String) -> Bool {
    let utf8 = text.utf8
    func isBase64URL(_ byte: UInt8) -> Bool {
      switch byte {
      case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
        true
      default: false
      }
    }
    let segments = utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
    if segments.count == 3, segments[0].count >= 8, segments[1].count >= 8,
      segments.allSatisfy({ $0.allSatisfy(isBase64URL) })
    {
      return true
    }
    return utf8.count > 64 && !text.contains("://") && utf8.allSatisfy { $0 > 0x20 && $0 != 0x7F }
  }

  /// A dictionary key as shown: a key can be a token too (a damaged archive's id token as a key).
  static func shownKey(_ key: String, showSecrets: Bool) -> String {
    showSecrets || !looksLikeToken(key) ? key : SecretFingerprint.of(key)
  }
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
        self = .pairs(
          entries.map {
            (
              RenderNode($0.key, showSecrets: showSecrets, secret: secret),
              RenderNode($0.value, showSecrets: showSecrets, secret: secret)
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
