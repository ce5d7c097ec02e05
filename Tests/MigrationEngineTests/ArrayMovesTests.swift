import Testing

@testable import MigrationEngine

/// `appendMoving` appends as `append(contentsOf:)` does, and empties the array it moves from.
@Suite struct ArrayMovesTests {
  /// Each way in: into an array of elements, into an empty one with room for them (moved one by one), into an
  /// empty one without (which takes the other's storage), and from an empty one.
  @Test(arguments: [
    (["a", "b"], 0, ["c", "d", "e"]), ([], 8, ["c", "d", "e"]), ([], 0, ["c", "d", "e"]), (["a"], 0, []),
  ])
  func appendsInOrderAndEmptiesTheSource(start: [String], room: Int, other: [String]) {
    var joined = start
    joined.reserveCapacity(room)
    var source = other.map { "\($0)-\(other.count)" }  // strings of their own, not the literals'
    let expected = start + source
    joined.appendMoving(&source)
    #expect(joined == expected)
    #expect(source.isEmpty)
  }
}
