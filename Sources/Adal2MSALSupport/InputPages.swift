import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// An input file's bytes in memory of their own (an anonymous mapping, `InputFile.readReleasable`), whose pages
/// a reader gives back as it consumes them. A large dump's items are decoded from its bytes while the decoded
/// items grow: kept whole until the read returns, the input and the items would peak together.
///
/// A reader says which bytes it still needs (`hold`), gives back every other page (`releaseUnheld`), then lets
/// go of held bytes as it consumes them (`release`): a page goes once no held range touches it. A page given
/// back is also made inaccessible where the system allows, so that a byte read after its release is a crash,
/// never silently different data.
package final class InputPages: @unchecked Sendable {  // every var: guarded by `lock`
  /// The bytes; holding them keeps the mapping, which the pages belong to, alive.
  private let data: Data
  private let base: UnsafeMutableRawPointer
  private let pageSize: Int
  /// Per page, how many held ranges touch it.
  private var holds: [Int32]
  /// Per page, whether the reader let go of it (given back, or waiting in `deferred`).
  private var released: [Bool]
  /// While releases are deferred, the offset below which the work beside the reader has read every byte
  /// (`resumeReleases(below:)`): pages wholly below it go when let go of; nil when releases are not deferred.
  private var readBeside: Int?
  /// The pages let go of while releases are deferred that lie at or past `readBeside`: given back as it passes them.
  private var deferred: [Int] = []
  private let lock = NSLock()

  /// `data` must be backed by `base`, an anonymous mapping of `data.count` bytes (rounded up to pages) that
  /// lives as long as `data`'s storage.
  init(_ data: Data, base: UnsafeMutableRawPointer) {
    self.data = data
    self.base = base
    pageSize = Int(getpagesize())
    let pages = (data.count + pageSize - 1) / pageSize
    holds = Array(repeating: 0, count: pages)
    released = Array(repeating: false, count: pages)
  }

  /// How many pages the bytes span, and how many of them the reader let go of (given back, or to be given back
  /// once releases resume): their bytes are no longer the input's to read.
  package var pageCount: Int { holds.count }
  package var releasedPageCount: Int { lock.withLock { released.count(where: { $0 }) } }

  /// Keeps every page the reader lets go of from now on until `resumeReleases(below:)` passes it: for work that
  /// reads all the bytes beside the reader, first to last (the input's digest). The reader goes on meanwhile; it
  /// does not wait for that work.
  package func deferReleases() {
    lock.withLock { readBeside = readBeside ?? 0 }
  }

  /// The work beside the reader has read every byte below `offset`: the pages let go of that lie wholly below it
  /// are given back now, and so are those let go of later. Past the last byte (the default), releases are no
  /// longer deferred. Given back only at the end of that work, a 10k-item dump's pages let go of meanwhile
  /// were held with the input at the read's peak.
  package func resumeReleases(below offset: Int = .max) {
    let pending: [Int] = lock.withLock {
      guard let passed = readBeside else { return [] }
      guard offset < data.count else {
        readBeside = nil
        defer { deferred = [] }
        return deferred
      }
      readBeside = max(passed, offset)
      let now = deferred.filter(isPassed)
      deferred.removeAll(where: isPassed)
      return now
    }
    giveBack(pending)
  }

  /// Whether the work beside the reader has read all of `page`'s bytes (always, when releases are not deferred).
  private func isPassed(_ page: Int) -> Bool {
    guard let readBeside else { return true }
    return min((page + 1) * pageSize, data.count) <= readBeside
  }

  /// The offsets of `bytes` in the input, when they are a part of it (a slice that borrows its storage);
  /// nil for bytes of their own.
  package func range(of bytes: Data) -> Range<Int>? {
    guard !bytes.isEmpty else { return nil }
    let start = bytes.withUnsafeBytes { $0.baseAddress.map { $0 - UnsafeRawPointer(base) } }
    guard let start, start >= 0, start <= data.count - bytes.count else { return nil }
    return start..<(start + bytes.count)
  }

  /// Marks `ranges` as still needed: their pages stay until each is `release`d.
  package func hold(_ ranges: [Range<Int>]) {
    lock.withLock {
      for range in ranges { forEachPage(of: range) { holds[$0] += 1 } }
    }
  }

  /// Gives back every page no held range touches.
  package func releaseUnheld() {
    let pages = lock.withLock { holds.indices.filter { holds[$0] == 0 && !released[$0] } }
    give(pages)
  }

  /// Lets go of `ranges`, each held once before; pages that no held range touches any more are given back.
  package func release(_ ranges: [Range<Int>]) {
    let pages = lock.withLock {
      var free: [Int] = []
      for range in ranges {
        forEachPage(of: range) { page in
          precondition(holds[page] > 0, "InputPages: a range released more often than it was held")
          holds[page] -= 1
          if holds[page] == 0 { free.append(page) }
        }
      }
      return free
    }
    give(pages)
  }

  private func forEachPage(of range: Range<Int>, _ body: (Int) -> Void) {
    guard !range.isEmpty else { return }
    for page in (range.lowerBound / pageSize)...((range.upperBound - 1) / pageSize) { body(page) }
  }

  /// Marks `pages` as let go of, and gives them back unless releases are deferred.
  private func give(_ pages: [Int]) {
    guard !pages.isEmpty else { return }
    let now: [Int] = lock.withLock {
      for page in pages { released[page] = true }
      guard readBeside != nil else { return pages }
      deferred.append(contentsOf: pages.filter { !isPassed($0) })
      return pages.filter(isPassed)
    }
    giveBack(now)
  }

  /// Gives `pages` back to the system, a run of neighbours at a time.
  private func giveBack(_ pages: [Int]) {
    guard !pages.isEmpty else { return }
    let pages = pages.sorted()
    var position = 0
    while position < pages.count {
      var end = position + 1
      while end < pages.count, pages[end] == pages[end - 1] + 1 { end += 1 }
      let start = base + pages[position] * pageSize
      let length = (pages[end - 1] - pages[position] + 1) * pageSize
      // Anonymous memory given back reads as zeros: replaced by an inaccessible mapping of no memory instead, so
      // that a late read crashes. In one step, not `mprotect` then `madvise`: those rewrote each page's entry and
      // flushed the other cores' address caches twice (about 3% of a 40k-item dry run). Where the system refuses
      // the new mapping (too many pieces), the pages still go, and read as zeros.
      let replaced = mmap(start, length, PROT_NONE, MAP_FIXED | MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0)
      if replaced == MAP_FAILED { _ = madvise(start, length, MADV_DONTNEED) }
      position = end
    }
  }
}
