import Adal2MSALSupport
import Foundation
import Testing
import _Adal2MSALTestSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A file's written bytes are sent to disk as they are written where the system can (Linux), and a descriptor
/// that is no file is refused rather than taken.
@Suite struct WritebackTests {
  @Test func aRegularFileIsSentOnItsWay() throws {
    let path = try Fixtures.temporaryDirectory("writeback").appendingPathComponent("written").path
    let descriptor = open(path, O_CREAT | O_WRONLY | O_CLOEXEC, 0o600)
    try #require(descriptor >= 0)
    defer { close(descriptor) }
    let bytes = [UInt8](repeating: 0x61, count: 64 << 10)
    #expect(bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) } == bytes.count)
    #if canImport(Glibc)
      #expect(Writeback.start(descriptor, offset: 0, count: bytes.count))
    #else
      #expect(!Writeback.start(descriptor, offset: 0, count: bytes.count))
    #endif
    #expect(fsync(descriptor) == 0)
  }

  @Test func aPipeIsRefused() throws {
    var ends: [Int32] = [0, 0]
    try #require(pipe(&ends) == 0)
    defer { for end in ends { close(end) } }
    #expect(write(ends[1], "x", 1) == 1)
    #expect(!Writeback.start(ends[1], offset: 0, count: 1))
  }
}
