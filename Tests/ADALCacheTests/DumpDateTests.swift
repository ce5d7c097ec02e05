import ADALCache
import Foundation
import Testing

/// Dump date spellings, checked through a JSON dump's `cdat` against Foundation's ISO 8601 parser.
@Suite("Dump dates")
struct DumpDateTests {
  func created(_ text: Any) throws -> Date? {
    let good = try Manifest.archive("archive-e1-at.bplist")
    let json: [[String: Any]] = [["gena": "MSOpenTech.ADAL.1", "v_Data": good.base64EncodedString(), "cdat": text]]
    let result = try ADALCacheReader().read(try JSONSerialization.data(withJSONObject: json), file: "d.json")
    return try #require(result.items.first).source.created
  }

  @Test(arguments: [
    ("2019-06-07 10:11:12 +0000", "2019-06-07T10:11:12Z"),
    ("2019-06-07T10:11:12Z", "2019-06-07T10:11:12Z"),
    ("2019-06-07 10:11:12", "2019-06-07T10:11:12Z"),
    ("2019-06-07T12:11:12+02:00", "2019-06-07T10:11:12Z"),
    ("2019-06-07 05:11:12 -0500", "2019-06-07T10:11:12Z"),
    ("2000-02-29T00:00:00Z", "2000-02-29T00:00:00Z"),
    ("1969-12-31T23:59:59Z", "1969-12-31T23:59:59Z"),
    ("2100-03-01T00:00:00Z", "2100-03-01T00:00:00Z"),
  ])
  func spellings(_ text: String, _ iso: String) throws {
    #expect(try created(text) == (try Date(iso, strategy: .iso8601)))
  }

  @Test func fractionsUnixSecondsAndGarbage() throws {
    let withFraction = try #require(try created("2019-06-07T10:11:12.250Z"))
    #expect(abs(withFraction.timeIntervalSince1970 - 1_559_902_272.25) < 0.0001)
    #expect(try created(1_559_902_272) == Date(timeIntervalSince1970: 1_559_902_272))
    #expect(try created("yesterday") == nil)
    #expect(try created("2019-13-07 10:11:12 +0000") == nil)
    #expect(try created("2019-06-07 10:11:12 +0000 extra") == nil)
  }
}
