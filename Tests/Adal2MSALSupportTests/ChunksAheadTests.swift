import Adal2MSALSupport
import Foundation
import Testing

/// `ChunksAhead`: chunks made on another thread, a bounded window ahead of the caller, which takes them in order.
@Suite struct ChunksAheadTests {
  /// What the maker did, shared with the test: chunks made, and the most made and not yet taken.
  private final class Record: @unchecked Sendable {  // every var guarded by `lock`
    private let lock = NSLock()
    private var made = 0
    private var taken = 0
    private var mostAhead = 0

    func madeOne() {
      lock.withLock {
        made += 1
        mostAhead = max(mostAhead, made - taken)
      }
    }
    func tookOne() { lock.withLock { taken += 1 } }
    var figures: (made: Int, mostAhead: Int) { lock.withLock { (made, mostAhead) } }
  }

  @Test(arguments: [(0, 8, 3), (1, 8, 3), (8, 8, 1), (1_000, 16, 4), (10_007, 64, 2), (500, 1, 1)])
  func takesEveryChunkOnceInOrder(count: Int, chunkSize: Int, window: Int) {
    let record = Record()
    let ahead = ChunksAhead(count: count, chunkSize: chunkSize, window: window) { range in
      record.madeOne()
      if range.lowerBound % 7 == 0 { usleep(20) }  // a maker slower than the taker now and then
      return range.map { $0 * 3 + 1 }
    }
    var results: [Int] = []
    var ranges: [Range<Int>] = []
    while let (range, chunk) = ahead.next() {
      record.tookOne()
      ranges.append(range)
      results += chunk
      if ranges.count % 5 == 0 { usleep(20) }  // and a taker slower than the maker
    }
    // Compared as a whole, but reported short: two arrays of 10,000 numbers made a failure unreadable.
    #expect(results.count == count)
    #expect(results.indices.first { results[$0] != $0 * 3 + 1 } == nil)
    #expect(ranges.map(\.lowerBound) == Array(stride(from: 0, to: count, by: chunkSize)))
    #expect(ranges.allSatisfy { !$0.isEmpty && $0.count <= chunkSize })
    #expect(ahead.next() == nil)
    // A chunk is made while the taker holds at most `window` made ones, so one more is made at most.
    #expect(record.figures.mostAhead <= window + 1)
  }

  /// `stop()` midway: the maker stops after the chunk it is making, within the window of what was taken, and
  /// `next()` gives nil from then on.
  @Test func stoppingMidwayStopsTheMaker() {
    let record = Record()
    let ahead = ChunksAhead(count: 10_000, chunkSize: 10, window: 3) { range in
      record.madeOne()
      return range.count
    }
    for _ in 0..<5 { _ = ahead.next() }
    ahead.stop()
    let made = record.figures.made
    #expect(made >= 5 && made <= 5 + 3 + 1)
    #expect(ahead.next() == nil)
    usleep(10_000)
    #expect(record.figures.made == made)
  }

  /// Letting go of it without taking anything stops the maker too (its window is full, so it would wait forever).
  @Test func lettingGoStopsTheMaker() {
    let record = Record()
    var ahead: ChunksAhead<Int>? = ChunksAhead(count: 1_000, chunkSize: 1, window: 2) { range in
      record.madeOne()
      return range.lowerBound
    }
    #expect(ahead != nil)
    ahead = nil
    BackgroundWork.waitForPending()
    #expect(record.figures.made <= 3)
  }
}
