/// What counts as a secret when showing values whose meaning is not modelled: property lists and archives
/// (`adal2msal inspect`, their descriptions) and the JSON a unified cache carries through unread (its unknown
/// sections and fields). One rule for all of them, so that a string hidden in one view is hidden in every other.
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
  /// is a JWT-like `xxx.yyy.zzz` of base64url segments, a Microsoft account token (`M.R3_BAY.-CRt…*…!…$$`, see
  /// `isMicrosoftAccountToken`), or more than 64 characters with no control character that is no URL
  /// (`scheme://…`). Azure AD's refresh tokens (`0.AXoA…`) have dots, Microsoft accounts' (`M.C5…`) `!`, `*` and
  /// `$`, and a damaged archive shows them in the generic tree under no key that names them; a URL without such a
  /// part, or a sentence, keeps its text.
  public static func looksLikeToken(_ text: String) -> Bool {
    if isTokenShaped(text) { return true }
    let words = text.utf8.split(whereSeparator: wordSeparators.contains)
    return words.count > 1 && words.contains { isTokenShaped(String(decoding: $0, as: UTF8.self)) }
  }

  /// A dictionary key as shown: a key can be a token too (a damaged archive's id token as a key).
  package static func shownKey(_ key: String, showSecrets: Bool = false) -> String {
    showSecrets || !looksLikeToken(key) ? key : SecretFingerprint.of(key)
  }

  /// Where `looksLikeToken` splits a string into words.
  private static let wordSeparators: Set<UInt8> = [
    0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: "?"), UInt8(ascii: "&"), UInt8(ascii: "="), UInt8(ascii: "#"),
    UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "\""), UInt8(ascii: "'"),
  ]

  private static func isTokenShaped(_ text: String) -> Bool {
    let utf8 = text.utf8
    let segments = utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
    if segments.count == 3, segments[0].count >= 8, segments[1].count >= 8,
      segments.allSatisfy({ $0.allSatisfy(isBase64URL) })
    {
      return true
    }
    if isMicrosoftAccountToken(utf8) { return true }
    return utf8.count > 64 && !text.contains("://") && utf8.allSatisfy { $0 > 0x20 && $0 != 0x7F }
  }

  private static func isBase64URL(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
      true
    default: false
    }
  }

  /// The shape of a Microsoft account (MSA) token: `M.`, a data-centre code of a letter then letters, digits and
  /// `_` with at least one digit or `_` (`R3_BAY`, `C5_BL2`, `C107_BAY`), `.`, then an opaque part of at least
  /// `minimumMicrosoftAccountBody` characters of base64 and `*`, `!`, `$`, `.`, `/`, `+`, `=` (often ending in
  /// `$$`). Such a token can be 64 characters or fewer, which the length rule lets through; a name
  /// (`M.Sc.`, `M.Smith`) or a version (`M.10.1.2`) has no such code.
  private static func isMicrosoftAccountToken(_ utf8: String.UTF8View) -> Bool {
    guard utf8.starts(with: "M.".utf8) else { return false }
    let rest = utf8.dropFirst(2)
    guard let dot = rest.firstIndex(of: UInt8(ascii: ".")) else { return false }
    let code = rest[..<dot]
    guard (2...16).contains(code.count), let first = code.first, isLetter(first),
      code.allSatisfy({ isBase64URL($0) && $0 != UInt8(ascii: "-") }),
      code.contains(where: { $0 == UInt8(ascii: "_") || isDigit($0) })
    else { return false }
    let body = rest[rest.index(after: dot)...]
    return body.count >= minimumMicrosoftAccountBody && body.allSatisfy(isMicrosoftAccountBody)
  }

  /// The shortest opaque part (after `M.code.`) taken for a Microsoft account token.
  private static let minimumMicrosoftAccountBody = 16

  private static func isMicrosoftAccountBody(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "*"), UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "."), UInt8(ascii: "/"),
      UInt8(ascii: "+"), UInt8(ascii: "="):
      true
    default: isBase64URL(byte)
    }
  }

  private static func isLetter(_ byte: UInt8) -> Bool {
    (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
  }

  private static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }
}
