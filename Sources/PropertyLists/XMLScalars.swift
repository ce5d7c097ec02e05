import Adal2MSALSupport
import Foundation

/// Text-to-value conversions of the XML property list format: `<integer>`, `<real>`, `<date>`, `<data>`.
enum XMLScalars {
  static func isWhitespace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }

  static func trimmed(_ text: String) -> Substring {
    let utf8 = text.utf8
    guard let first = utf8.firstIndex(where: { !isWhitespace($0) }),
      let last = utf8.lastIndex(where: { !isWhitespace($0) })
    else { return "" }
    return text[first...last]
  }

  /// Decimal (optionally signed) or `0x` hexadecimal, anything that fits in a signed 128-bit integer.
  static func integer(_ text: String) -> Int128? {
    var digits = trimmed(text).utf8
    var negative = false
    if let sign = digits.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") {
      negative = sign == UInt8(ascii: "-")
      digits = digits.dropFirst()
    }
    var radix: Int128 = 10
    if digits.starts(with: "0x".utf8) || digits.starts(with: "0X".utf8) {
      radix = 16
      digits = digits.dropFirst(2)
    }
    guard !digits.isEmpty else { return nil }
    var magnitude: Int128 = 0
    for byte in digits {
      let digit: Int128
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = Int128(byte - UInt8(ascii: "0"))
      case UInt8(ascii: "a")...UInt8(ascii: "f") where radix == 16: digit = Int128(byte - UInt8(ascii: "a") + 10)
      case UInt8(ascii: "A")...UInt8(ascii: "F") where radix == 16: digit = Int128(byte - UInt8(ascii: "A") + 10)
      default: return nil
      }
      // Accumulate negatively so that Int128.min is reachable.
      let (shifted, overflow1) = magnitude.multipliedReportingOverflow(by: radix)
      let (next, overflow2) = shifted.subtractingReportingOverflow(digit)
      guard !overflow1, !overflow2 else { return nil }
      magnitude = next
    }
    if negative { return magnitude }
    let (positive, overflow) = Int128(0).subtractingReportingOverflow(magnitude)
    return overflow ? nil : positive
  }

  /// A real, including the spellings of non-finite values that plistlib (`nan`, `inf`, `-inf`) and Foundation
  /// (`nan`, `+infinity`, `-infinity`) write.
  static func real(_ text: String) -> Double? {
    let value = trimmed(text).lowercased()
    switch value {
    case "nan", "+nan", "-nan": return .nan
    case "inf", "+inf", "infinity", "+infinity": return .infinity
    case "-inf", "-infinity": return -.infinity
    case "": return nil
    default: return Double(value)
    }
  }

  /// `YYYY-MM-DDTHH:MM:SSZ` (UTC), the only form property lists use.
  static func date(_ text: String) -> Date? {
    let chars = Array(trimmed(text).utf8)
    guard chars.count == 20, chars[4] == UInt8(ascii: "-"), chars[7] == UInt8(ascii: "-"),
      chars[10] == UInt8(ascii: "T"), chars[13] == UInt8(ascii: ":"), chars[16] == UInt8(ascii: ":"),
      chars[19] == UInt8(ascii: "Z")
    else { return nil }
    func number(_ range: Range<Int>) -> Int? {
      var value = 0
      for index in range {
        let byte = chars[index]
        guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
        value = value * 10 + Int(byte - UInt8(ascii: "0"))
      }
      return value
    }
    guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
      let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
      (1...12).contains(month), day >= 1, day <= CivilTime.dayCount(month: month, year: year), hour < 24, minute < 60,
      second < 61
    else { return nil }
    let days = CivilTime.daysSince1970(year: year, month: month, day: day)
    return Date(timeIntervalSince1970: Double(days * 86_400 + hour * 3_600 + minute * 60 + second))
  }

  /// Base64 with any whitespace and line breaks; padding may be omitted.
  static func data(_ text: String) -> Data? {
    // Filtered from the contiguous UTF-8 (through the generic `utf8.filter`, 4% of a fleet's read).
    var compact: [UInt8] = []
    var text = text
    text.withUTF8 { utf8 in
      compact.reserveCapacity(utf8.count + 3)
      for byte in utf8 where !isWhitespace(byte) { compact.append(byte) }
    }
    while compact.last == UInt8(ascii: "=") { compact.removeLast() }
    guard compact.count % 4 != 1 else { return nil }
    compact.append(contentsOf: repeatElement(UInt8(ascii: "="), count: (4 - compact.count % 4) % 4))
    return Data(base64Encoded: Data(compact))
  }
}
