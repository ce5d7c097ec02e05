import Testing

@testable import MigrationEngine

/// The byte writers the reports are built with spell what `String` spells.
@Suite struct UTF8BytesTests {
  @Test(arguments: [0, 7, 9, 10, 42, 100, 65_535, 1_000_000, -1, -10, -987_654_321, Int.max, Int.min])
  func aDecimalIsWrittenAsStringWritesIt(value: Int) {
    var bytes: [UInt8] = Array("#".utf8)
    bytes.appendDecimal(value)
    #expect(String(decoding: bytes, as: UTF8.self) == "#\(value)")
  }
}
