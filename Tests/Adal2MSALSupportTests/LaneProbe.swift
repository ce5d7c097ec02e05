import Foundation

/// Lane state that notices a second worker: held for the whole transform, so that two workers in one lane at
/// once find it taken (`orderedParallelMap(minimumChunk:lanes:_:)`, `pipelinedMap`).
final class LaneProbe: @unchecked Sendable {  // `overlaps` and `uses` guarded by `lock`'s own lock
  let lock = NSLock()
  private let counts = NSLock()
  private var overlaps = 0
  private var uses = 0

  func enter() -> Bool {
    let entered = lock.try()
    counts.withLock { if entered { uses += 1 } else { overlaps += 1 } }
    return entered
  }
  var figures: (uses: Int, overlaps: Int) { counts.withLock { (uses, overlaps) } }
}
