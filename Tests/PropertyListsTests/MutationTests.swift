import Adal2MSALSupport
import Foundation
import PropertyLists
import Testing
import _Adal2MSALTestSupport

/// Seeded byte mutations of real inputs: every result is a value or a `PropertyListError`, never a crash or a
/// hang (the reader's contract on hostile input).
@Suite struct MutationTests {
  struct Generator {
    var state: UInt64
    mutating func next(_ bound: Int) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((state >> 33) % UInt64(bound))
    }
  }

  static let inputs = [
    "adal-objc/adal_v1_backcompat_item.bplist", "plist/all-types.binary.plist", "plist/archive-foundation.binary.plist",
    "plist/archive-foundation.xml.plist", "plist/top-array.xml.plist",
  ]

  @Test(arguments: inputs)
  func mutatedInputsFailCleanly(file: String) throws {
    let original = try Fixtures.data(file)
    var random = Generator(
      state: file.utf8.reduce(UInt64(1_469_598_103_934_665_603)) { ($0 ^ UInt64($1)) &* 1_099_511_628_211 })
    let limits = InputLimits(maxDepth: 64)
    var failures = 0
    for _ in 0..<600 {
      var bytes = [UInt8](original)
      for _ in 0...random.next(4) {
        let position = random.next(bytes.count)
        switch random.next(3) {
        case 0: bytes[position] = UInt8(random.next(256))
        case 1: bytes[position] ^= UInt8(1 << random.next(8))
        default: bytes.removeSubrange(position..<min(bytes.count, position + random.next(16) + 1))
        }
        if bytes.isEmpty { bytes = [0] }
      }
      do {
        let document = try PropertyListReader(limits: limits).read(Data(bytes), file: file)
        if KeyedArchive.isKeyedArchive(document.value) {
          _ = try KeyedArchiveReader(limits: limits).read(document.value, file: file)
        }
      } catch {
        failures += 1
        #expect(error.location.file == file)
        #expect(!error.description.contains("<access token>"))
      }
    }
    #expect(failures > 0)
  }
}
