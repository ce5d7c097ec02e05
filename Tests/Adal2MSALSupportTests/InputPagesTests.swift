import Adal2MSALSupport
import Foundation
import Testing
import _Adal2MSALTestSupport

/// An input read into memory of its own gives its pages back as a reader lets go of them: a page goes once no
/// held range touches it, and the bytes of the pages still held stay as read.
@Suite struct InputPagesTests {
  /// A file of `pages` pages of distinct bytes, read releasably.
  private func input(pages: Int) throws -> (bytes: [UInt8], data: Data, pages: InputPages) {
    let pageSize = Int(getpagesize())
    let bytes = (0..<(pages * pageSize - 100)).map { UInt8(truncatingIfNeeded: $0 * 7 + $0 / 251) }
    let file = try Fixtures.temporaryDirectory("input-pages").appendingPathComponent("input")
    try Data(bytes).write(to: file)
    let (data, inputPages) = try InputFile.readReleasable(file.path)
    return (bytes, data, try #require(inputPages))
  }

  @Test func readsTheFileAsReadDoes() throws {
    let (bytes, data, pages) = try input(pages: 3)
    #expect(data == Data(bytes))
    #expect(pages.pageCount == 3)
    #expect(pages.releasedPageCount == 0)
  }

  /// A file of several of the reader's chunks (8 MiB, read on every core) and a part of one comes back whole and
  /// in place: each 4-byte word holds its own offset.
  @Test func aFileOfSeveralChunksIsReadWhole() throws {
    let words = (2 * (8 << 20) + 12_345) / 4
    var bytes = [UInt8](repeating: 0, count: words * 4 + 3)
    for word in 0..<words {
      withUnsafeBytes(of: UInt32(word * 4).littleEndian) {
        bytes.replaceSubrange((word * 4)..<(word * 4 + 4), with: $0)
      }
    }
    let file = try Fixtures.temporaryDirectory("input-chunks").appendingPathComponent("input")
    try Data(bytes).write(to: file)
    let (data, pages) = try InputFile.readReleasable(file.path)
    #expect(pages != nil)
    #expect(data.count == bytes.count)
    // Compared whole with memcmp, not `data == Data(bytes)`: a failed `==` of 16 MB collections has Swift
    // Testing work out their difference, for minutes.
    let same = data.withUnsafeBytes { read in
      bytes.withUnsafeBytes { written in
        read.count == written.count && memcmp(read.baseAddress!, written.baseAddress!, written.count) == 0
      }
    }
    #expect(same)
  }

  #if os(Linux)
    /// A file that holds fewer bytes than its size said when it was opened (as one truncated while it is read) is
    /// read as the bytes it has, never padded with zeros to the size. A sysfs attribute is such a file every time:
    /// `stat` gives it 4,096 bytes and a read a few.
    @Test func aFileShorterThanItsSizeIsReadAsTheBytesItHas() throws {
      let path = "/sys/devices/system/cpu/online"
      var status = stat()
      #expect(stat(path, &status) == 0)
      let held = try #require(FileManager.default.contents(atPath: path))
      #expect(Int(status.st_size) > held.count)
      let (data, pages) = try InputFile.readReleasable(path)
      #expect(pages != nil)
      #expect(data == held)
    }
  #endif

  @Test func aPageGoesOnceNoHeldRangeTouchesIt() throws {
    let (bytes, data, pages) = try input(pages: 4)
    let size = Int(getpagesize())
    // Page 0 unheld; one range over pages 1 and 2; another on page 2 alone; page 3 held by a third.
    let (across, inner, last) = (
      (size + 10)..<(2 * size + 5), (2 * size + 50)..<(2 * size + 60), (3 * size)..<(3 * size + 1)
    )
    pages.hold([across, inner, last])
    pages.releaseUnheld()
    #expect(pages.releasedPageCount == 1)
    pages.release([across])
    #expect(pages.releasedPageCount == 2)  // page 1; page 2 is still held by `inner`
    #expect(Array(data[inner]) == Array(bytes[inner]))
    #expect(Array(data[last]) == Array(bytes[last]))
    pages.release([inner, last])
    #expect(pages.releasedPageCount == 4)
  }

  @Test func rangesAreOnlyThoseOfTheInputsOwnBytes() throws {
    let (_, data, pages) = try input(pages: 2)
    let slice = data[100..<5000]
    let borrowed = Data(
      bytesNoCopy: UnsafeMutableRawPointer(mutating: slice.withUnsafeBytes { $0.baseAddress! }), count: slice.count,
      deallocator: .none)
    #expect(pages.range(of: borrowed) == 100..<5000)
    #expect(pages.range(of: Data(slice)) == nil)  // a copy
    #expect(pages.range(of: Data()) == nil)
  }

  @Test func waitsBeforeTheFirstPageGoes() throws {
    let (_, _, pages) = try input(pages: 2)
    let waited = LockedCounter()
    pages.waitBeforeReleasing { waited.add() }
    pages.hold([0..<1])
    #expect(waited.value == 0)
    pages.releaseUnheld()
    #expect(waited.value == 1)
    pages.release([0..<1])
    #expect(waited.value == 1)  // once only
  }
}
