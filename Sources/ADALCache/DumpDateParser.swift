import Adal2MSALSupport
import Foundation

/// Parses the date spellings keychain dumps use, by hand (dumps hold two dates per item, and
/// `DateFormatter` dominated reading time):
/// `2019-06-07 10:11:12 +0000` (`-[NSDate description]`, objection), `2019-06-07T10:11:12Z`,
/// `2019-06-07T10:11:12.5+02:00`, and `2019-06-07 10:11:12` (taken as UTC).
enum DumpDateParser {
  static func parse(_ text: String) -> Date? {
    var reader = DigitScanner(text)
    reader.skipSpaces()
    guard let year = reader.number(4), reader.take("-"), let month = reader.number(2), reader.take("-"),
      let day = reader.number(2), reader.take("T") || reader.take(" ") || reader.take("t"),
      let hour = reader.number(2), reader.take(":"), let minute = reader.number(2), reader.take(":"),
      let second = reader.number(2), (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60,
      second < 61
    else { return nil }
    var fraction = 0.0
    if reader.take(".") || reader.take(",") {
      guard let digits = reader.fraction() else { return nil }
      fraction = digits
    }
    reader.skipSpaces()
    var offset = 0
    if reader.take("Z") || reader.take("z") {
      offset = 0
    } else if let sign = reader.sign() {
      guard let hours = reader.number(2) else { return nil }
      _ = reader.take(":")
      guard let minutes = reader.number(2), hours < 24, minutes < 60 else { return nil }
      offset = sign * (hours * 3600 + minutes * 60)
    }
    reader.skipSpaces()
    guard reader.atEnd else { return nil }
    let days = CivilTime.daysSince1970(year: year, month: month, day: day)
    let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offset
    return Date(timeIntervalSince1970: Double(seconds) + fraction)
  }
}
