import Foundation
import Testing

@testable import ADALCache

/// Hex attribute values as objection and other dumpers write them: plain, `0x`-prefixed, or `NSData`'s description
/// with its brackets and spaces, in either case; anything else, or an odd digit left over, is not hex.
@Suite struct HexAttributeTests {
  @Test(
    arguments: [
      ("", []), ("00ff", [0x00, 0xFF]), ("4D53", [0x4D, 0x53]), ("0x4d53", [0x4D, 0x53]), ("0X4d53", [0x4D, 0x53]),
      ("0x", []), ("<4d534f70 656e>", [0x4D, 0x53, 0x4F, 0x70, 0x65, 0x6E]), ("4d\n53", [0x4D, 0x53]),
      ("<4 d5 3>", [0x4D, 0x53]),
    ] as [(String, [UInt8])])
  func decodesHex(text: String, bytes: [UInt8]) {
    #expect(KeychainAttributeValues.hex(text) == Data(bytes), "\(text)")
  }

  @Test(arguments: ["4d5", "4g", "0x4d5", "x4d", "4d 5", "4d-53", "é4", "0xx4d"])
  func refusesWhatIsNotHex(text: String) {
    #expect(KeychainAttributeValues.hex(text) == nil, "\(text)")
  }

  /// A long value, as an objection dump holds each item: every byte value, in lowercase and in uppercase.
  @Test func decodesEveryByteOfALongValue() {
    let bytes = (0..<4_096).map { UInt8(truncatingIfNeeded: $0 &* 7) }
    let lower = bytes.map { String(format: "%02x", $0) }.joined()
    #expect(KeychainAttributeValues.hex(lower) == Data(bytes))
    #expect(KeychainAttributeValues.hex(lower.uppercased()) == Data(bytes))
  }
}
