/// A moment as a proleptic Gregorian UTC date and time of day, from whole seconds since 1970, for writers of
/// ISO 8601 text that need neither a formatter nor a calendar (a formatter per date was a hot spot in reports).
package struct CivilTime: Sendable, Hashable {
  package var year: Int
  package var month: Int
  package var day: Int
  package var hour: Int
  package var minute: Int
  package var second: Int

  /// The civil time of `seconds` since 1970-01-01T00:00:00Z (negative seconds are before it).
  package init(secondsSince1970 seconds: Int) {
    let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
    let secondOfDay = seconds - days * 86_400
    // The days-to-civil algorithm: years shifted to start in March, so that the leap day ends them.
    let shifted = days + 719_468  // days from 0000-03-01
    let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
    let dayOfEra = shifted - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let monthFromMarch = (5 * dayOfYear + 2) / 153
    day = dayOfYear - (153 * monthFromMarch + 2) / 5 + 1
    month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
    year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    (hour, minute, second) = (secondOfDay / 3600, secondOfDay % 3600 / 60, secondOfDay % 60)
  }
}

extension CivilTime {
  /// The length of the ISO 8601 text: `2026-11-21T10:00:00Z`.
  package static let iso8601Length = 20

  /// ISO 8601 in UTC, whole seconds (`2026-11-21T10:00:00Z`), into the first `iso8601Length` bytes of
  /// `buffer`. Four-digit years: callers keep to years 0 through 9999.
  package func writeISO8601(into buffer: UnsafeMutableBufferPointer<UInt8>) {
    var position = 0
    func put(_ value: Int, width: Int, then separator: Unicode.Scalar) {
      var divisor = 1
      for _ in 1..<width { divisor *= 10 }
      while divisor > 0 {
        buffer[position] = UInt8(ascii: "0") + UInt8(value / divisor % 10)
        position += 1
        divisor /= 10
      }
      buffer[position] = UInt8(ascii: separator)
      position += 1
    }
    put(year, width: 4, then: "-")
    put(month, width: 2, then: "-")
    put(day, width: 2, then: "T")
    put(hour, width: 2, then: ":")
    put(minute, width: 2, then: ":")
    put(second, width: 2, then: "Z")
  }

  /// `writeISO8601(into:)`, appended as UTF-8 (grown once: digit by digit, a new array grew twice).
  package func writeISO8601(to bytes: inout [UInt8]) {
    let start = bytes.count
    bytes.append(contentsOf: repeatElement(0, count: Self.iso8601Length))
    bytes.withUnsafeMutableBufferPointer { writeISO8601(into: UnsafeMutableBufferPointer(rebasing: $0[start...])) }
  }

  /// `writeISO8601(into:)` as a String, written into its own storage.
  package var iso8601: String {
    String(unsafeUninitializedCapacity: Self.iso8601Length) { buffer in
      writeISO8601(into: buffer)
      return Self.iso8601Length
    }
  }
}
