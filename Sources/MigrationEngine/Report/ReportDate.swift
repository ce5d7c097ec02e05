import Adal2MSALSupport
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
    CivilTime(secondsSince1970: Int(seconds)).writeISO8601(to: &bytes)
  }

  /// 10000-01-01T00:00:00Z: four-digit years end here.
  static let latestCivilSecond: Double = 253_402_300_800
}
