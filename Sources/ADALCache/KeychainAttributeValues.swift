import Adal2MSALSupport
import Foundation

/// Lenient conversions of dumped attribute values (plist or JSON) to what `KeychainRecord` holds.
enum KeychainAttributeValues {
  /// A string attribute: strings as they are, data as UTF-8.
  static func string(_ value: Any?) -> String? {
    switch value {
    case let text as String: return text
    case let bytes as Data: return String(data: bytes, encoding: .utf8)
    default: return nil
    }
  }

  /// A numeric attribute (`type`): integers, or strings of digits.
  static func integer(_ value: Any?) -> Int? {
    switch value {
    case let text as String: return Int(text.trimmedWhitespace())
    case let number as Int: return number
    case let number as Int64: return Int(exactly: number)
    case let number as NSNumber: return Int(exactly: number.doubleValue)
    default: return nil
    }
  }

  static func bool(_ value: Any?) -> Bool? {
    switch value {
    case let flag as Bool: return flag
    case let number as NSNumber: return number.intValue != 0
    case let text as String: return ["true", "1", "yes"].contains(text.lowercased())
    default: return nil
    }
  }

  /// A date: plist dates, ISO 8601 strings, `-[NSDate description]` (`2019-06-07 10:11:12 +0000`), and
  /// numbers as seconds since 1970.
  static func date(_ value: Any?) -> Date? {
    switch value {
    case let date as Date: return date
    case let number as NSNumber: return Date(timeIntervalSince1970: number.doubleValue)
    case let text as String: return parseDate(text.trimmedWhitespace())
    default: return nil
    }
  }

  static func parseDate(_ text: String) -> Date? {
    DumpDateParser.parse(text) ?? (try? Date(text, strategy: .iso8601))
  }

  /// Hex text (`4d53…`, `0x4d53…`, `<4d534f70 656e…>`); nil if it is not hex.
  static func hex(_ text: String) -> Data? {
    var text = text
    // Read from the contiguous UTF-8 into an array, made `Data` once: appended to a `Data` a byte at a time, each
    // byte went through its copy-on-write and exclusivity checks (a quarter of a fleet's read, whose objection
    // dumps are hex), and the generic walk of `utf8` was a tenth.
    return text.withUTF8 { utf8 -> Data? in
      var digits = utf8[...]
      if digits.starts(with: "0x".utf8) || digits.starts(with: "0X".utf8) { digits = digits.dropFirst(2) }
      var bytes: [UInt8] = []
      bytes.reserveCapacity(digits.count / 2)
      var high: UInt8?
      for byte in digits {
        let nibble: UInt8
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): nibble = byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): nibble = byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): nibble = byte - UInt8(ascii: "A") + 10
        case UInt8(ascii: " "), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "\n"): continue
        default: return nil
        }
        if let pending = high {
          bytes.append(pending << 4 | nibble)
          high = nil
        } else {
          high = nibble
        }
      }
      return high == nil ? Data(bytes) : nil
    }
  }

  /// Standard or URL-safe base64, padded or not.
  static func base64(_ text: String) -> Data? {
    let trimmed = text.trimmedWhitespaceAndNewlines()
    return Data(base64Encoded: trimmed) ?? Base64URL.decode(trimmed)
  }
}
