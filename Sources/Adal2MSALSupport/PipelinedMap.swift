import Dispatch
import Foundation

/// Transforms the indices `0..<count` on all cores a chunk at a time, and hands each chunk's results to `take`
/// in the chunks' order while later chunks are still being transformed.
///
/// For a read whose results are taken in order and whose input is let go as they are (a keychain dump's
/// items). Transformed a batch at a time, both cores met at the end of each batch, and one of them took the
/// batch while the other waited: one core idle for a fifth of a large dump's decoding. Here the worker that
/// finishes the chunk next in line takes it (and the finished chunks after it) while the others go on
/// transforming. At most `window` chunks are transformed ahead of the next one to take, which bounds what is
/// held beside the input.
///
/// - Parameters:
///   - lanes: one per worker, each worker's own while it works (see
///     `Array.orderedParallelMap(minimumChunk:lanes:_:)`); there are as many workers as lanes. Must not be empty.
///   - take: called with each chunk's range and results, in order, on the workers' threads: never two calls at
///     once, and each call sees what the earlier ones did. It may move the results out.
package func pipelinedMap<Lane: Sendable, Result: Sendable>(
  count: Int, chunkSize: Int, window: Int, lanes: [Lane],
  _ transform: @Sendable (Lane, Int) -> Result,
  takeInOrder take: (Range<Int>, inout [Result]) -> Void
) {
  precondition(!lanes.isEmpty, "no lane to work in")
  precondition(chunkSize > 0 && window > 0, "chunks and the window hold at least one")
  let chunkCount = (count + chunkSize - 1) / chunkSize
  guard chunkCount > 0 else { return }
  let chunk: @Sendable (Int) -> Range<Int> = { (index: Int) in
    (index * chunkSize)..<min(count, (index + 1) * chunkSize)
  }
  let state = PipelineState<Result>(chunkCount: chunkCount, window: window)
  withoutActuallyEscaping(take) { take in
    // Called by one worker at a time (`PipelineState.taking`), under the state's lock hand-offs.
    nonisolated(unsafe) let take = take
    DispatchQueue.concurrentPerform(iterations: min(lanes.count, chunkCount)) { lane in
      while true {
        switch state.nextStep() {
        case .take(let first, var finished):
          for offset in finished.indices { take(chunk(first + offset), &finished[offset]) }
          state.took(through: first + finished.count)
        case .transform(let index):
          let range = chunk(index)
          var results: [Result] = []
          results.reserveCapacity(range.count)
          for position in range { results.append(transform(lanes[lane], position)) }
          state.transformed(index, results)
        case .done:
          return
        }
      }
    }
  }
  precondition(state.allTaken, "a chunk was not taken")
}

/// Which chunks are handed out, finished and taken, shared by a pipelined map's workers.
private final class PipelineState<Result>: @unchecked Sendable {  // every var guarded by `condition`
  enum Step {
    /// Take these finished chunks, the first of them `first`, in order.
    case take(first: Int, [[Result]])
    case transform(Int)
    /// Nothing left for this worker: every chunk is handed out, and what is not taken yet will be taken by
    /// the worker that is taking or transforming it.
    case done
  }

  private let condition = NSCondition()
  private let chunkCount: Int
  private let window: Int
  private var nextToTransform = 0
  /// The first chunk not handed to a taker yet.
  private var nextToTake = 0
  /// The first chunk not taken yet (ahead of `nextToTake` while a taker works): the window counts from it.
  private var notTaken = 0
  private var taking = false
  private var finished: [Int: [Result]] = [:]

  init(chunkCount: Int, window: Int) {
    self.chunkCount = chunkCount
    self.window = window
  }

  /// What the calling worker does next; waits while the window is full and there is nothing it can take.
  func nextStep() -> Step {
    condition.lock()
    defer { condition.unlock() }
    while true {
      if !taking, finished[nextToTake] != nil {
        let first = nextToTake
        var chunks: [[Result]] = []
        while let results = finished.removeValue(forKey: nextToTake) {
          chunks.append(results)
          nextToTake += 1
        }
        taking = true
        return .take(first: first, chunks)
      }
      if nextToTransform == chunkCount { return .done }
      if nextToTransform - notTaken < window {
        nextToTransform += 1
        return .transform(nextToTransform - 1)
      }
      // The next chunk to take is being transformed or taken by another worker, which signals when it is done.
      condition.wait()
    }
  }

  func transformed(_ index: Int, _ results: consuming [Result]) {
    condition.withLock { finished[index] = results }
    condition.broadcast()
  }

  func took(through end: Int) {
    condition.withLock {
      taking = false
      notTaken = end
    }
    condition.broadcast()
  }

  var allTaken: Bool { condition.withLock { notTaken == chunkCount && !taking } }
}
