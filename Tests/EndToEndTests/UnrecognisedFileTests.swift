import Adal2MSAL
import Foundation
import Testing
import _Adal2MSALTestSupport

/// A file in no format adal2msal reads is refused with what it is. Only a property list of another kind is one
/// that an inspection shows (its tree), so only its refusal says so, in the words of whoever ran the tool; a
/// refusal by `inspect` itself never sends the user to `inspect`. A blank file is an empty MSAL cache to
/// `inspect`, as it is to `migrate --msal` and to the MSAL libraries.
@Suite(.serialized) struct UnrecognisedFileTests {
  static let adalDump = Fixtures.url("adal/dump-multiuser.objection.json").path
  /// msal-node's sample ships this 0-byte cache file.
  static let zeroByteCache = Fixtures.repositoryRoot
    .appendingPathComponent("../shared/realworld/msal-node-sample_zero-byte_cache.json").standardized.path

  /// Files of each kind, written by Foundation or by hand, in a scratch directory.
  struct Scratch {
    let directory: URL
    /// Property lists that are no ADAL input, each with the words that refuse it: XML and binary ones that are
    /// neither a keychain dump nor a keyed archive, and a keyed archive of a dictionary.
    let propertyLists: [(path: String, refusal: String)]
    let xmlPlist: String
    /// Files `Inspection` refuses as the readers do: text, binary noise, JSON that is neither dump nor cache.
    let others: [String]

    init() throws {
      let directory = try Fixtures.temporaryDirectory("unrecognised")
      self.directory = directory
      func write(_ name: String, _ data: Data) throws -> String {
        let url = directory.appendingPathComponent(name)
        try data.write(to: url)
        return url.path
      }
      let settings: [String: Any] = ["theme": "dark", "launches": 3]
      xmlPlist = try write(
        "settings.plist", try PropertyListSerialization.data(fromPropertyList: settings, format: .xml, options: 0))
      let binaryPlist = try write(
        "settings.bplist",
        try PropertyListSerialization.data(fromPropertyList: settings, format: .binary, options: 0))
      let archive = try write(
        "settings.archive",
        try NSKeyedArchiver.archivedData(
          withRootObject: NSDictionary(dictionary: settings), requiringSecureCoding: false))
      propertyLists = [
        (xmlPlist, "the XML property list is neither a keychain dump nor a keyed archive (root is a dictionary)"),
        (binaryPlist, "the binary property list is neither a keychain dump nor a keyed archive (root is a dictionary)"),
        (archive, "the keyed archive's root is NSDictionary, neither an ADAL item nor a macOS ADAL cache"),
      ]
      others = [
        try write("notes.txt", Data("a note, not a cache\n".utf8)),
        try write("noise.bin", Data((0..<256).map { UInt8(($0 * 37 + 11) % 256) })),
        try write("list.json", Data("[1, 2, 3]".utf8)),
        try write("response.json", Data(#"{"token_type": "Bearer", "expires_in": 3599}"#.utf8)),
      ]
    }
  }

  @Test func aPipelineIsToldThatAnInspectionShowsAPropertyList() async throws {
    let scratch = try Scratch()
    defer { try? FileManager.default.removeItem(at: scratch.directory) }
    let store = scratch.directory.appendingPathComponent("new.sqlite").path
    for (plist, words) in scratch.propertyLists {
      let refused = await refusal(ADALCacheError.self) {
        _ = try await MigrationRun(adal: [plist], store: store).run()
      }
      #expect(refused?.kind == .unrecognised, "\(plist)")
      #expect(refused?.remedy == "`Inspection(file:)` shows its tree", "\(plist)")
      #expect(refused?.description == "\(plist): \(words): `Inspection(file:)` shows its tree")
      // Given as an MSAL cache, it is refused so too, not as JSON with an unexpected first character.
      let asMSAL = await refusal(ADALCacheError.self) { _ = try await MigrationRun(msal: [plist], store: store).run() }
      let imported = await refusal(ADALCacheError.self) { _ = try ImportRun(files: [plist], store: store).run() }
      #expect(asMSAL?.description == refused?.description)
      #expect(imported?.description == refused?.description)
      // What the remedy promises: the inspection shows the tree.
      let shown = try Inspection(file: plist).render(.text)
      #expect(shown.contains("content: dictionary (2 keys)"), "\(shown)")
      #expect(shown.contains("launches: 3"), "\(shown)")
    }
    for file in scratch.others {
      let refused = await refusal(ADALCacheError.self) {
        _ = try await MigrationRun(adal: [file], store: store).run()
      }
      #expect(refused?.kind == .unrecognised, "\(file)")
      #expect(refused?.remedy == nil, "\(file): \(refused?.remedy ?? "")")
      #expect(refused?.description.contains("inspect") == false, "\(refused?.description ?? "")")
      // No remedy, because the inspection refuses the file too.
      #expect(throws: (any Error).self, "\(file)") { try Inspection(file: file).render(.text) }
    }
    #expect(!FileManager.default.fileExists(atPath: store))
  }

  @Test func theCommandLineNamesInspectWhereItShowsMoreAndInspectNeverNamesItself() throws {
    let scratch = try Scratch()
    defer { try? FileManager.default.removeItem(at: scratch.directory) }
    let clock = ["--now", "2025-06-01T12:00:00Z"]
    for (plist, words) in scratch.propertyLists {
      let expected = "adal2msal: error: \(plist): \(words): adal2msal inspect shows its tree\n"
      for role in ["--adal", "--msal"] {
        let migrated = try CLI.run(["migrate", role, plist, "--dry-run"] + clock)
        #expect(migrated.exitCode == 1, "\(role): \(migrated.stderr)")
        #expect(migrated.stderr == expected, "\(role)")
      }
      let imported = try CLI.run(["import", plist, "--out", scratch.directory.appendingPathComponent("s.sqlite").path])
      #expect(imported.exitCode == 1, "\(imported.stderr)")
      #expect(imported.stderr == expected)
      let inspected = try CLI.run(["inspect", plist])
      #expect(inspected.exitCode == 0, "\(inspected.stderr)")
      #expect(inspected.stdout.contains("launches: 3"), "\(inspected.stdout)")
    }
    for file in scratch.others {
      for arguments in [["migrate", "--adal", file, "--dry-run"] + clock, ["inspect", file]] {
        let output = try CLI.run(arguments)
        #expect(output.exitCode == 1, "\(arguments): \(output.stderr)")
        #expect(output.stderr.contains("adal2msal: error: \(file)"), "\(arguments): \(output.stderr)")
        #expect(!output.stderr.contains("inspect"), "\(arguments): \(output.stderr)")
      }
    }
    // A fleet's directory skips the property list and goes on; its report says what shows it.
    let fleet = scratch.directory.appendingPathComponent("fleet")
    try FileManager.default.createDirectory(at: fleet, withIntermediateDirectories: true)
    try FileManager.default.copyItem(atPath: Self.adalDump, toPath: fleet.appendingPathComponent("device.json").path)
    try FileManager.default.copyItem(atPath: scratch.xmlPlist, toPath: fleet.appendingPathComponent("app.plist").path)
    let output = try CLI.run(["migrate", "--adal", fleet.path, "--dry-run", "--report", "-"] + clock)
    #expect(output.exitCode == 2, "\(output.stderr)")
    let words = output.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    #expect(
      words.contains(
        "app.plist: file skipped: the XML property list is neither a keychain dump nor a keyed archive (root is a "
          + "dictionary): adal2msal inspect shows its tree"),
      "\(output.stdout.suffix(2000))")
  }

  @Test func aBlankFileIsShownAsAnEmptyMSALCache() throws {
    let scratch = try Scratch()
    defer { try? FileManager.default.removeItem(at: scratch.directory) }
    let blank = scratch.directory.appendingPathComponent("blank.json")
    try Data(" \n\t\n".utf8).write(to: blank)
    let note = "note: the file is empty: read as an empty cache, as the MSAL libraries do [unified.empty-file]"
    for file in [Self.zeroByteCache, blank.path] {
      let text = try CLI.run(["inspect", file])
      #expect(text.exitCode == 0, "\(file): \(text.stderr)")
      #expect(text.stdout.contains("format: MSAL unified cache JSON"), "\(text.stdout)")
      #expect(text.stdout.contains("0 account(s), 0 access token(s), 0 refresh token(s)"), "\(text.stdout)")
      #expect(text.stdout.contains(note), "\(text.stdout)")
      let json = try CLI.run(["inspect", file, "--format", "json"])
      #expect(json.exitCode == 0, "\(file): \(json.stderr)")
      #expect(json.stdout.contains(#""format": "msal-json""#), "\(json.stdout)")
      // As `migrate --msal` reads it: an empty cache, nothing lost.
      let migrated = try CLI.run(["migrate", "--msal", file, "--dry-run", "--now", "2025-06-01T12:00:00Z", "-q"])
      #expect(migrated.exitCode == 0, "\(file): \(migrated.stderr)")
    }
    #expect(try Inspection(file: Self.zeroByteCache).render(.text).contains(note))
  }
}
