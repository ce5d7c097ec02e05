import Adal2MSALSupport
import Foundation
import Testing
import _Adal2MSALTestSupport

/// Bytes set aside stay in memory up to the limit, then go to a temporary file that is never seen in its
/// directory; every piece reads back as written, on either side of the switch.
@Suite struct SpillFileTests {
  @Test func piecesReadBackAcrossTheSwitchToAFile() throws {
    let directory = try Fixtures.temporaryDirectory("spill")
    let spill = SpillFile(directory: directory.path, memoryLimit: 100)
    var pieces: [(offset: Int, bytes: [UInt8])] = []
    for index in 0..<50 {
      let bytes = (0..<(index * 7 % 23)).map { UInt8(truncatingIfNeeded: $0 * 31 + index) }
      pieces.append((try spill.append(bytes), bytes))
      // The file is unlinked as soon as it is made: the directory stays empty.
      #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }
    #expect(spill.size > 100)
    for piece in pieces.reversed() {
      #expect(try spill.read(at: piece.offset, count: piece.bytes.count) == piece.bytes)
    }
  }

  @Test func aDirectoryThatCannotHoldTheFileIsAnErrorNamingIt() throws {
    let spill = SpillFile(directory: "/nonexistent-adal2msal-dir", memoryLimit: 4)
    try spill.append([1, 2, 3])
    #expect(try spill.read(at: 0, count: 3) == [1, 2, 3])
    #expect {
      try spill.append([4, 5])
    } throws: { error in
      (error as? SpillFileError)?.errorDescription?.contains("/nonexistent-adal2msal-dir/adal2msal-spill-") == true
    }
  }
}
