import Dispatch
import Foundation

/// The smallest chunk `orderedParallelMap` and its kin give a core unless told otherwise: below it, handing the
/// work out costs more than it saves.
package let parallelMapMinimumChunk = 256

/// The cores this process may use (`ProcessInfo.activeProcessorCount`), read once: on Linux each read opens the
/// cgroup's CPU quota and cpuset files, and a run of many small dumps read it several times a file.
package let activeCores = ProcessInfo.processInfo.activeProcessorCount

extension Array where Element: Sendable {
  /// `map(transform)` on all cores, in chunks, with the results in the elements' order: for work that is
  /// independent from element to element (a dump's items, the report's users) and, at 100,000 items, takes
  /// seconds on one core.
  package func orderedParallelMap<Result: Sendable>(
    minimumChunk: Int = parallelMapMinimumChunk, _ transform: @Sendable (Element) -> Result
  ) -> [Result] {
    let elements = self
    // Each chunk initialises its own slots of the result, reading the elements in place: joining per-chunk
    // arrays, and iterating slices, copied every element (a retain of each of its fields).
    return [Result](inPlaceCapacity: count) { buffer, initializedCount in
      nonisolated(unsafe) let results = buffer
      performInChunks(count: elements.count, minimumChunk: minimumChunk) { _, range in
        for index in range {
          (results.baseAddress! + index).initialize(to: transform(elements[index]))
        }
      }
      initializedCount = elements.count
    }
  }

  /// `orderedParallelMap(minimumChunk:_:)` where each worker has one of `lanes` to itself while it works: what
  /// the transform would otherwise share between workers behind a lock (a read's memo of repeated strings),
  /// one per core. Two workers that took turns at one lock spent a tenth of a large read waiting in the kernel.
  /// `lanes` must not be empty; a lane serves one worker at a time, the same lane possibly many in turn.
  package func orderedParallelMap<Lane: Sendable, Result: Sendable>(
    minimumChunk: Int = parallelMapMinimumChunk, lanes: [Lane], _ transform: @Sendable (Lane, Element) -> Result
  ) -> [Result] {
    precondition(!lanes.isEmpty, "no lane to work in")
    let elements = self
    return [Result](inPlaceCapacity: count) { buffer, initializedCount in
      nonisolated(unsafe) let results = buffer
      performInChunks(count: elements.count, minimumChunk: minimumChunk, workers: lanes.count) { lane, range in
        for index in range {
          (results.baseAddress! + index).initialize(to: transform(lanes[lane], elements[index]))
        }
      }
      initializedCount = elements.count
    }
  }
}

extension Array {
  /// `orderedParallelMap(minimumChunk:_:)` over elements that are let go as they are transformed: the worker
  /// that transforms an element takes it out of its slot (leaving nil), so that it is freed on that worker's
  /// core once `transform` is done with it, rather than on one core with the whole array afterwards. Every slot
  /// must hold an element; all are nil when this returns.
  package mutating func orderedParallelMapTaking<Wrapped: Sendable, Result: Sendable>(
    minimumChunk: Int = parallelMapMinimumChunk, _ transform: @Sendable (consuming Wrapped) -> Result
  ) -> [Result] where Element == Wrapped? {
    let count = self.count
    return withUnsafeMutableBufferPointer { source in
      nonisolated(unsafe) let slots = source
      return [Result](inPlaceCapacity: count) { buffer, initializedCount in
        nonisolated(unsafe) let results = buffer
        // Each index is touched by exactly one worker: it takes the slot's element and writes the result.
        performInChunks(count: count, minimumChunk: minimumChunk) { _, range in
          for index in range {
            guard let element = slots[index].take() else { preconditionFailure("an empty slot") }
            // Moved into `transform`: passed as it was, the element was copied and the original destroyed.
            (results.baseAddress! + index).initialize(to: transform(consume element))
          }
        }
        initializedCount = count
      }
    }
  }
}

/// Calls `body` with consecutive ranges that cover `0..<count`: on all cores, in up to four chunks a core,
/// when there are at least two chunks of `minimumChunk` indices, else once with the whole range. With
/// `workers`, at most that many run at once, each with its own number below it (the `lane` passed to `body`),
/// taking the next chunk as it finishes one; without, each chunk is its own worker.
private func performInChunks(
  count: Int, minimumChunk: Int, workers: Int? = nil, _ body: @Sendable (_ lane: Int, Range<Int>) -> Void
) {
  let wanted = min(count / max(1, minimumChunk), activeCores * 4)
  guard wanted > 1 else { return body(0, 0..<count) }
  let chunkSize = (count + wanted - 1) / wanted
  // Counted again from the size: rounded up, fewer chunks may cover `count` (10 in chunks of 2 are 5, not 8),
  // and a chunk past the end would be an empty range starting after it.
  let chunkCount = (count + chunkSize - 1) / chunkSize
  let chunk: @Sendable (Int) -> Range<Int> = { (index: Int) in (index * chunkSize)..<min(count, (index + 1) * chunkSize)
  }
  guard let workers, workers < chunkCount else {
    return DispatchQueue.concurrentPerform(iterations: chunkCount) { body($0, chunk($0)) }
  }
  // Chunks handed out in order as workers free up, not dealt in advance: a worker slowed by another process
  // does fewer of them.
  let next = NextChunk()
  DispatchQueue.concurrentPerform(iterations: workers) { lane in
    while let index = next.take(below: chunkCount) { body(lane, chunk(index)) }
  }
}

/// The next chunk index to hand out, shared by a run's workers.
private final class NextChunk: @unchecked Sendable {  // `value` guarded by `lock`
  private let lock = NSLock()
  private var value = 0

  func take(below limit: Int) -> Int? {
    lock.withLock {
      guard value < limit else { return nil }
      defer { value += 1 }
      return value
    }
  }
}
