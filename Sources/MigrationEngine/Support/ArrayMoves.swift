extension Array {
  /// Appends `other`'s elements in their order, moved rather than copied, and leaves `other` empty.
  ///
  /// `append(contentsOf:)` copies each element (a retain of each of its fields) and letting the source go then
  /// released them all again: joining the planner's per-user skips and users did that for every entry, on the
  /// one core that goes on to reconcile. Here an empty `self` without room for them takes `other`'s storage,
  /// and otherwise the elements are reversed in place (swapped in memory) and popped off its end, each moved
  /// twice.
  mutating func appendMoving(_ other: inout [Element]) {
    guard !other.isEmpty else { return }
    guard !isEmpty || capacity >= other.count else {
      swap(&self, &other)
      return
    }
    reserveCapacity(count + other.count)
    other.withUnsafeMutableBufferPointer { $0.reverse() }
    while let element = other.popLast() { append(consume element) }
  }
}
