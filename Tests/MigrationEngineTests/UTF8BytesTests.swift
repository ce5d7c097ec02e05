import Testing
import _Adal2MSALTestSupport

@testable import MigrationEngine

/// The byte writers the reports are built with spell what `String` spells.
@Suite struct UTF8BytesTests {
  @Test(arguments: [0, 7, 9, 10, 42, 100, 65_535, 1_000_000, -1, -10, -987_654_321, Int.max, Int.min])
  func aDecimalIsWrittenAsStringWritesIt(value: Int) {
    var bytes: [UInt8] = Array("#".utf8)
    bytes.appendDecimal(value)
    #expect(String(decoding: bytes, as: UTF8.self) == "#\(value)")
  }

  /// `String(joining:)` is the interpolation of its parts: empty, short (stored inline), long, non-ASCII.
  @Test func joinedPartsAreTheirInterpolation() {
    let pieces = ["", "|", "MRRT", "access token for ", "https://graph.microsoft.com", "é\u{301}", "ü", "x"]
    var random = SeededGenerator(seed: 0x101E)
    for _ in 0..<2_000 {
      let parts = (0..<5).map { _ in
        (0..<Int.random(in: 0..<4, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
      }
      let joined = String(joining: parts[0], parts[1], parts[2], parts[3], parts[4])
      #expect(joined == "\(parts[0])\(parts[1])\(parts[2])\(parts[3])\(parts[4])", "\(parts)")
      #expect(Array(joined.utf8) == Array(parts.joined().utf8), "\(parts)")
      #expect(String(joining: parts[0], parts[1], parts[2], parts[3]) == parts[..<4].joined(), "\(parts)")
    }
  }
}
