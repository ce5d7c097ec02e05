import Adal2MSALSupport
import Adal2MSALSynthetic
import Foundation
import PropertyLists
import Testing
import _Adal2MSALTestSupport

/// Archives read in place (`BinaryKeyedArchiveReader.readInPlace`) against the resolver
/// (`BinaryKeyedArchiveReader.read`, itself held to the general readers by `BinaryKeyedArchiveReaderTests`): what
/// is read in place the resolver reads too, and every value read in place is the value it builds, through every
/// accessor; what the resolver refuses is not read in place.
@Suite struct InPlaceArchiveTests {
  /// Checks one input; returns whether it was read in place.
  @discardableResult
  static func check(_ data: Data, limits: InputLimits = .default, _ comment: Comment) -> Bool {
    let reader = BinaryKeyedArchiveReader(limits: limits)
    let resolved = reader.read(data)
    var scratch = ArchiveReadScratch()
    let read: Bool? = reader.readInPlace(data, reusing: &scratch) { root in
      guard let resolved, case .object(let built) = resolved.root else {
        Issue.record("read in place what the resolver refuses: \(comment)")
        return true
      }
      #expect(root.archiveValue == resolved.root, comment)
      expectSameValues(root, built, path: "root", comment)
      return true
    }
    return read != nil
  }

  /// Every accessor of every coder key of `inPlace` against the value `built` holds, down the objects it holds.
  static func expectSameValues(
    _ inPlace: InPlaceObject, _ built: ArchivedObject, path: String, _ comment: Comment, depth: Int = 0
  ) {
    #expect(inPlace.className == built.className, "\(path): \(comment)")
    #expect(inPlace["$class"] == nil, "\(path): \(comment)")
    #expect(inPlace["no such key"] == nil, "\(path): \(comment)")
    for (key, value) in built.fields {
      let place: Comment = "\(path).\(key): \(comment)"
      guard let read = inPlace[key] else {
        Issue.record("\(path).\(key) is not read in place: \(comment)")
        continue
      }
      #expect(read.isNull == value.isNull, place)
      #expect(read.kindName == value.kindName, place)
      if case .string(let text) = value { #expect(read.text == text, place) } else { #expect(read.text == nil, place) }
      #expect(read.dateValue == value.dateValue, place)
      #expect(read.dataValue == value.dataValue, place)
      #expect(read.boolValue == value.boolValue, place)
      #expect(read.isDictionary == (value.dictionaryEntries != nil), place)
      #expect(read.archiveValue == value, place)
      if let object = value.objectValue, let readObject = read.objectValue, depth < 8 {
        expectSameValues(readObject, object, path: "\(path).\(key)", comment, depth: depth + 1)
      } else {
        #expect((read.objectValue == nil) == (value.objectValue == nil), place)
      }
    }
  }

  @Test(arguments: BinaryKeyedArchiveReaderTests.itemFixtures)
  func archivedItemsAreReadInPlace(file: String) throws {
    #expect(Self.check(try Fixtures.data(file), "\(file)"), "every ADAL item of the fixtures is read in place")
  }

  @Test func everyItemOfDumpsIsReadInPlace() throws {
    for (place, archive) in try BinaryKeyedArchiveReaderTests.itemArchivesOfDumps(syntheticSeed: 13) {
      // The wipe marker's root is a dictionary, not an instance: not read in place.
      let isInstance = BinaryKeyedArchiveReader().read(archive)?.root.objectValue != nil
      #expect(Self.check(archive, "\(place)") == isInstance)
    }
  }

  /// An instance held twice (here `userInformation`, by three coder keys) is left to the resolver, which
  /// remembers what it resolved.
  @Test func anInstanceHeldTwiceIsLeftToTheResolver() throws {
    let data = BinaryKeyedArchiveReaderTests.sharedUserInformation()
    #expect(BinaryKeyedArchiveReader().read(data) != nil)
    #expect(!Self.check(data, "shared userInformation"))
  }

  /// UTF-16 text, in the root, in `userInformation` and in its claims, with an object nothing reaches.
  @Test func utf16TextIsReadInPlaceAsTheResolverBuildsIt() throws {
    let data = BinaryKeyedArchiveReaderTests.utf16Item().data
    #expect(Self.check(data, "UTF-16 item"))
    var scratch = ArchiveReadScratch()
    let clientID = BinaryKeyedArchiveReader().readInPlace(data, reusing: &scratch) { $0["clientId"]?.text?.value }
    #expect(clientID == "client-ü")
  }

  /// Values of every kind a coder key holds: inline scalars and lists, the Foundation value classes (an `NSDate`
  /// of integer seconds, `NSData`, `NSNull`, a string class holding another string instance, arrays, sets and a
  /// dictionary holding a dictionary), and an instance of a string class the archive does not make a string.
  @Test func valuesOfEveryKindAreTheValuesTheResolverBuilds() throws {
    var archive = HandWrittenArchive()
    let objects = [
      archive.string("$null"),
      archive.object(
        [
          "flag", "count", "ratio", "list", "when", "bytes", "nothing", "text", "names", "set", "server", "custom",
          "missing", "$class",
        ],
        [
          archive.bool(true), archive.integer(-7), archive.real(2.5),
          archive.array([archive.uid(3), archive.integer(4)]),
          archive.uid(4), archive.uid(6), archive.uid(9), archive.uid(11), archive.uid(14), archive.uid(16),
          archive.uid(18), archive.uid(23), archive.uid(0), archive.uid(2),
        ]),
      archive.classObject("ADTokenCacheStoreItem"), archive.string("element"),
      archive.object(["NS.time", "$class"], [archive.integer(784_384_825), archive.uid(5)]),
      archive.classObject("NSDate"),
      archive.object(["NS.data", "$class"], [archive.uid(8), archive.uid(7)]),
      archive.classObject("NSMutableData"), archive.data([1, 2, 3]),
      archive.object(["$class"], [archive.uid(10)]), archive.classObject("NSNull"),
      archive.object(["NS.string", "$class"], [archive.uid(12), archive.uid(13)]),
      archive.object(["NS.string", "$class"], [archive.string("nested text"), archive.uid(13)]),
      archive.classObject("NSMutableString"),
      archive.object(["NS.objects", "$class"], [archive.array([archive.uid(3), archive.uid(0)]), archive.uid(15)]),
      archive.classObject("NSArray"),
      archive.object(["NS.objects", "$class"], [archive.array([archive.uid(3)]), archive.uid(17)]),
      archive.classObject("NSSet"),
      archive.object(
        ["NS.keys", "NS.objects", "$class"],
        [
          archive.array([archive.uid(20), archive.uid(21)]), archive.array([archive.uid(25), archive.uid(22)]),
          archive.uid(19),
        ]),
      archive.classObject("NSMutableDictionary"), archive.string("ext_expires_on"), archive.string("nested"),
      archive.object(
        ["NS.keys", "NS.objects", "$class"], [archive.array([]), archive.array([]), archive.uid(19)]),
      archive.object(["NS.string", "$class"], [archive.string("custom text"), archive.uid(24)]),
      archive.classObject("MyLocalizedString"),
      archive.object(["NS.time", "$class"], [archive.real(784_395_625.5), archive.uid(5)]),
    ]
    let data = archive.finish(objects: objects)
    #expect(Self.check(data, "every kind"))
  }

  /// `$objects[0]` is `$null` however it is spelled: here in UTF-16, which the reader compares as text.
  @Test func aNullSpelledInUTF16IsNull() throws {
    var builder = BinaryPlistBuilder()
    let null = builder.add(BinaryPlistBuilder.utf16(Array("$null".utf16)))
    let uid0 = builder.add([0x80, 0])
    let uid1 = builder.add([0x80, 1])
    let uid2 = builder.add([0x80, 2])
    let uid3 = builder.add([0x80, 3])
    let authority = builder.add(BinaryPlistBuilder.ascii("https://login.microsoftonline.com/common"))
    let keys = ["authority", "resource", "$class", "$classname"].map { builder.add(BinaryPlistBuilder.ascii($0)) }
    let className = builder.add(BinaryPlistBuilder.ascii("ADTokenCacheStoreItem"))
    let root = builder.add(builder.dict([keys[0], keys[1], keys[2]], [uid3, uid0, uid2]))
    let classObject = builder.add(builder.dict([keys[3]], [className]))
    let objects = builder.add(builder.array([null, root, classObject, authority]))
    let topKeys = ["$archiver", "$version", "$top", "$objects", "root"].map {
      builder.add(BinaryPlistBuilder.ascii($0))
    }
    let archiver = builder.add(BinaryPlistBuilder.ascii("NSKeyedArchiver"))
    let version = builder.add([0x12] + BinaryPlistBuilder.bigEndian(100_000, size: 4))
    let topEntries = builder.add(builder.dict([topKeys[4]], [uid1]))
    builder.top = builder.add(builder.dict(Array(topKeys[0..<4]), [archiver, version, topEntries, objects]))
    let data = builder.build()
    #expect(Self.check(data, "UTF-16 $null"))
    var scratch = ArchiveReadScratch()
    let resource = BinaryKeyedArchiveReader().readInPlace(data, reusing: &scratch) { $0["resource"]?.isNull }
    #expect(resource == true)
  }

  /// Other inputs (`BinaryKeyedArchiveReaderTests.otherInputs`): read in place the same, or not at all.
  @Test(arguments: BinaryKeyedArchiveReaderTests.otherInputs)
  func otherInputsAreReadTheSameOrNotAtAll(file: String) throws {
    Self.check(try Fixtures.data(file), "\(file)")
  }

  /// Seeded byte mutations of archives: what is read in place is what the resolver reads, and nothing crashes.
  @Test(arguments: BinaryKeyedArchiveReaderTests.mutatedInputs)
  func mutatedArchivesAreReadTheSameOrNotAtAll(file: String) throws {
    try BinaryKeyedArchiveReaderTests.expectSomeReadAndSomeRefused(mutating: file, seed: 0x2545_F491_4F6C_DD1D) {
      Self.check($0, $1)
    }
  }

  /// The node limit counts what the resolver counts: the smallest limit within which an item is read in place is
  /// the smallest within which the resolver reads it.
  @Test(arguments: ["adal-objc/adal_v1_backcompat_item.bplist", "adal/archive-e4-at.bplist"])
  func theNodeLimitCountsWhatTheResolverCounts(file: String) throws {
    let data = try Fixtures.data(file)
    func smallest(_ reads: (InputLimits) -> Bool) -> Int? { (1...4000).first { reads(InputLimits(maxObjects: $0)) } }
    let inPlace = smallest { Self.check(data, limits: $0, "\(file) within \($0.maxObjects) nodes") }
    let resolved = smallest { BinaryKeyedArchiveReader(limits: $0).read(data) != nil }
    #expect(inPlace != nil)
    #expect(inPlace == resolved)
  }

  /// The archived objects' node count (a value counted at every reference to it, a dictionary as its two lists)
  /// is the resolver's: 61 coder keys hold one string and one a dictionary of ten entries, 84 nodes over 6
  /// objects, so that the expansion limit binds at exactly 14 per object for both, before the property list's own
  /// count does.
  @Test func sharedValuesCountAsTheResolverCountsThem() throws {
    var archive = HandWrittenArchive()
    let keys = (0..<61).map { "k\($0)" } + ["dictionary", "$class"]
    let objects = [
      archive.string("$null"),
      archive.object(keys, Array(repeating: archive.uid(3), count: 61) + [archive.uid(4), archive.uid(2)]),
      archive.classObject("ADTokenCacheStoreItem"), archive.string("shared"),
      archive.object(
        ["NS.keys", "NS.objects", "$class"],
        [
          archive.array(Array(repeating: archive.uid(3), count: 10)),
          archive.array(Array(repeating: archive.uid(3), count: 10)), archive.uid(5),
        ]),
      archive.classObject("NSDictionary"),
    ]
    let data = archive.finish(objects: objects)
    var readFactors: [Int] = []
    for factor in 1...30 {
      let limits = InputLimits(maxExpansionFactor: factor)
      let resolved = BinaryKeyedArchiveReader(limits: limits).read(data) != nil
      #expect(Self.check(data, limits: limits, "expansion \(factor)") == resolved, "expansion \(factor)")
      if resolved { readFactors.append(factor) }
    }
    #expect(readFactors.first == 14)
  }

  /// One scratch reused from archive to archive, after archives that fail: each archive is read as a fresh read
  /// reads it.
  @Test func aReusedScratchReadsEachArchiveAsAFreshReadDoes() throws {
    var generator = SyntheticGenerator(seed: 14)
    let synthetic = Data(SyntheticFormat.binaryPlist.encode(generator.dump(users: 6)))
    var inputs = try BinaryKeyedArchiveReaderTests.itemFixtures.map(Fixtures.data)
    inputs += try BinaryKeyedArchiveReaderTests.archives(inDump: synthetic)
    inputs += [BinaryKeyedArchiveReaderTests.sharedUserInformation(), Data("bplist00".utf8)]
    inputs += inputs.reversed()
    let reader = BinaryKeyedArchiveReader()
    var reused = ArchiveReadScratch()
    for (position, input) in inputs.enumerated() {
      var fresh = ArchiveReadScratch()
      let first = reader.readInPlace(input, reusing: &fresh) { $0.archiveValue }
      let second = reader.readInPlace(input, reusing: &reused) { $0.archiveValue }
      #expect(first == second, "input \(position)")
    }
  }
}
