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

  /// `head`, `name`, `tail` and the date's text, in one string made at its size: the reason of every expired
  /// access token's skip (most of a cache's access tokens are expired), which an interpolation made in about six
  /// allocations, growing its string as it went.
  static func string(_ date: Date, after head: StaticString, _ name: String, _ tail: StaticString) -> String {
    guard let civil = civilTime(date) else { return "\(head)\(name)\(tail)\(string(date))" }
    var name = name
    return name.withUTF8 { nameBytes in
      let count = head.utf8CodeUnitCount + nameBytes.count + tail.utf8CodeUnitCount + CivilTime.iso8601Length
      return String(unsafeUninitializedCapacity: count) { buffer in
        var end = 0
        func append(_ bytes: UnsafeBufferPointer<UInt8>) {
          _ = UnsafeMutableBufferPointer(rebasing: buffer[end...]).initialize(fromContentsOf: bytes)
          end += bytes.count
        }
        append(UnsafeBufferPointer(start: head.utf8Start, count: head.utf8CodeUnitCount))
        append(nameBytes)
        append(UnsafeBufferPointer(start: tail.utf8Start, count: tail.utf8CodeUnitCount))
        civil.writeISO8601(into: UnsafeMutableBufferPointer(rebasing: buffer[end...]))
        return count
      }
    }
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
