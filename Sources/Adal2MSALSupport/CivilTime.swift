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

extension CivilTime {
  /// Days from 1970-01-01 to `year`-`month`-`day` (negative before it), proleptic Gregorian: the inverse of the
  /// date `init(secondsSince1970:)` finds.
  package static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
    let shiftedYear = month <= 2 ? year - 1 : year  // years that start in March, so that the leap day ends them
    let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
    let yearOfEra = shiftedYear - era * 400
    let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  /// The days of `month` (1 to 12) in `year`.
  package static func dayCount(month: Int, year: Int) -> Int {
    switch month {
    case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
    case 4, 6, 9, 11: 30
    default: 31
    }
  }

  /// The largest distance from 1970, in seconds, of a moment this tool reads as epoch seconds (about 31,000
  /// years): the integer conversions of a date stay safe, and a report can write every such date.
  package static let epochSecondsLimit: Int64 = 1_000_000_000_000

  /// Epoch seconds as decimal text: digits, an optional sign before them and an optional fraction after a point
  /// (`1763719200`, `-86400`, `1763719200.5`), within `epochSecondsLimit`; nil for anything else (`1e9`, `0x10`,
  /// spaces, `nan`). The epoch reading of `--now`, as strict as its ISO 8601 one.
  package static func secondsSince1970(decimal text: String) -> Double? {
    var scanner = DigitScanner(text)
    _ = scanner.sign()
    guard scanner.digit() != nil else { return nil }
    while scanner.digit() != nil {}
    if scanner.take(".") {
      guard scanner.digit() != nil else { return nil }
      while scanner.digit() != nil {}
    }
    // The grammar checked, `Double` reads the value (correctly rounded, as a fraction summed digit by digit is not).
    guard scanner.atEnd, let seconds = Double(text), seconds.magnitude <= Double(epochSecondsLimit) else { return nil }
    return seconds
  }

  /// The moment an ISO 8601 date and time with its offset names, in seconds since 1970: `2026-11-21T10:00:00Z`,
  /// `2026-11-21T11:00:00.25+01:00` (the offset also as `+0100` or `+01`). Strict, where a formatter is lenient:
  /// every field of two digits (the year of four), a day the month has, hours 00 to 23, `T` and `Z` as capitals, an
  /// offset below 24 hours, and nothing after it; nil for any other text. A pinned clock read from a typo would
  /// change every expiry decision of a run.
  package static func secondsSince1970(iso8601 text: String) -> Double? {
    var scanner = DigitScanner(text)
    guard let year = scanner.number(4), scanner.take("-"), let month = scanner.number(2),
      scanner.take("-"), let day = scanner.number(2), scanner.take("T"), let hour = scanner.number(2),
      scanner.take(":"), let minute = scanner.number(2), scanner.take(":"),
      let second = scanner.number(2), (1...12).contains(month),
      (1...dayCount(month: month, year: year)).contains(day), hour < 24, minute < 60, second < 60
    else { return nil }
    var fraction = 0.0
    if scanner.take(".") {
      guard let digits = scanner.fraction() else { return nil }
      fraction = digits
    }
    var offset = 0
    if !scanner.take("Z") {
      guard let sign = scanner.sign(), let hours = scanner.number(2), hours < 24 else { return nil }
      var minutes = 0
      if !scanner.atEnd {
        _ = scanner.take(":")
        guard let value = scanner.number(2), value < 60 else { return nil }
        minutes = value
      }
      offset = sign * (hours * 3_600 + minutes * 60)
    }
    guard scanner.atEnd else { return nil }
    let seconds = daysSince1970(year: year, month: month, day: day) * 86_400 + hour * 3_600 + minute * 60 + second
    return Double(seconds - offset) + fraction
  }
}
