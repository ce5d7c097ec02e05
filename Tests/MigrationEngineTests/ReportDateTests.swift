import Foundation
import Testing
import _Adal2MSALTestSupport

@testable import MigrationEngine

/// The report's date writer: its civil-date fast path must give Foundation's ISO 8601 text, the oracle.
@Suite struct ReportDateTests {
  private static func foundation(_ seconds: Double) -> String {
    Date(timeIntervalSince1970: seconds).formatted(ReportDate.style)
  }

  @Test("whole seconds at the calendar's edges match Foundation's ISO 8601 style")
  func edges() {
    let cases: [Double] = [
      0, 59, 86_399, 86_400,
      68_255_999,  // 1972-02-29T23:59:59Z, the first leap day after 1970
      951_782_400,  // 2000-02-29T00:00:00Z: divisible by 400, a leap year
      4_107_542_400,  // 2100-03-01T00:00:00Z: divisible by 100, not a leap year
      1_795_255_200,  // 2026-11-21T10:00:00Z, the tests' clock
      253_402_300_799,  // 9999-12-31T23:59:59Z, the last four-digit year
    ]
    for seconds in cases {
      #expect(ReportDate.string(Date(timeIntervalSince1970: seconds)) == Self.foundation(seconds), "\(seconds)")
    }
    #expect(ReportDate.string(Date(timeIntervalSince1970: 1_795_255_200)) == "2026-11-21T10:00:00Z")
    #expect(ReportDate.string(Date(timeIntervalSince1970: 951_782_400)) == "2000-02-29T00:00:00Z")
  }

  @Test("3,000 seeded whole seconds from 1970 to 9999 match Foundation's ISO 8601 style")
  func seeded() {
    var random = SeededGenerator(seed: 0xDA7E)
    for _ in 0..<3_000 {
      // Half of them in the years caches hold, half anywhere up to 9999.
      let limit: UInt64 = Bool.random(using: &random) ? 4_102_444_800 : 253_402_300_800
      let seconds = Double(UInt64.random(in: 0..<limit, using: &random))
      #expect(ReportDate.string(Date(timeIntervalSince1970: seconds)) == Self.foundation(seconds), "\(seconds)")
      // Appended after other text, as report lines write it.
      var bytes = Array("expires ".utf8)
      ReportDate.write(Date(timeIntervalSince1970: seconds), to: &bytes)
      #expect(String(decoding: bytes, as: UTF8.self) == "expires " + Self.foundation(seconds), "\(seconds)")
    }
  }

  @Test("a reason made at its size is the interpolation's text, on the fast path and off it")
  func afterText() {
    var random = SeededGenerator(seed: 0x5EA5)
    let names = [
      "", "https://graph.microsoft.com", "https://contoso.sharepoint.com/é", "00000002-0000-0000-c000-000000000000",
    ]
    var seconds: [Double] = [0, -1, 1_795_255_200.75, 253_402_300_799, 253_402_300_800]
    for _ in 0..<500 { seconds.append(Double(UInt64.random(in: 0..<4_102_444_800, using: &random))) }
    for second in seconds {
      let date = Date(timeIntervalSince1970: second)
      for name in names {
        #expect(
          ReportDate.string(date, after: "access token for ", name, " expired at ")
            == "access token for \(name) expired at \(Self.foundation(second))", "\(second) \(name)")
      }
    }
  }

  @Test("dates outside the fast path (before 1970, fractions, after 9999) are Foundation's text")
  func outsideTheFastPath() {
    for seconds in [-1, -86_400.5, 1_795_255_200.75, 253_402_300_800, 300_000_000_000.0] {
      #expect(ReportDate.string(Date(timeIntervalSince1970: seconds)) == Self.foundation(seconds), "\(seconds)")
    }
    var bytes = Array("expires ".utf8)
    ReportDate.write(Date(timeIntervalSince1970: 86_400), to: &bytes)
    #expect(String(decoding: bytes, as: UTF8.self) == "expires 1970-01-02T00:00:00Z")
  }
}
