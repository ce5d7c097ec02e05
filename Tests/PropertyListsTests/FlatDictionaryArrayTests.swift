import Adal2MSALSupport
import Adal2MSALSynthetic
import Foundation
import Testing
import _Adal2MSALTestSupport

@testable import PropertyLists

/// `FlatDictionaryArray` against the general reader's tree: the same values where it reads an input, and nil (the
/// general reader's turn) for every other shape and every input the general reader refuses.
@Suite("Flat dictionary arrays")
struct FlatDictionaryArrayTests {
  static let keys = ["ascii", "utf16", "int", "data", "date", "real", "true", "false", "uid", "shared"]

  /// A top array of two dictionaries holding every scalar kind, with a string (`shared`) stored once for both;
  /// `change` edits the objects before they are written.
  static func everyScalarKind(_ change: (inout BinaryPlistBuilder, _ entries: [Int]) -> Void = { _, _ in })
    -> Data
  {
    var builder = BinaryPlistBuilder()
    let top = builder.add([])
    let keys = Self.keys.map { builder.add(BinaryPlistBuilder.ascii($0)) }
    let shared = builder.add(BinaryPlistBuilder.ascii("com.microsoft.adalcache, shared by both"))
    var entries: [Int] = []
    for number in 0..<2 {
      let values = [
        builder.add(BinaryPlistBuilder.ascii("text \(number)")),
        builder.add(BinaryPlistBuilder.utf16([0x00E9, 0xD83D, 0xDE00, UInt16(0x30 + number)])),
        builder.add(BinaryPlistBuilder.int8(-42 - Int64(number))),
        builder.add(BinaryPlistBuilder.header(0x4, count: 20) + Self.dataBytes(number)),
        builder.add([0x33] + BinaryPlistBuilder.bigEndian((700_000_000.5 + Double(number)).bitPattern, size: 8)),
        builder.add([0x23] + BinaryPlistBuilder.bigEndian((Double(number) + 0.25).bitPattern, size: 8)),
        builder.add([0x09]), builder.add([0x08]), builder.add([0x80, UInt8(number)]), shared,
      ]
      entries.append(builder.add(builder.dict(keys, values)))
    }
    builder.objects[top] = builder.array(entries)
    builder.top = top
    change(&builder, entries)
    return builder.build()
  }

  /// The object under `key` in entry `index`, or -1.
  static func object(under key: String, inEntry index: Int, of flat: FlatDictionaryArray) -> Int {
    withUnsafeTemporaryAllocation(of: Int.self, capacity: 1) { found in
      flat.objects(under: FlatKeys([key]), inEntry: index, into: found)
      return found[0]
    }
  }

  /// The `data` value of entry `number`: longer than the 14 bytes that `Data` holds inline.
  static func dataBytes(_ number: Int) -> [UInt8] { Array(1...19) + [UInt8(number)] }

  /// The general reader's tree of `data`: its top array's dictionaries.
  static func treeEntries(_ data: Data) throws -> [PropertyListDictionary] {
    let tree = try BinaryPropertyListReader(borrowsData: true).read(data)
    let entries = try #require(tree.arrayValue)
    return try entries.map { try #require($0.dictionaryValue) }
  }

  static func syntheticDump() -> Data {
    var generator = SyntheticGenerator(seed: 23)
    return Data(SyntheticFormat.binaryPlist.encode(generator.dump(users: 30)))
  }

  @Test(arguments: ["every scalar kind", "dump-multiuser.bplist", "synthetic dump"])
  func readsTheValuesOfTheTree(_ input: String) throws {
    let data =
      switch input {
      case "every scalar kind": Self.everyScalarKind()
      case "dump-multiuser.bplist": try Fixtures.data("adal/dump-multiuser.bplist")
      default: Self.syntheticDump()
      }
    let tree = try Self.treeEntries(data)
    // Every key of every entry, and keys no entry has, looked up together in each entry (in another order than
    // the entries hold them: the synthetic dump's keys are sorted). `dxta` and `ixt` share the length and the end
    // bytes of `data` and `int`, which only their bytes tell apart: put first, they would take those keys' objects.
    let allKeys = ["dxta", "ixt", "absent", "", "dat", "datum"] + Set(tree.flatMap(\.keys)).sorted(by: >)
    let keys = FlatKeys(allKeys)
    let compared = FlatDictionaryArray.withEntries(of: data, limits: .default, borrowsData: true) { flat in
      #expect(flat.count == tree.count)
      var values = 0
      for (index, dictionary) in tree.enumerated() {
        withUnsafeTemporaryAllocation(of: Int.self, capacity: keys.count) { found in
          flat.objects(under: keys, inEntry: index, into: found)
          for (position, key) in zip(found.indices, allKeys) {
            let object = found[position] >= 0 ? found[position] : nil
            #expect(object.flatMap(flat.value(ofObject:)) == dictionary[key], "\(input) [\(index)] \(key)")
            #expect(object.map(flat.isString) == dictionary[key].map { $0.stringValue != nil })
            values += object == nil ? 0 : 1
          }
        }
      }
      return values
    }
    let values = try #require(compared, "\(input) was left to the general reader")
    #expect(values > tree.count * 4)
  }

  /// The writer's one object for a repeated string is one object here too, which the caller can decode once.
  @Test func aStringStoredOnceIsOneObject() throws {
    let objects = FlatDictionaryArray.withEntries(
      of: Self.everyScalarKind(), limits: .default, borrowsData: true
    ) { flat in
      (Self.object(under: "shared", inEntry: 0, of: flat), Self.object(under: "shared", inEntry: 1, of: flat))
    }
    let (first, second) = try #require(objects)
    #expect(first >= 0 && first == second)
  }

  /// Data values borrow the input with `borrowsData`, as the general reader's do, and are copies without it.
  @Test(arguments: [true, false])
  func dataIsBorrowedAsTheGeneralReaderBorrowsIt(_ borrows: Bool) throws {
    let input = Self.everyScalarKind()
    let base = input.withUnsafeBytes { UInt(bitPattern: $0.baseAddress) }
    let range = base..<(base + UInt(input.count))
    let inInput = FlatDictionaryArray.withEntries(of: input, limits: .default, borrowsData: borrows) { flat in
      let object = Self.object(under: "data", inEntry: 1, of: flat)
      guard object >= 0, case .data(let bytes)? = flat.value(ofObject: object) else { return false }
      #expect(bytes == Data(Self.dataBytes(1)))
      return bytes.withUnsafeBytes { range.contains(UInt(bitPattern: $0.baseAddress)) }
    }
    #expect(inInput == borrows)
  }

  @Test(arguments: [
    "top dictionary", "an entry not a dictionary", "a container value", "duplicate keys", "a UTF-16 key",
    "an unreadable value", "a string over the limit", "not a property list",
  ])
  func leavesOtherShapesToTheGeneralReader(_ shape: String) throws {
    var limits = InputLimits.default
    let data: Data
    switch shape {
    case "top dictionary":
      data = Self.everyScalarKind { builder, entries in builder.top = entries[0] }
    case "an entry not a dictionary":
      data = Self.everyScalarKind { builder, entries in builder.objects[entries[1]] = BinaryPlistBuilder.ascii("x") }
    case "a container value":
      data = Self.everyScalarKind { builder, entries in
        let inner = builder.add(builder.array([1]))
        builder.objects[entries[1]] = builder.dict([1, 2], [3, inner])
      }
    case "duplicate keys":
      data = Self.everyScalarKind { builder, entries in builder.objects[entries[1]] = builder.dict([1, 1], [3, 4]) }
    case "a UTF-16 key":
      data = Self.everyScalarKind { builder, _ in builder.objects[1] = BinaryPlistBuilder.utf16([0x61]) }
    case "an unreadable value":
      data = Self.everyScalarKind { builder, entries in
        let real = builder.add([0x2F])  // a real of size nibble F
        builder.objects[entries[1]] = builder.dict([1], [real])
      }
    case "a string over the limit":
      limits.maxStringBytes = 10
      data = Self.everyScalarKind()
    default:
      data = Data("<?xml version=\"1.0\"?><plist><array/></plist>".utf8)
    }
    let read = FlatDictionaryArray.withEntries(of: data, limits: limits, borrowsData: true) { $0.count }
    #expect(read == nil, "\(shape)")
  }

  /// Every broken binary property list of the fixtures, which the general reader refuses, is left to it.
  @Test func leavesEveryRefusedFixtureToTheGeneralReader() throws {
    let directory = Fixtures.url("bad/binary-plist")
    let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".bplist") }
    #expect(names.count > 10)
    for name in names {
      let data = try Data(contentsOf: directory.appendingPathComponent(name))
      #expect(throws: PropertyListError.self, "\(name)") { try BinaryPropertyListReader().read(data) }
      #expect(FlatDictionaryArray.withEntries(of: data, limits: .default, borrowsData: true) { $0.count } == nil)
    }
  }
}
