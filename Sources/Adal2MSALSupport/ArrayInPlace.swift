extension Array {
  /// `Array(unsafeUninitializedCapacity:initializingWith:)`, except that a capacity of 0 makes an empty array
  /// without calling `initialize`.
  ///
  /// The standard library's initializer, asked for no capacity, writes the count into the one empty array
  /// storage that every thread shares: a race of a zero over a zero, harmless on the machines Swift runs on, but
  /// a data race all the same, which ThreadSanitizer reports whenever two threads make an empty array that way at
  /// once (docs/building.md, "ThreadSanitizer"), and its reports must stay empty to show a real race.
  package init(
    inPlaceCapacity capacity: Int,
    initializingWith initialize: (inout UnsafeMutableBufferPointer<Element>, inout Int) -> Void
  ) {
    guard capacity > 0 else {
      self = []
      return
    }
    self.init(unsafeUninitializedCapacity: capacity, initializingWith: initialize)
  }
}
