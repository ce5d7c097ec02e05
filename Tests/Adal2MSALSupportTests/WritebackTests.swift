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
    let descriptor = try newFile("writeback")
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

/// A file is flushed on another thread each `interval` bytes its writer writes (`FlushAhead`), and a flush that
/// failed fails the writer's next step: its error would not reach the final `fsync`.
@Suite struct FlushAheadTests {
  @Test func aFileIsFlushedAsItIsWritten() throws {
    let descriptor = try newFile("flush-ahead")
    defer { close(descriptor) }
    let flushes = FlushAhead(descriptor, interval: 64 << 10)
    let bytes = [UInt8](repeating: 0x61, count: 48 << 10)
    for _ in 0..<4 {
      #expect(bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) } == bytes.count)
      try flushes.wrote(bytes.count)
    }
    try flushes.finish()
    try flushes.finish()  // nothing left in flight
  }

  /// `fdatasync` of a pipe fails (EINVAL): the failure shows only if a flush ran, and only once one is due.
  @Test func aFailedFlushIsThrownAndNoFlushRunsBeforeItIsDue() throws {
    var ends: [Int32] = [0, 0]
    try #require(pipe(&ends) == 0)
    defer { for end in ends { close(end) } }
    let early = FlushAhead(ends[1], interval: 100)
    try early.wrote(99)
    try early.finish()

    let due = FlushAhead(ends[1], interval: 100)
    try due.wrote(60)
    try due.wrote(40)
    #expect(throws: SyncFailure(code: EINVAL)) { try due.finish() }
    try due.finish()  // thrown once, as the system reports it once
  }
}

/// A new file in a temporary directory named for the test, open for writing.
private func newFile(_ directory: String) throws -> Int32 {
  let path = try Fixtures.temporaryDirectory(directory).appendingPathComponent("written").path
  let descriptor = open(path, O_CREAT | O_WRONLY | O_CLOEXEC, 0o600)
  try #require(descriptor >= 0)
  return descriptor
}
