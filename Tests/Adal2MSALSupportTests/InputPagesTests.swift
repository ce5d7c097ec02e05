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

    /// The input's mapping is not advised for huge pages (no `hg` among its `VmFlags`): on a VM that reports free
    /// memory to its host, they made a run after idle slower (`MappedInput`).
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/sys/kernel/mm/transparent_hugepage/enabled")))
    func theBytesAreNotAdvisedForHugePages() throws {
      let (_, data, _) = try input(pages: 1024)
      let mappings = try Smaps.mappings(overlapping: data)
      #expect(!mappings.isEmpty)
      #expect(!mappings.contains { $0.flags.contains("hg") })
    }

    /// Pages given back leave the process's memory though they may have been read into huge pages (where the
    /// system gives them to every mapping): of 8 MiB read, with a byte held on every 64th page, the mapping keeps
    /// those pages resident and no more (a huge page kept whole would keep 2 MiB), and the held bytes stay as read.
    @Test func pagesGivenBackFromHugePagesLeaveMemory() throws {
      let (bytes, data, pages) = try input(pages: 2048)
      let size = Int(getpagesize())
      let held = stride(from: 0, to: 2048, by: 64).map { ($0 * size + 7)..<($0 * size + 8) }
      pages.hold(held)
      for range in held { #expect(data[range] == Data(bytes[range])) }
      // The input's own pages, not the `Rss` of the mappings that hold them: another test's input, read at the
      // same time with the same flags, can merge into one of them, and its pages were counted too.
      let residentBefore = try Self.residentPages(of: data).filter { $0 }.count
      pages.releaseUnheld()
      #expect(pages.releasedPageCount == 2048 - held.count)
      let resident = try Self.residentPages(of: data).filter { $0 }.count
      #expect(residentBefore == 2048)
      #expect(resident == held.count)
      for range in held { #expect(data[range] == Data(bytes[range])) }
    }

    /// A page given back is inaccessible, so that a late read of it crashes instead of reading zeros; the pages
    /// still held stay readable as read.
    @Test func pagesGivenBackAreInaccessible() throws {
      let (bytes, data, pages) = try input(pages: 8)
      let size = Int(getpagesize())
      let held = (5 * size)..<(5 * size + 1)
      pages.hold([held])
      pages.releaseUnheld()
      let start = data.withUnsafeBytes { UInt(bitPattern: $0.baseAddress!) }
      let pageRange = { (page: Int) in (start + UInt(page * size))..<(start + UInt((page + 1) * size)) }
      let mappings = try Smaps.mappings(overlapping: data)
      for page in 0..<8 {
        let holding = try #require(mappings.first { $0.range.contains(pageRange(page).lowerBound) })
        #expect(holding.range.upperBound >= pageRange(page).upperBound)
        #expect(holding.flags.contains("rd") == (page == 5), "page \(page)")
      }
      #expect(data[held] == Data(bytes[held]))
    }

    /// A file whose size says 0 but that holds bytes (a /proc file) is read to its end, not to its first read, which
    /// is all that Foundation's `Data(contentsOf:)` gives; and refused as too large once past the limit.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/proc/kallsyms")))
    func aFileWhoseSizeSaysZeroIsReadToItsEnd() throws {
      let path = "/proc/kallsyms"  // megabytes, the same on every read
      var status = stat()
      #expect(stat(path, &status) == 0)
      #expect(status.st_size == 0)
      let handle = try #require(FileHandle(forReadingAtPath: path))
      defer { try? handle.close() }
      let whole = try #require(try handle.readToEnd())
      #expect(whole.count > 65_536)
      let (data, pages) = try InputFile.readReleasable(path)
      #expect(pages == nil)
      #expect(data.count == whole.count)
      // A Bool, not `data == whole`: Swift Testing would work out the difference of megabytes, for minutes.
      #expect(data.elementsEqual(whole))
      #expect(throws: InputFileError(path: path, problem: .tooLargeUnsized(limit: 65_536))) {
        try InputFile.read(path, limits: InputLimits(maxInputBytes: 65_536))
      }
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

  /// While releases are deferred (the input's digest reads every byte beside the reader), the pages the reader
  /// lets go of stay in memory as read; they go once releases resume, and those let go of later go at once.
  @Test func pagesLetGoWhileReleasesAreDeferredGoWhenTheyResume() throws {
    let (bytes, data, pages) = try input(pages: 4)
    let size = Int(getpagesize())
    pages.deferReleases()
    pages.hold([0..<1])
    pages.releaseUnheld()
    #expect(pages.releasedPageCount == 3)
    #if os(Linux)
      // Checked before the bytes are read: a page given back is inaccessible, and reading it would crash the run.
      try #require(try Self.residentPages(of: data) == [true, true, true, true])
    #endif
    #expect(data[size...] == Data(bytes[size...]))
    pages.resumeReleases()
    #if os(Linux)
      #expect(try Self.residentPages(of: data) == [true, false, false, false])
    #endif
    #expect(data[0..<1] == Data(bytes[0..<1]))
    pages.release([0..<1])
    #expect(pages.releasedPageCount == 4)
    #if os(Linux)
      #expect(try Self.residentPages(of: data) == [false, false, false, false])
    #endif
  }

  /// The pages let go of while releases are deferred go as the work beside the reader passes them (the digest,
  /// a stride at a time): a page it has read only a part of stays until it reads past its end, and a page it has
  /// passed goes as soon as it is let go of.
  @Test func pagesLetGoGoAsTheWorkBesideTheReaderPassesThem() throws {
    let (bytes, data, pages) = try input(pages: 4)
    let size = Int(getpagesize())
    pages.deferReleases()
    pages.hold([0..<1])
    pages.releaseUnheld()
    pages.resumeReleases(below: 2 * size + 10)
    #expect(pages.releasedPageCount == 3)
    #if os(Linux)
      try #require(try Self.residentPages(of: data) == [true, false, true, true])
    #endif
    #expect(data[(2 * size)...] == Data(bytes[(2 * size)...]))
    pages.release([0..<1])
    #if os(Linux)
      #expect(try Self.residentPages(of: data) == [false, false, true, true])
    #endif
    pages.resumeReleases(below: data.count - 1)
    #if os(Linux)
      #expect(try Self.residentPages(of: data) == [false, false, false, true])
    #endif
    pages.resumeReleases(below: data.count)
    #if os(Linux)
      #expect(try Self.residentPages(of: data) == [false, false, false, false])
    #endif
  }

  #if os(Linux)
    /// Which of the bytes' pages are in memory, page by page (`mincore`).
    private static func residentPages(of data: Data) throws -> [Bool] {
      let size = Int(getpagesize())
      var vector = [UInt8](repeating: 0, count: (data.count + size - 1) / size)
      let status = data.withUnsafeBytes { bytes in
        mincore(UnsafeMutableRawPointer(mutating: bytes.baseAddress!), vector.count * size, &vector)
      }
      try #require(status == 0)
      return vector.map { $0 & 1 == 1 }
    }
  #endif
}

#if os(Linux)
  /// This process's mappings as /proc/self/smaps lists them.
  private enum Smaps {
    struct Mapping {
      var range: Range<UInt>
      var flags: [Substring]
    }

    /// The mappings that hold any byte of `data`'s storage (one, or several once pages were protected).
    static func mappings(overlapping data: Data) throws -> [Mapping] {
      let start = data.withUnsafeBytes { UInt(bitPattern: $0.baseAddress!) }
      let bytes = start..<(start + UInt(data.count))
      // Read to its end: `String(contentsOfFile:)` gives only a first part of this file, whose size says 0.
      let file = try #require(FileHandle(forReadingAtPath: "/proc/self/smaps"))
      defer { try? file.close() }
      let text = String(decoding: try #require(try file.readToEnd()), as: UTF8.self)
      var mappings: [Mapping] = []
      for line in text.split(separator: "\n") {
        let words = line.split(separator: " ", omittingEmptySubsequences: true)
        guard let first = words.first else { continue }
        if first.contains("-"), !first.hasSuffix(":") {
          let ends = first.split(separator: "-").compactMap { UInt($0, radix: 16) }
          guard ends.count == 2 else { continue }
          mappings.append(Mapping(range: ends[0]..<ends[1], flags: []))
        } else if first == "VmFlags:" {
          mappings[mappings.count - 1].flags = Array(words.dropFirst())
        }
      }
      return mappings.filter { $0.range.overlaps(bytes) }
    }
  }
#endif

/// Inputs below the size a reader asks pages from are read into the heap, with no pages; sizes are those of the
/// files links name.
@Suite struct InputSizeTests {
  @Test func aFileBelowTheSizeForPagesHasNone() throws {
    let directory = try Fixtures.temporaryDirectory("input-heap")
    let bytes = Data((0..<20_000).map { UInt8(truncatingIfNeeded: $0 * 31) })
    let file = directory.appendingPathComponent("input")
    try bytes.write(to: file)
    let small = try InputFile.readReleasable(file.path, pagesFrom: bytes.count + 1)
    #expect(small.pages == nil)
    #expect(small.data == bytes)
    let large = try InputFile.readReleasable(file.path, pagesFrom: bytes.count)
    #expect(large.pages != nil)
    #expect(large.data == bytes)
  }

  /// A link's size is its target's, so that the size limit is checked against the bytes that will be read.
  @Test func theSizeOfALinkIsItsTargets() throws {
    let directory = try Fixtures.temporaryDirectory("input-link")
    let target = directory.appendingPathComponent("target")
    try Data(repeating: 7, count: 12_345).write(to: target)
    let link = directory.appendingPathComponent("link")
    try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
    #expect(InputFile.size(of: link.path) == 12_345)
    #expect(InputFile.size(of: directory.appendingPathComponent("missing").path) == 0)
    #expect(throws: InputFileError(path: link.path, problem: .tooLarge(size: 12_345, limit: 12_000))) {
      try InputFile.read(link.path, limits: InputLimits(maxInputBytes: 12_000))
    }
  }
}
