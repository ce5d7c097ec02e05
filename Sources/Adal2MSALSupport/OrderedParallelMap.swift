import Dispatch
import Foundation

extension Array where Element: Sendable {
  /// `map(transform)` on all cores, in chunks, with the results in the elements' order: for work that is
  /// independent from element to element (a dump's items, the report's users) and, at 100,000 items, takes
  /// seconds on one core.
  package func orderedParallelMap<Result: Sendable>(
    minimumChunk: Int = 256, _ transform: @Sendable (Element) -> Result
  ) -> [Result] {
    let elements = self
    // Each chunk initialises its own slots of the result, reading the elements in place: joining per-chunk
    // arrays, and iterating slices, copied every element (a retain of each of its fields).
    return [Result](unsafeUninitializedCapacity: count) { buffer, initializedCount in
      nonisolated(unsafe) let results = buffer
      performInChunks(count: elements.count, minimumChunk: minimumChunk) { range in
        for index in range {
          (results.baseAddress! + index).initialize(to: transform(elements[index]))
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
    minimumChunk: Int = 256, _ transform: @Sendable (consuming Wrapped) -> Result
  ) -> [Result] where Element == Wrapped? {
    let count = self.count
    return withUnsafeMutableBufferPointer { source in
      nonisolated(unsafe) let slots = source
      return [Result](unsafeUninitializedCapacity: count) { buffer, initializedCount in
        nonisolated(unsafe) let results = buffer
        // Each index is touched by exactly one worker: it takes the slot's element and writes the result.
        performInChunks(count: count, minimumChunk: minimumChunk) { range in
          for index in range {
            guard let element = slots[index].take() else { preconditionFailure("an empty slot") }
            (results.baseAddress! + index).initialize(to: transform(element))
          }
        }
        initializedCount = count
      }
    }
  }
}

/// Calls `body` with consecutive ranges that cover `0..<count`: on all cores, in up to four chunks a core,
/// when there are at least two chunks of `minimumChunk` indices, else once with the whole range.
private func performInChunks(count: Int, minimumChunk: Int, _ body: @Sendable (Range<Int>) -> Void) {
  let wanted = min(count / max(1, minimumChunk), ProcessInfo.processInfo.activeProcessorCount * 4)
  guard wanted > 1 else { return body(0..<count) }
  let chunkSize = (count + wanted - 1) / wanted
  // Counted again from the size: rounded up, fewer chunks may cover `count` (10 in chunks of 2 are 5, not 8),
  // and a chunk past the end would be an empty range starting after it.
  let chunkCount = (count + chunkSize - 1) / chunkSize
  DispatchQueue.concurrentPerform(iterations: chunkCount) { chunk in
    body((chunk * chunkSize)..<min(count, (chunk + 1) * chunkSize))
  }
}
