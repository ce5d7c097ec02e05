import Adal2MSALSupport
import Foundation
import PropertyLists
import Testing

/// Hostile and unusual keyed archives, built as property list values.
@Suite struct KeyedArchiveTests {
  static func archive(
    _ objects: [PropertyListValue], top: [(String, PropertyListValue)] = [("root", .uid(1))],
    archiver: String = "NSKeyedArchiver", version: Int128 = 100_000
  ) -> PropertyListValue {
    .dictionary(
      PropertyListDictionary([
        ("$version", .integer(version)), ("$archiver", .string(PropertyListString(archiver))),
        ("$top", .dictionary(PropertyListDictionary(top))), ("$objects", .array(objects)),
      ]))
  }

  static func dict(_ entries: [(String, PropertyListValue)]) -> PropertyListValue {
    .dictionary(PropertyListDictionary(entries))
  }

  static func classObject(_ name: String) -> PropertyListValue {
    dict([
      ("$classname", .string(PropertyListString(name))),
      ("$classes", .array([.string(PropertyListString(name)), .string("NSObject")])),
    ])
  }

  func error(_ plist: PropertyListValue, limits: InputLimits = .default) -> PropertyListError? {
    do {
      _ = try KeyedArchiveReader(limits: limits).read(plist, file: "a.plist")
      return nil
    } catch {
      return error
    }
  }

  /// Coder keys are looked up literally, as Foundation's unarchiver compares them: a key only canonically
  /// equivalent to the name asked for (KELVIN SIGN for `K`, an equal `String`) is another key.
  @Test func coderKeysAreLookedUpLiterally() throws {
    let kelvin = "session\u{212A}ey"
    try #require(kelvin == "sessionKey")
    let object = ArchivedObject(
      className: "Item",
      fields: [(kelvin, .string("kelvin")), ("sessionId", .bool(true)), ("sessionKey", .string("K"))],
      objectIndex: 1)
    #expect(object["sessionKey"] == .string("K"))
    #expect(object[kelvin] == .string("kelvin"))
    #expect(object["sessionId"] == .bool(true))
    #expect(object["session"] == nil)
  }

  @Test func cycleIsAnErrorNamingTheObject() throws {
    let plist = Self.archive([
      .string("$null"),
      Self.dict([("$class", .uid(3)), ("next", .uid(2))]),
      Self.dict([("$class", .uid(3)), ("next", .uid(1))]),
      Self.classObject("Node"),
    ])
    let failure = try #require(error(plist))
    #expect(
      failure.description
        == "a.plist: $objects[1]: reference cycle: the object is reachable from itself (through $objects[2])")
  }

  @Test func danglingUID() throws {
    let plist = Self.archive([
      .string("$null"), Self.dict([("$class", .uid(2)), ("child", .uid(12))]), Self.classObject("Node"),
    ])
    #expect(error(plist)?.messageWithPlace == "$objects[1]: UID 12 out of range (3 objects)")
    #expect(
      error(Self.archive([.string("$null")], top: [("root", .uid(5))]))?.messageWithPlace
        == "$top: UID 5 out of range (1 objects)")
  }

  @Test func sharedReferenceBlowUp() throws {
    // Thirty NSArrays, each holding the next twice: 2^30 values if expanded, from 33 objects (limit 64 x 33).
    var objects: [PropertyListValue] = [.string("$null")]
    for level in 0..<30 {
      objects.append(
        Self.dict([("$class", .uid(32)), ("NS.objects", .array([.uid(UInt64(level + 2)), .uid(UInt64(level + 2))]))]))
    }
    objects.append(.string("leaf"))
    objects.append(Self.classObject("NSArray"))
    let failure = try #require(error(Self.archive(objects)))
    #expect(failure.message.contains("shared references expand to more than 2112 values"))
    // A moderate amount of sharing is fine (and shares storage).
    var small = objects
    small[5] = .string("leaf")
    let archive = try KeyedArchiveReader().read(Self.archive(small))
    #expect(archive.rootClassName == "NSArray")
  }

  @Test func archiverAndVersionAreChecked() throws {
    let objects: [PropertyListValue] = [.string("$null"), .string("x")]
    #expect(error(Self.archive(objects, archiver: "NSArchiver"))?.message.contains("not supported") == true)
    #expect(
      error(Self.archive(objects, version: 99_999))?.messageWithPlace
        == "$version: version 99999 is not supported, expected 100000")
    #expect(try KeyedArchiveReader().read(Self.archive(objects)).root == .string("x"))
  }

  @Test func singleTopEntryIsTheRoot() throws {
    let archive = try KeyedArchiveReader().read(
      Self.archive(
        [.string("$null"), Self.dict([("$class", .uid(2)), ("NS.time", .real(5))]), Self.classObject("NSDate")],
        top: [("item", .uid(1))]))
    #expect(archive.root == .date(Date(timeIntervalSinceReferenceDate: 5)))
    #expect(archive.rootClassName == "NSDate")
    #expect(
      error(Self.archive([.string("$null")], top: [("a", .uid(0)), ("b", .uid(0))]))?.message.contains("no root")
        == true)
  }

  @Test func malformedFoundationObjects() {
    let unequal = Self.archive([
      .string("$null"),
      Self.dict([("$class", .uid(2)), ("NS.keys", .array([.uid(0)])), ("NS.objects", .array([]))]),
      Self.classObject("NSDictionary"),
    ])
    #expect(error(unequal)?.messageWithPlace == "$objects[1]: NSDictionary has 1 NS.keys but 0 NS.objects")
    let classless = Self.archive([.string("$null"), Self.dict([("x", .integer(1))])])
    #expect(error(classless)?.message.contains("without a $class") == true)
    let badClass = Self.archive([.string("$null"), Self.dict([("$class", .uid(0))])])
    #expect(error(badClass)?.message.contains("does not name a class") == true)
  }

  @Test func nonStringDictionaryKeysAreKept() throws {
    let plist = Self.archive([
      .string("$null"),
      Self.dict([("$class", .uid(2)), ("NS.keys", .array([.uid(3)])), ("NS.objects", .array([.uid(4)]))]),
      Self.classObject("NSMutableDictionary"),
      Self.dict([("$class", .uid(5)), ("authority", .string("https://login.example"))]),
      .integer(9),
      Self.classObject("ADTokenCacheKey"),
    ])
    let root = try KeyedArchiveReader().read(plist).root
    let entry = try #require(root.dictionaryEntries?.first)
    #expect(entry.key.objectValue?.className == "ADTokenCacheKey")
    #expect(entry.key.objectValue?["authority"] == .string("https://login.example"))
    #expect(entry.value == .integer(9))
    #expect(root.stringKeyedEntries?.isEmpty == true)
  }

  @Test func isKeyedArchive() {
    #expect(KeyedArchive.isKeyedArchive(Self.archive([.string("$null")])))
    #expect(!KeyedArchive.isKeyedArchive(.array([])))
    #expect(!KeyedArchive.isKeyedArchive(Self.dict([("$objects", .array([]))])))
  }
}
