import Adal2MSALSupport
import Foundation
import Testing

/// `pipelinedMap(count:chunkSize:window:lanes:_:takeInOrder:)`: how a dump's items are decoded on all cores and
/// taken in order.
@Suite struct PipelinedMapTests {
  /// What the workers and the taker saw, shared between them: chunks transformed and not yet taken, at most,
  /// and takes that overlapped another.
  private final class Record: @unchecked Sendable {  // every var guarded by `lock`
    private let lock = NSLock()
    private var ahead = 0
    private var mostAhead = 0
    private var taking = false
    private var overlappingTakes = 0
    private var taken = 0

    func transformed() {
      lock.withLock {
        ahead += 1
        mostAhead = max(mostAhead, ahead)
      }
    }
    func takeBegins() {
      lock.withLock {
        if taking { overlappingTakes += 1 }
        taking = true
      }
    }
    func takeEnds() {
      lock.withLock {
        taking = false
        ahead -= 1
        taken += 1
      }
    }
    var figures: (overlappingTakes: Int, mostAhead: Int, taken: Int) {
      lock.withLock { (overlappingTakes, mostAhead, taken) }
    }
  }

  @Test(arguments: [(0, 8, 3), (1, 8, 3), (7, 8, 1), (1_000, 16, 4), (10_007, 64, 8), (5_000, 1, 2)])
  func takesEveryResultOnceInOrder(count: Int, chunkSize: Int, window: Int) {
    let lanes = (0..<3).map { _ in LaneProbe() }
    var results: [Int] = []
    var chunks: [Range<Int>] = []
    pipelinedMap(count: count, chunkSize: chunkSize, window: window, lanes: lanes) { lane, index in
      guard lane.enter() else { return -1 }
      defer { lane.lock.unlock() }
      if index % 97 == 0 { usleep(50) }  // some chunks slower than others, so that they finish out of order
      return index * 3 + 1
    } takeInOrder: { chunk, decoded in
      chunks.append(chunk)
      results += decoded
    }
    #expect(results == (0..<count).map { $0 * 3 + 1 })
    #expect(chunks.allSatisfy { $0.count <= chunkSize && !$0.isEmpty })
    #expect(chunks.map(\.lowerBound) == Array(stride(from: 0, to: count, by: chunkSize)))
    #expect(lanes.map(\.figures.overlaps) == [0, 0, 0])
  }

  /// The taker runs alone, and no more than `window` chunks are transformed ahead of the one taken next, however
  /// slow the taking.
  @Test(arguments: [1, 2, 4])
  func takesOneAtATimeWithinTheWindow(window: Int) {
    let chunkSize = 10
    let lanes = (0..<4).map { _ in LaneProbe() }
    let record = Record()
    pipelinedMap(count: 2_000, chunkSize: chunkSize, window: window, lanes: lanes) { lane, index in
      if index % chunkSize == chunkSize - 1 { record.transformed() }
      return index
    } takeInOrder: { chunk, _ in
      record.takeBegins()
      usleep(200)
      record.takeEnds()
    }
    let figures = record.figures
    #expect(figures.overlappingTakes == 0)
    #expect(figures.taken == 200)
    // A chunk counts as ahead from its transform's end to its take's end.
    #expect(figures.mostAhead <= window)
    #expect(figures.mostAhead >= 1)
  }
}
