import Adal2MSALSupport
import Foundation
import Testing

/// `orderedParallelMap(minimumChunk:lanes:_:)`: what a read's decoding threads use to keep one memo each.
@Suite struct OrderedParallelMapLanesTests {
  @Test(arguments: [0, 1, 63, 1_000, 10_007])
  func isMapInOrder(count: Int) {
    let lanes = (0..<3).map { _ in LaneProbe() }
    let elements = Array(0..<count)
    let results = elements.orderedParallelMap(minimumChunk: 16, lanes: lanes) { lane, element in
      if lane.enter() { lane.lock.unlock() }
      return element * 3 + 1
    }
    #expect(results == elements.map { $0 * 3 + 1 })
    let calls: Int = lanes.reduce(0) { $0 + $1.figures.uses + $1.figures.overlaps }
    #expect(calls == count)
  }

  /// Each lane serves one worker at a time, however many lanes there are against the cores: the transform
  /// stays in its lane long enough for a second worker to find it taken.
  @Test(arguments: [1, 2, 5])
  func aLaneServesOneWorkerAtATime(laneCount: Int) {
    let lanes = (0..<laneCount).map { _ in LaneProbe() }
    let elements = Array(0..<2_000)
    _ = elements.orderedParallelMap(minimumChunk: 8, lanes: lanes) { lane, element in
      guard lane.enter() else { return element }
      defer { lane.lock.unlock() }
      usleep(20)
      return element
    }
    let overlaps: [Int] = lanes.map { $0.figures.overlaps }
    let uses: Int = lanes.reduce(0) { $0 + $1.figures.uses }
    #expect(overlaps == Array(repeating: 0, count: laneCount))
    #expect(uses == elements.count)
  }
}
