import Foundation

/// Dates as the report shows them: ISO 8601 UTC, whole seconds (`2026-11-21T10:00:00Z`).
enum ReportDate {
  /// Foundation's ISO 8601 style, which the fast path matches (tests compare them).
  static let style = Date.ISO8601FormatStyle(timeZone: TimeZone(identifier: "UTC") ?? .gmt)

  static func string(_ date: Date) -> String {
    var bytes: [UInt8] = []
    write(date, to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Appends the date's text as UTF-8. Whole seconds from 1970 to 9999 (every date a cache holds) are
  /// written from the civil date: Foundation's format style, one call per access token, was a tenth of a
  /// large text report. Anything else goes through the style, which the tests compare the fast path with.
  static func write(_ date: Date, to bytes: inout [UInt8]) {
    let seconds = date.timeIntervalSince1970
    guard seconds >= 0, seconds < latestCivilSecond, seconds == seconds.rounded(.down) else {
      bytes.appendUTF8(date.formatted(style))
      return
    }
    let whole = Int(seconds)
    let (year, month, day) = civilDate(daysSince1970: whole / 86_400)
    let time = whole % 86_400
    func digits(_ value: Int, _ count: Int) {
      var divisor = 1
      for _ in 1..<count { divisor *= 10 }
      while divisor > 0 {
        bytes.append(UInt8(ascii: "0") + UInt8(value / divisor % 10))
        divisor /= 10
      }
    }
    digits(year, 4)
    bytes.append(UInt8(ascii: "-"))
    digits(month, 2)
    bytes.append(UInt8(ascii: "-"))
    digits(day, 2)
    bytes.append(UInt8(ascii: "T"))
    digits(time / 3600, 2)
    bytes.append(UInt8(ascii: ":"))
    digits(time / 60 % 60, 2)
    bytes.append(UInt8(ascii: ":"))
    digits(time % 60, 2)
    bytes.append(UInt8(ascii: "Z"))
  }

  /// 10000-01-01T00:00:00Z: four-digit years end here.
  static let latestCivilSecond: Double = 253_402_300_800

  /// The proleptic Gregorian date of a day count from 1970-01-01 (not negative), by shifting the year to
  /// start in March so that the leap day ends it (the well-known days-to-civil algorithm).
  static func civilDate(daysSince1970 days: Int) -> (year: Int, month: Int, day: Int) {
    let shifted = days + 719_468  // days from 0000-03-01
    let era = shifted / 146_097
    let dayOfEra = shifted - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let monthFromMarch = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * monthFromMarch + 2) / 5 + 1
    let month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
    return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
  }
}
