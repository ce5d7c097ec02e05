import Foundation
import PropertyLists
import Testing

/// `PropertyListDictionary` keeps keys in a table that the binary reader shares between dictionaries: these
/// tests pin its semantics (order, duplicates, copy on write) against the shapes it is built in.
@Suite struct DictionaryStorageTests {
  @Test func duplicateKeysKeepTheFirstPlaceAndTheLastValue() {
    let small = PropertyListDictionary([("a", .integer(1)), ("b", .integer(2)), ("a", .integer(3))])
    #expect(small.keys == ["a", "b"])
    #expect(small["a"] == .integer(3))
    #expect(small.count == 2)
    // Past the hashed-index size too.
    let large = PropertyListDictionary((0..<30).map { ("k\($0 % 20)", PropertyListValue.integer(Int128($0))) })
    #expect(large.keys == (0..<20).map { "k\($0)" })
    #expect(large["k3"] == .integer(23))
    #expect(large["k19"] == .integer(19))
  }

  @Test func settingRemovingAndGrowingPastTheIndex() {
    var dictionary = PropertyListDictionary()
    for number in 0..<40 { dictionary["k\(number)"] = .integer(Int128(number)) }
    #expect(dictionary.count == 40)
    #expect((0..<40).allSatisfy { dictionary["k\($0)"] == .integer(Int128($0)) })
    dictionary["k5"] = nil
    #expect(dictionary["k5"] == nil)
    #expect(dictionary["k6"] == .integer(6))
    dictionary["k6"] = .string("six")
    #expect(dictionary.keys.count == 39 && dictionary.keys[5] == "k6")
    #expect(dictionary["k6"] == .string("six"))
    for number in 10..<40 { dictionary["k\(number)"] = nil }
    #expect(dictionary.keys == ["k0", "k1", "k2", "k3", "k4", "k6", "k7", "k8", "k9"])
    dictionary["k5"] = .bool(true)
    #expect(dictionary.keys.last == "k5")
    #expect(Array(dictionary).map(\.value).last == .bool(true))
  }

  /// Two dictionaries over the same key objects, as keyed archives have them.
  func sharedKeys(duplicate: Bool = false) throws -> [PropertyListValue] {
    var builder = BinaryPlistBuilder()
    let keyA = builder.add(BinaryPlistBuilder.ascii("a"))
    let keyB = duplicate ? keyA : builder.add(BinaryPlistBuilder.ascii("b"))
    let one = builder.add(BinaryPlistBuilder.int8(1))
    let two = builder.add(BinaryPlistBuilder.int8(2))
    let first = builder.add(builder.dict([keyA, keyB], [one, two]))
    let second = builder.add(builder.dict([keyA, keyB], [two, one]))
    builder.top = builder.add(builder.array([first, second]))
    return try #require(try BinaryPropertyListReader().read(builder.build()).arrayValue)
  }

  @Test func dictionariesReadWithTheSameKeysStayIndependent() throws {
    let items = try sharedKeys()
    var first = try #require(items[0].dictionaryValue)
    let second = try #require(items[1].dictionaryValue)
    #expect(second == PropertyListDictionary([("a", .integer(2)), ("b", .integer(1))]))
    #expect(Set([items[1], .dictionary(PropertyListDictionary([("a", .integer(2)), ("b", .integer(1))]))]).count == 1)
    first["c"] = .bool(true)
    first["a"] = nil
    first["b"] = .integer(9)
    #expect(first.keys == ["b", "c"])
    #expect(second.keys == ["a", "b"])
    #expect(second["a"] == .integer(2) && second["b"] == .integer(1) && second["c"] == nil)
    #expect(items[0] == .dictionary(PropertyListDictionary([("a", .integer(1)), ("b", .integer(2))])))
  }

  @Test func duplicateKeysInABinaryDictionaryLetTheLastValueWin() throws {
    let items = try sharedKeys(duplicate: true)
    #expect(items[0] == .dictionary(PropertyListDictionary([("a", .integer(2))])))
    #expect(items[1] == .dictionary(PropertyListDictionary([("a", .integer(1))])))
  }
}
