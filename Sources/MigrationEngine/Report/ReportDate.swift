import Adal2MSALSupport
import Foundation

/// Dates as the report shows them: ISO 8601 UTC, whole seconds (`2026-11-21T10:00:00Z`).
enum ReportDate {
  /// Foundation's ISO 8601 style, which the fast path matches (tests compare them).
  static let style = Date.ISO8601FormatStyle(timeZone: TimeZone(identifier: "UTC") ?? .gmt)

  static func string(_ date: Date) -> String { civilTime(date)?.iso8601 ?? date.formatted(style) }

  /// Appends the date's text as UTF-8.
  static func write(_ date: Date, to bytes: inout [UInt8]) {
    guard let civil = civilTime(date) else { return bytes.appendUTF8(date.formatted(style)) }
    civil.writeISO8601(to: &bytes)
  }

  /// The date's civil time, for whole seconds from 1970 to 9999 (every date a cache holds), written without
  /// Foundation: its format style, one call per access token, was a tenth of a large text report. Nil for
  /// anything else, which goes through the style (the tests compare the two).
  private static func civilTime(_ date: Date) -> CivilTime? {
    let seconds = date.timeIntervalSince1970
    guard seconds >= 0, seconds < latestCivilSecond, seconds == seconds.rounded(.down) else { return nil }
    return CivilTime(secondsSince1970: Int(seconds))
  }

  /// 10000-01-01T00:00:00Z: four-digit years end here.
  static let latestCivilSecond: Double = 253_402_300_800
}
