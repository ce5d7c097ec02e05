import Foundation

/// base64url (RFC 4648 §5) without padding, as ADAL writes keychain attributes and JWTs carry their segments.
public enum Base64URL {
  public static func encode(_ data: Data) -> String {
    // One pass over the ASCII bytes of the standard encoding (three Foundation string replacements were a
    // hot spot: every keychain key and id token goes through here).
    var bytes = Array(data.base64EncodedString().utf8)
    while bytes.last == UInt8(ascii: "=") { bytes.removeLast() }
    for index in bytes.indices {
      if bytes[index] == UInt8(ascii: "+") {
        bytes[index] = UInt8(ascii: "-")
      } else if bytes[index] == UInt8(ascii: "/") {
        bytes[index] = UInt8(ascii: "_")
      }
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  public static func encode(_ string: String) -> String { encode(Data(string.utf8)) }

  /// Decodes base64url with or without padding; also accepts the standard alphabet and ignores whitespace.
  /// Returns nil for input whose length leaves a single dangling character (`count % 4 == 1`) or that holds
  /// other characters. Works on bytes: every id token and keychain attribute goes through here.
  public static func decode(_ text: String) -> Data? {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(text.utf8.count + 3)
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "-"): bytes.append(UInt8(ascii: "+"))
      case UInt8(ascii: "_"): bytes.append(UInt8(ascii: "/"))
      case UInt8(ascii: "="), UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"): continue
      default: bytes.append(byte)
      }
    }
    guard bytes.count % 4 != 1 else { return nil }
    bytes.append(contentsOf: repeatElement(UInt8(ascii: "="), count: (4 - bytes.count % 4) % 4))
    return Data(base64Encoded: Data(bytes))
  }

  /// Decodes to a UTF-8 string, or nil.
  public static func decodeString(_ text: String) -> String? {
    decode(text).flatMap { String(data: $0, encoding: .utf8) }
  }
}
