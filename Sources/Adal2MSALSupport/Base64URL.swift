import Foundation

/// base64url (RFC 4648 §5) without padding, as ADAL writes keychain attributes and JWTs carry their segments.
public enum Base64URL {
  public static func encode(_ data: Data) -> String {
    data.base64EncodedString()
      .replacingOccurrences(of: "+", with: "-")
      .replacingOccurrences(of: "/", with: "_")
      .replacingOccurrences(of: "=", with: "")
  }

  public static func encode(_ string: String) -> String { encode(Data(string.utf8)) }

  /// Decodes base64url with or without padding; also accepts the standard alphabet. Returns nil for input
  /// whose length leaves a single dangling character (`count % 4 == 1`) or that holds other characters.
  public static func decode(_ text: String) -> Data? {
    var standard = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
    while standard.hasSuffix("=") { standard.removeLast() }
    guard standard.count % 4 != 1 else { return nil }
    standard += String(repeating: "=", count: (4 - standard.count % 4) % 4)
    return Data(base64Encoded: standard)
  }

  /// Decodes to a UTF-8 string, or nil.
  public static func decodeString(_ text: String) -> String? {
    decode(text).flatMap { String(data: $0, encoding: .utf8) }
  }
}
