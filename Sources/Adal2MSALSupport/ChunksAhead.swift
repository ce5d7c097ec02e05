import Dispatch
import Foundation

/// Makes the chunks of `0..<count` on another thread, at most `window` chunks ahead of the caller, which takes
/// them in order with `next()` on its own thread.
///
/// For work that prepares items for a consumer bound to one thread (a store's writer, inside its database
/// queue): the preparation runs on another core while the consumer consumes the chunks before. Unlike
/// `pipelinedMap`, whose workers take the results themselves, the taker here is always the caller.
///
/// Letting go of it stops the maker (see `stop()`).
package final class ChunksAhead<Chunk: Sendable>: Sendable {
  private let state: State

  /// Starts making chunks of at most `chunkSize` indices with `make`, at most `window` of them made and not
  /// taken. `make` and what it captured are let go once the maker has stopped.
  package init(
    count: Int, chunkSize: Int, window: Int, _ make: @escaping @Sendable (Range<Int>) -> Chunk
  ) {
    precondition(chunkSize > 0 && window > 0, "chunks and the window hold at least one")
    let state = State(count: count, chunkSize: chunkSize, window: window)
    self.state = state
    // A thread of its own, not a block on a global queue: the maker waits whenever its window is full, and a
    // global queue's pool has a thread per core, which the report's work on all cores needs meanwhile.
    BackgroundWork.pending.enter()
    let maker = Thread {
      state.produce(make)
      BackgroundWork.pending.leave()
    }
    maker.name = "adal2msal chunks ahead"
    maker.start()
  }

  deinit { state.stop() }

  /// The next chunk and its range of indices, once it is made; nil after the last one.
  package func next() -> (range: Range<Int>, chunk: Chunk)? { state.next() }

  /// Stops making chunks and returns once the maker has stopped: the chunk it is making is finished, and no
  /// other is begun. The chunks made and not taken are let go; `next()` gives nil from then on.
  package func stop() { state.stop() }

  /// What the maker and the taker share. The maker holds it, not the `ChunksAhead`, whose end stops the maker.
  private final class State: @unchecked Sendable {  // every var guarded by `condition`
    private let condition = NSCondition()
    private let count: Int
    private let chunkSize: Int
    private let window: Int
    /// Made and not taken yet, in order; the first is chunk `nextToTake`.
    private var made: [Chunk] = []
    private var nextToTake = 0
    private var stopping = false
    private var makerDone = false

    init(count: Int, chunkSize: Int, window: Int) {
      self.count = count
      self.chunkSize = chunkSize
      self.window = window
    }

    private var chunkCount: Int { (count + chunkSize - 1) / chunkSize }

    private func range(ofChunk index: Int) -> Range<Int> {
      (index * chunkSize)..<min(count, (index + 1) * chunkSize)
    }

    func produce(_ make: @Sendable (Range<Int>) -> Chunk) {
      var index = 0
      while index < chunkCount {
        let mayMake = condition.withLock {
          while !stopping, made.count >= window { condition.wait() }
          return !stopping
        }
        guard mayMake else { break }
        let chunk = make(range(ofChunk: index))
        condition.withLock { made.append(chunk) }
        condition.broadcast()
        index += 1
      }
      condition.withLock { makerDone = true }
      condition.broadcast()
    }

    func next() -> (range: Range<Int>, chunk: Chunk)? {
      condition.lock()
      defer { condition.unlock() }
      while !stopping, nextToTake < chunkCount, made.isEmpty { condition.wait() }
      guard !stopping, nextToTake < chunkCount else { return nil }
      let chunk = made.removeFirst()
      nextToTake += 1
      condition.broadcast()
      return (range(ofChunk: nextToTake - 1), chunk)
    }

    func stop() {
      condition.lock()
      defer { condition.unlock() }
      stopping = true
      made.removeAll()
      condition.broadcast()
      while !makerDone { condition.wait() }
    }
  }
}
