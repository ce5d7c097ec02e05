import Dispatch
import Foundation

extension Array where Element: Sendable {
  /// `map(transform)` on all cores, in chunks, with the results in the elements' order: for the report's
  /// per-user work, which is independent from user to user and, at 100,000 items, takes seconds on one core.
  func orderedParallelMap<Result: Sendable>(
    minimumChunk: Int = 256, _ transform: @Sendable (Element) -> Result
  ) -> [Result] {
    let chunkCount = Swift.min(count / Swift.max(1, minimumChunk), ProcessInfo.processInfo.activeProcessorCount * 4)
    guard chunkCount > 1 else { return map(transform) }
    var chunks = [[Result]](repeating: [], count: chunkCount)
    let chunkSize = (count + chunkCount - 1) / chunkCount
    let elements = self
    chunks.withUnsafeMutableBufferPointer { buffer in
      // Each iteration writes its own slot only.
      nonisolated(unsafe) let results = buffer
      DispatchQueue.concurrentPerform(iterations: chunkCount) { chunk in
        let range = (chunk * chunkSize)..<Swift.min(elements.count, (chunk + 1) * chunkSize)
        results[chunk] = elements[range].map(transform)
      }
    }
    return chunks.flatMap { $0 }
  }
}
