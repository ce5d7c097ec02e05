import Adal2MSALSupport
import Adal2MSALSynthetic
import Foundation
import PropertyLists
import Testing
import _Adal2MSALTestSupport

/// The direct reader of binary keyed archives against the general readers (`PropertyListReader` then
/// `KeyedArchiveReader`): where it gives an archive, it must be theirs; where they fail, it must give nil.
@Suite struct BinaryKeyedArchiveReaderTests {
  /// The general readers' archive, or nil when they throw.
  static func general(_ data: Data, limits: InputLimits = .default) -> KeyedArchive? {
    guard let document = try? PropertyListReader(limits: limits).read(data),
      KeyedArchive.isKeyedArchive(document.value)
    else { return nil }
    return try? KeyedArchiveReader(limits: limits).read(document.value)
  }

  static func same(_ lhs: KeyedArchive, _ rhs: KeyedArchive) -> Bool {
    lhs.root == rhs.root && lhs.rootClassName == rhs.rootClassName && lhs.top.count == rhs.top.count
      && zip(lhs.top, rhs.top).allSatisfy { $0.key == $1.key && $0.value == $1.value }
  }

  static let pruning = (field: "userInformation", keys: ["allClaims"])

  /// `archive` with `pruning.keys` taken out of the object the root's `pruning.field` holds, and only there.
  static func pruned(_ archive: KeyedArchive) -> KeyedArchive {
    guard case .object(var root) = archive.root,
      let position = root.fields.firstIndex(where: { $0.key == pruning.field }),
      case .object(var object) = root.fields[position].value
    else { return archive }
    object.fields.removeAll { pruning.keys.contains($0.key) }
    root.fields[position].value = .object(object)
    return KeyedArchive(
      top: archive.top.map { ($0.key, $0.key == "root" ? .object(root) : $0.value) }, root: .object(root),
      rootClassName: archive.rootClassName)
  }

  /// Checks one input, read whole and with `pruning`; returns whether the direct reader read it.
  @discardableResult
  static func check(_ data: Data, limits: InputLimits = .default, _ comment: Comment) -> Bool {
    let direct = BinaryKeyedArchiveReader(limits: limits).read(data)
    let prunedRead = BinaryKeyedArchiveReader(limits: limits).read(data, pruning: pruning)
    #expect((prunedRead == nil) == (direct == nil), "read with pruning where not without, or not where: \(comment)")
    guard let direct else { return false }
    guard let general = general(data, limits: limits) else {
      Issue.record("the direct reader read what the general readers refuse: \(comment)")
      return true
    }
    #expect(same(direct, general), comment)
    if let prunedRead { #expect(same(prunedRead, pruned(general)), "pruned: \(comment)") }
    return true
  }

  /// An item whose `userInformation` object is also held by the root's coder keys `first` and `second`.
  static func sharedUserInformation() -> Data {
    var archive = HandWrittenArchive()
    let objects = [
      archive.string("$null"),
      archive.object(
        ["authority", "first", "userInformation", "second", "$class"],
        [archive.uid(5), archive.uid(4), archive.uid(4), archive.uid(4), archive.uid(2)]),
      archive.classObject("ADTokenCacheStoreItem"), archive.classObject("ADUserInformation"),
      archive.object(["userId", "allClaims", "$class"], [archive.uid(5), archive.uid(6), archive.uid(3)]),
      archive.string("user@contoso.com"),
      archive.object(
        ["NS.keys", "NS.objects", "$class"],
        [archive.array([archive.uid(8)]), archive.array([archive.uid(5)]), archive.uid(7)]),
      archive.classObject("NSDictionary"), archive.string("upn"),
    ]
    return archive.finish(objects: objects)
  }

  @Test func pruningLeavesTheObjectWholeWhereElseItIsHeld() throws {
    let data = Self.sharedUserInformation()
    #expect(Self.check(data, "shared userInformation"))
    let prunedRead = try #require(BinaryKeyedArchiveReader().read(data, pruning: Self.pruning))
    let root = try #require(prunedRead.root.objectValue)
    #expect(root["userInformation"]?.objectValue?["allClaims"] == nil)
    #expect(root["first"]?.objectValue?["allClaims"] != nil)
    #expect(root["second"]?.objectValue?["allClaims"] != nil)
  }

  /// A class of a name the caller knows (`names`) takes the caller's string, so that an archive read per
  /// keychain item makes none of its own; and only for that exact spelling, not for a name that starts or ends
  /// like a known one.
  @Test(arguments: ["ADTokenCacheStoreItem", "ADTokenCacheStoreItemX", "ADTokenCacheStoreIte", "NSMutableDictionaryX"])
  func knownClassNamesAreTheirExactSpellings(_ name: String) throws {
    var archive = HandWrittenArchive()
    let objects = [
      archive.string("$null"), archive.object(["authority", "$class"], [archive.uid(3), archive.uid(2)]),
      archive.classObject(name), archive.string("https://login.microsoftonline.com/common"),
    ]
    let data = archive.finish(objects: objects)
    #expect(Self.check(data, "class \(name)"))
    let known = "ADTokenCacheStoreItem"
    let reader = BinaryKeyedArchiveReader(names: ["ADTokenCacheStoreIt", known, "ADUserInformation"])
    let read = try #require(reader.read(data))
    let root = try #require(read.root.objectValue)
    #expect(root.className == name)
    #expect(read.rootClassName == name)
    func storage(_ text: String) -> UnsafeRawPointer? {
      text.utf8.withContiguousStorageIfAvailable { UnsafeRawPointer($0.baseAddress) } ?? nil
    }
    if name == known { #expect(storage(root.className) == storage(known), "the caller's string") }
  }

  /// A coder key the caller knows (`names`) takes the caller's string in the object built, and only for that
  /// exact spelling.
  @Test(arguments: ["additionalServer", "additionalServerX", "additionalServe", "xadditionalServer"])
  func knownCoderKeysAreTheirExactSpellings(_ key: String) throws {
    var archive = HandWrittenArchive()
    let objects = [
      archive.string("$null"), archive.object([key, "$class"], [archive.uid(3), archive.uid(2)]),
      archive.classObject("ADTokenCacheStoreItem"), archive.string("https://login.microsoftonline.com/common"),
    ]
    let data = archive.finish(objects: objects)
    #expect(Self.check(data, "key \(key)"))
    let known = "additionalServer"
    let read = try #require(BinaryKeyedArchiveReader(names: ["additionalServ", known, "userIdDisplayable"]).read(data))
    let root = try #require(read.root.objectValue)
    #expect(root.fields.map(\.key) == [key])
    func storage(_ text: String) -> UnsafeRawPointer? {
      text.utf8.withContiguousStorageIfAvailable { UnsafeRawPointer($0.baseAddress) } ?? nil
    }
    if key == known { #expect(root.fields.first.map { storage($0.key) } == storage(known), "the caller's string") }
  }

  /// An item whose text is UTF-16 (non-ASCII) in its own fields, in `userInformation` and in the pruned
  /// `allClaims`, with an object no other object reaches: `unreached` is its reference.
  static func utf16Item(unreached: String = "unreached") -> (data: Data, unreached: Int) {
    var archive = HandWrittenArchive()
    let objects = [
      archive.string("$null"),
      archive.object(
        ["authority", "resource", "clientId", "expiresOn", "cachedAt", "userInformation", "$class"],
        [
          archive.uid(3), archive.uid(4), archive.uid(5), archive.uid(6), archive.uid(8), archive.uid(9),
          archive.uid(2),
        ]),
      archive.classObject("ADTokenCacheStoreItem"),
      archive.string("https://login.microsoftonline.com/common"), archive.string("https://ressource.例え.com"),
      archive.string("client-ü"),
      archive.object(["NS.time", "$class"], [archive.real(784_384_825), archive.uid(7)]), archive.classObject("NSDate"),
      archive.object(["NS.time", "$class"], [archive.integer(784_395_625), archive.uid(7)]),
      archive.object(["userId", "allClaims", "$class"], [archive.uid(11), archive.uid(12), archive.uid(10)]),
      archive.classObject("ADUserInformation"), archive.string("josé@contoso.com"),
      archive.object(
        ["NS.keys", "NS.objects", "$class"],
        [
          archive.array([archive.uid(14), archive.uid(15)]), archive.array([archive.uid(16), archive.uid(17)]),
          archive.uid(13),
        ]),
      archive.classObject("NSDictionary"), archive.string("name"), archive.string("upn"),
      archive.string("José Müller 😀"),
      archive.string("josé@contoso.com"),
    ]
    let unreachedObject = archive.string(unreached)
    return (archive.finish(objects: objects), unreachedObject)
  }

  /// Text the direct reader borrows without checking it again is the text the general readers decode.
  @Test func utf16TextIsReadAsTheGeneralReadersReadIt() throws {
    let data = Self.utf16Item().data
    #expect(Self.check(data, "UTF-16 item"))
    let root = try #require(BinaryKeyedArchiveReader().read(data)?.root.objectValue)
    #expect(root["resource"]?.stringValue == "https://ressource.例え.com")
    #expect(root["clientId"]?.stringValue == "client-ü")
    let claims = try #require(root["userInformation"]?.objectValue?["allClaims"]?.stringKeyedEntries)
    #expect(claims.map(\.key) == ["name", "upn"])
    #expect(claims.first?.value.stringValue == "José Müller 😀")
  }

  /// The direct reader reads each object's place once, for all objects: one that nothing reaches fails it
  /// exactly where it fails the general readers (an offset outside the object area), and not where they never
  /// look (the length of a string).
  @Test func objectsNothingReachesAreCheckedAsTheGeneralReadersCheckThem() throws {
    let (data, unreached) = Self.utf16Item(unreached: "ZZZZ")
    var bytes = [UInt8](data)
    func unsigned(_ bytes: ArraySlice<UInt8>) -> Int { Int(bytes.reduce(0) { $0 << 8 | UInt64($1) }) }
    let tableStart = unsigned(bytes[(bytes.count - 8)...])
    let offsetSize = Int(bytes[bytes.count - 32 + 6])
    let entry = tableStart + unreached * offsetSize
    let stringOffset = unsigned(bytes[entry..<(entry + offsetSize)])
    #expect(Array(bytes[stringOffset..<(stringOffset + 5)]) == [0x54] + Array("ZZZZ".utf8))

    // A length that cannot be read: 0x5F wants an integer object next, and finds a "Z".
    var unreadableLength = bytes
    unreadableLength[stringOffset] = 0x5F
    #expect(Self.general(Data(unreadableLength)) != nil)
    #expect(Self.check(Data(unreadableLength), "unreached string of unreadable length"))

    // An offset into the offset table.
    let outside = BinaryPlistBuilder.bigEndian(UInt64(tableStart), size: offsetSize)
    bytes.replaceSubrange(entry..<(entry + offsetSize), with: outside)
    #expect(Self.general(Data(bytes)) == nil)
    #expect(!Self.check(Data(bytes), "unreached object outside the object area"))
  }

  /// Pruning leaves out what it prunes, and only that.
  @Test func pruningLeavesOutOnlyThePrunedKeysOfThePrunedObject() throws {
    let data = try Fixtures.data("adal-objc/adal_v1_backcompat_item.bplist")
    let whole = try #require(BinaryKeyedArchiveReader().read(data))
    let prunedRead = try #require(BinaryKeyedArchiveReader().read(data, pruning: Self.pruning))
    let info = try #require(whole.root.objectValue?["userInformation"]?.objectValue)
    #expect(info["allClaims"] != nil)
    let prunedInfo = try #require(prunedRead.root.objectValue?["userInformation"]?.objectValue)
    #expect(prunedInfo["allClaims"] == nil)
    #expect(prunedInfo.fields.count == info.fields.count - 1)
    #expect(Self.same(prunedRead, Self.pruned(whole)))
  }

  /// The v_Data of every item of a binary-plist keychain dump.
  static func archives(inDump data: Data) throws -> [Data] {
    guard case .array(let items) = try PropertyListReader().read(data).value else { return [] }
    return items.compactMap { item in
      guard case .dictionary(let attributes) = item, case .data(let bytes)? = attributes["v_Data"],
        bytes.starts(with: Array("bplist00".utf8))
      else { return nil }
      return bytes
    }
  }

  /// The item archives of the multi-user fixture dump and of a generated 40-user dump (made with
  /// `syntheticSeed`), each named by its dump and position; each dump is expected to hold more than five.
  static func itemArchivesOfDumps(syntheticSeed: UInt64) throws -> [(place: String, archive: Data)] {
    var generator = SyntheticGenerator(seed: syntheticSeed)
    let synthetic = Data(SyntheticFormat.binaryPlist.encode(generator.dump(users: 40)))
    var named: [(place: String, archive: Data)] = []
    for (name, dump) in [
      ("dump-multiuser.bplist", try Fixtures.data("adal/dump-multiuser.bplist")), ("synthetic", synthetic),
    ] {
      let archives = try archives(inDump: dump)
      #expect(archives.count > 5)
      named += archives.enumerated().map { ("\(name) item \($0.offset)", $0.element) }
    }
    return named
  }

  static let itemFixtures = [
    "adal/archive-e1-at.bplist", "adal/archive-e1-mrrt.bplist", "adal/archive-e3-broker-session.bplist",
    "adal/archive-e3-frt.bplist", "adal/archive-e3-tombstone.bplist", "adal/archive-e4-at.bplist",
    "adal-objc/adal_v1_backcompat_item.bplist", "adal-objc/adal_keychain_hardcoded_item.bplist",
  ]

  @Test(arguments: itemFixtures)
  func archivedItemsAreReadAsTheGeneralReadersReadThem(file: String) throws {
    #expect(Self.check(try Fixtures.data(file), "\(file)"), "the direct reader handles every ADAL item shape")
  }

  @Test func everyItemOfDumpsIsReadAsTheGeneralReadersReadIt() throws {
    for (place, archive) in try Self.itemArchivesOfDumps(syntheticSeed: 11) {
      #expect(Self.check(archive, "\(place)"))
    }
  }

  /// One scratch reused from archive to archive (as a dump's reader reuses it from item to item), whole and
  /// pruned, after archives that fail: each archive is read as a fresh read reads it.
  @Test func aReusedScratchReadsEachArchiveAsAFreshReadDoes() throws {
    var generator = SyntheticGenerator(seed: 12)
    let synthetic = Data(SyntheticFormat.binaryPlist.encode(generator.dump(users: 6)))
    var inputs = try Self.itemFixtures.map(Fixtures.data) + Self.archives(inDump: synthetic)
    inputs += [try Fixtures.data("plist/archive-foundation.binary.plist"), Data("bplist00".utf8)]
    inputs += inputs.reversed()
    let reader = BinaryKeyedArchiveReader()
    var scratch = ArchiveReadScratch()
    for (position, input) in inputs.enumerated() {
      for pruning in [nil, Self.pruning] {
        let fresh = reader.read(input, pruning: pruning)
        let reused = reader.read(input, pruning: pruning, reusing: &scratch)
        #expect((fresh == nil) == (reused == nil), "input \(position)")
        if let fresh, let reused { #expect(Self.same(fresh, reused), "input \(position)") }
      }
    }
  }

  /// Archives that are not ADAL items (Foundation collections, macOS blobs) and inputs that are not archives.
  static let otherInputs = [
    "plist/archive-foundation.binary.plist", "plist/all-types.binary.plist", "plist/top-array.binary.plist",
    "adal/macos-blob.bplist", "adal/macos-blob-version2.bplist", "adal/dump-multiuser.bplist",
  ]

  /// Other inputs: read the same, or left to the general path.
  @Test(arguments: otherInputs)
  func otherInputsAreReadTheSameOrNotAtAll(file: String) throws {
    Self.check(try Fixtures.data(file), "\(file)")
  }

  static let mutatedInputs = ["adal/archive-e3-frt.bplist", "adal-objc/adal_v1_backcompat_item.bplist"]

  /// Expects `check` of 1,500 seeded mutations of `file` to read some and refuse some.
  static func expectSomeReadAndSomeRefused(
    mutating file: String, seed: UInt64, _ check: (Data, Comment) -> Bool
  ) throws {
    let outcomes = seededMutations(of: try Fixtures.data(file), count: 1500, seed: seed).map {
      check($0, "\(file), mutated")
    }
    #expect(outcomes.contains(true))
    #expect(outcomes.contains(false))
  }

  /// Seeded byte mutations of archives: the direct reader never gives an archive the general readers refuse
  /// or read differently, and never crashes.
  @Test(arguments: mutatedInputs)
  func mutatedArchivesAreReadTheSameOrNotAtAll(file: String) throws {
    try Self.expectSomeReadAndSomeRefused(mutating: file, seed: 0x9E37_79B9_7F4A_7C15) { Self.check($0, $1) }
  }

  /// The node limit counts what the general readers count, keys and classes every archived object references
  /// included: at every limit up to the smallest both readers accept, the direct reader reads only what they read.
  @Test(arguments: ["adal-objc/adal_v1_backcompat_item.bplist", "adal/archive-e4-at.bplist"])
  func theNodeLimitCountsWhatTheGeneralReadersCount(file: String) throws {
    let data = try Fixtures.data(file)
    var smallestRead: Int?
    for limit in 1...4000 where smallestRead == nil {
      if Self.check(data, limits: InputLimits(maxObjects: limit), "\(file) within \(limit) nodes") {
        smallestRead = limit
      }
    }
    let smallest = try #require(smallestRead, "read within 4000 nodes")
    #expect(Self.general(data, limits: InputLimits(maxObjects: smallest)) != nil)
    #expect(Self.general(data, limits: InputLimits(maxObjects: smallest - 1)) == nil)
  }

  /// Limits the general readers enforce make the direct reader step aside.
  @Test func limitsLeaveTheInputToTheGeneralReaders() throws {
    let data = try Fixtures.data("adal/archive-e3-frt.bplist")
    #expect(BinaryKeyedArchiveReader().read(data) != nil)
    #expect(BinaryKeyedArchiveReader(limits: InputLimits(maxStringBytes: 100)).read(data) == nil)
    #expect(BinaryKeyedArchiveReader(limits: InputLimits(maxExpansionFactor: 1)).read(data) == nil)
    #expect(BinaryKeyedArchiveReader(limits: InputLimits(maxInputBytes: data.count - 1)).read(data) == nil)
  }
}

/// Writes a small keyed archive object by object (`$objects[1]` its root), for shapes no archiver writes.
struct HandWrittenArchive {
  private var writer = BinaryPlistWriter(maxObjects: 64)

  mutating func string(_ text: String) -> BinaryPlistWriter.Ref { writer.string(text) }
  mutating func uid(_ value: Int) -> BinaryPlistWriter.Ref { writer.uid(value) }
  mutating func integer(_ value: Int64) -> BinaryPlistWriter.Ref { writer.integer(value) }
  mutating func real(_ value: Double) -> BinaryPlistWriter.Ref { writer.real(value) }
  mutating func bool(_ value: Bool) -> BinaryPlistWriter.Ref { writer.bool(value) }
  mutating func data(_ bytes: [UInt8]) -> BinaryPlistWriter.Ref { writer.data(bytes) }
  mutating func array(_ elements: [BinaryPlistWriter.Ref]) -> BinaryPlistWriter.Ref { writer.array(elements) }

  mutating func strings(_ texts: [String]) -> [BinaryPlistWriter.Ref] { texts.map { writer.string($0) } }

  mutating func object(_ keys: [String], _ values: [BinaryPlistWriter.Ref]) -> BinaryPlistWriter.Ref {
    writer.dictionary(keys: strings(keys), values: values)
  }

  mutating func classObject(_ name: String) -> BinaryPlistWriter.Ref {
    object(["$classname", "$classes"], [writer.string(name), writer.array(strings([name, "NSObject"]))])
  }

  /// The archive of `objects`, in `$objects` order.
  mutating func finish(objects: [BinaryPlistWriter.Ref]) -> Data {
    let top = object(["root"], [writer.uid(1)])
    let archive = object(
      ["$version", "$archiver", "$top", "$objects"],
      [writer.integer(100_000), writer.string("NSKeyedArchiver"), top, writer.array(objects)])
    return Data(writer.finish(top: archive))
  }
}
