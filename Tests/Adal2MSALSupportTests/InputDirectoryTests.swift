import Adal2MSALSupport
import Foundation
import Testing
import _Adal2MSALTestSupport

/// A directory given as an input: the files a run reads in it and its subdirectories, and what it passes over.
@Suite struct InputDirectoryTests {
  /// A fleet kept a folder per device, with what such folders also hold: a Mac's `.DS_Store`, a version-control
  /// folder, a link to a folder, a link back up (a loop), a broken link and a FIFO.
  private func makeFleet(in scratch: URL) throws -> String {
    let fleet = scratch.appendingPathComponent("fleet").path
    let manager = FileManager.default
    for folder in ["device-a/deeper", ".git/objects"] {
      try manager.createDirectory(atPath: "\(fleet)/\(folder)", withIntermediateDirectories: true)
    }
    try manager.createDirectory(
      atPath: scratch.appendingPathComponent("elsewhere").path, withIntermediateDirectories: true)
    for file in [
      "b.plist", "device-a/keychain.plist", "device-a/deeper/x.plist", ".DS_Store", ".git/objects/o",
      "device-a/.hidden.plist", "../elsewhere/kept.plist",
    ] {
      #expect(manager.createFile(atPath: "\(fleet)/\(file)", contents: Data("x".utf8)), "\(file)")
    }
    try manager.createSymbolicLink(atPath: "\(fleet)/a-link", withDestinationPath: "device-a")
    try manager.createSymbolicLink(atPath: "\(fleet)/device-a/up", withDestinationPath: "..")
    try manager.createSymbolicLink(atPath: "\(fleet)/linked", withDestinationPath: "../elsewhere")
    try manager.createSymbolicLink(atPath: "\(fleet)/broken", withDestinationPath: "nowhere")
    #expect(mkfifo("\(fleet)/pipe", 0o600) == 0)
    return fleet
  }

  @Test func subdirectoriesAreReadAndHiddenEntriesNamed() throws {
    let scratch = try Fixtures.temporaryDirectory("input-directory")
    defer { try? FileManager.default.removeItem(at: scratch) }
    let fleet = try makeFleet(in: scratch)
    let listing = try InputDirectory(listing: fleet)
    // Each file once: `device-a` under its own path, not through `a-link` (listed first by name) or `up`.
    #expect(
      listing.files == [
        "\(fleet)/b.plist", "\(fleet)/broken", "\(fleet)/device-a/deeper/x.plist", "\(fleet)/device-a/keychain.plist",
        "\(fleet)/linked/kept.plist", "\(fleet)/pipe",
      ])
    #expect(listing.hidden == ["\(fleet)/.DS_Store", "\(fleet)/.git", "\(fleet)/device-a/.hidden.plist"])
    #expect(try InputFile.files(inDirectory: fleet) == listing.files)

    let said = listing.diagnostics.map { "\($0)" }
    #expect(
      said
        == listing.hidden.map {
          "\($0): note: not read: its name starts with \".\" (hidden); name it as an input to read it [input.hidden-entry]"
        })
  }

  /// A store kept beside the dumps it was migrated from is the run's target: passed over by identity (named here
  /// through a link), with its side files, and named in a note.
  @Test func theRunsStoreIsPassedOver() throws {
    let scratch = try Fixtures.temporaryDirectory("input-directory")
    defer { try? FileManager.default.removeItem(at: scratch) }
    let fleet = try makeFleet(in: scratch)
    for file in ["device-a/cache.sqlite", "device-a/cache.sqlite-wal", "device-a/cache.sqlite.bak"] {
      #expect(FileManager.default.createFile(atPath: "\(fleet)/\(file)", contents: Data("x".utf8)))
    }
    let store = "\(fleet)/a-link/cache.sqlite"
    let listing = try InputDirectory(listing: fleet, passingOver: StoreFileMarker.files(of: store))
    #expect(listing.runFiles == ["\(fleet)/device-a/cache.sqlite", "\(fleet)/device-a/cache.sqlite-wal"])
    #expect(listing.files == (try InputDirectory(listing: fleet)).files.filter { !listing.runFiles.contains($0) })
    #expect(listing.files.contains("\(fleet)/device-a/cache.sqlite.bak"))
    let notes = listing.diagnostics.filter { $0.code == "input.run-file" }
    #expect(notes.map(\.location?.file) == listing.runFiles)
    #expect(try InputFile.expand([fleet], passingOver: StoreFileMarker.files(of: store)) == listing.files)
  }

  @Test func aDirectoryWithNoFileToReadIsAWarning() throws {
    let scratch = try Fixtures.temporaryDirectory("input-directory")
    defer { try? FileManager.default.removeItem(at: scratch) }
    let empty = scratch.appendingPathComponent("empty").path
    try FileManager.default.createDirectory(atPath: "\(empty)/only-folders/deeper", withIntermediateDirectories: true)
    #expect(
      try InputDirectory(listing: empty).diagnostics.map { "\($0)" } == [
        "\(empty): warning: the directory holds no file to read [input.empty-directory]"
      ])
    #expect(FileManager.default.createFile(atPath: "\(empty)/.DS_Store", contents: Data()))
    let hiddenOnly = try InputDirectory(listing: empty)
    #expect(hiddenOnly.diagnostics.map(\.code) == ["input.empty-directory", "input.hidden-entry"])
    #expect(hiddenOnly.diagnostics.first?.message == "the directory holds no file to read (1 hidden, not read)")
  }

  @Test func expandKeepsTheGivenOrderAndListsEachDirectory() throws {
    let scratch = try Fixtures.temporaryDirectory("input-directory")
    defer { try? FileManager.default.removeItem(at: scratch) }
    let fleet = try makeFleet(in: scratch)
    let single = scratch.appendingPathComponent("single.json").path
    let missing = scratch.appendingPathComponent("missing.json").path
    let files = try InputDirectory(listing: fleet).files
    #expect(try InputFile.expand([single, fleet, missing]) == [single] + files + [missing])
    let marked = try InputFile.expandMarkingDirectories([fleet, single])
    #expect(marked.entries.map(\.path) == files + [single])
    #expect(marked.entries.map(\.inDirectory) == files.map { _ in true } + [false])
    #expect(marked.diagnostics == (try InputDirectory(listing: fleet).diagnostics))
    #expect(throws: InputFileError.self) { try InputDirectory(listing: missing) }
  }

  /// A file given again (by name, through its directory, through a link to it) is read once, where it was first
  /// given, and named; one named directly anywhere counts as named directly, so that a bad one ends the run.
  @Test func aFileGivenAgainIsReadOnceAndNamed() throws {
    let scratch = try Fixtures.temporaryDirectory("input-repeated")
    defer { try? FileManager.default.removeItem(at: scratch) }
    let dumps = scratch.appendingPathComponent("dumps").path
    try FileManager.default.createDirectory(atPath: dumps, withIntermediateDirectories: true)
    let (a, b, c) = ("\(dumps)/a.plist", "\(dumps)/b.plist", "\(dumps)/c.plist")
    let link = scratch.appendingPathComponent("link.plist").path
    for file in [a, b, c] { #expect(FileManager.default.createFile(atPath: file, contents: Data("x".utf8))) }
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: a)
    let missing = scratch.appendingPathComponent("missing.plist").path

    let marked = try InputFile.expandMarkingDirectories([dumps, b, link, missing, missing, dumps])
    #expect(marked.entries.map(\.path) == [a, b, c, missing, missing])
    #expect(marked.entries.map(\.inDirectory) == [false, false, true, false, false])
    #expect(
      marked.diagnostics.map { "\($0)" } == [
        "\(b): warning: given again: read once [input.repeated-file]",
        "\(link): warning: the same file as \(a), given before: read once [input.repeated-file]",
        "\(a): warning: given again: read once [input.repeated-file]",
        "\(b): warning: given again: read once [input.repeated-file]",
        "\(c): warning: given again: read once [input.repeated-file]",
      ])
    #expect(try InputFile.expand([a, a]) == [a])
  }

  /// Creates the entry whose name is `name`'s bytes in `directory`: a file holding "x", or a directory.
  private func make(_ name: [UInt8], in directory: String, directory isDirectory: Bool = false) {
    let path = (Array(directory.utf8) + [UInt8(ascii: "/")] + name).map { CChar(bitPattern: $0) } + [0]
    if isDirectory {
      #expect(mkdir(path, 0o700) == 0)
    } else {
      let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
      #expect(descriptor >= 0)
      #expect(write(descriptor, "x", 1) == 1)
      close(descriptor)
    }
  }

  /// A name that is not UTF-8 is listed with each byte that is not as `\xFF` (Foundation's listing made it
  /// U+FFFD, which named no file: "no such file"), and reading that path refuses it by name, saying what it is;
  /// a directory so named is not entered. A name holding `\x` as text is a name as it is.
  @Test func aNameThatIsNotUTF8IsListedEscapedAndRefusedByName() throws {
    let scratch = try Fixtures.temporaryDirectory("input-bytes")
    defer { try? FileManager.default.removeItem(at: scratch) }
    let dumps = scratch.appendingPathComponent("dumps").path
    try FileManager.default.createDirectory(atPath: dumps, withIntermediateDirectories: true)
    make(Array("cache".utf8) + [0xFF, 0xFE] + Array(".json".utf8), in: dumps)
    make(Array("caf".utf8) + [0xC3] + Array(".json".utf8), in: dumps)  // a cut sequence
    make(Array("sub".utf8) + [0xE9], in: dumps, directory: true)
    make(Array("sub".utf8) + [0xE9] + Array("/inner.json".utf8), in: dumps)
    make([UInt8(ascii: "."), 0x80], in: dumps)
    make(Array(#"lit\xFF.json"#.utf8), in: dumps)
    make(Array("ok-é.json".utf8), in: dumps)

    let listing = try InputDirectory(listing: dumps)
    #expect(
      listing.files == [
        "\(dumps)/cache\\xFF\\xFE.json", "\(dumps)/caf\\xC3.json", #"\#(dumps)/lit\xFF.json"#, "\(dumps)/ok-é.json",
        "\(dumps)/sub\\xE9",
      ])
    #expect(listing.hidden == ["\(dumps)/.\\x80"])
    for (path, kind) in [("\(dumps)/cache\\xFF\\xFE.json", "a file"), ("\(dumps)/sub\\xE9", "a directory")] {
      #expect(throws: InputFileError(path: path, problem: .nameNotUTF8(kind: kind))) { try InputFile.read(path) }
    }
    #expect(
      "\(InputFileError(path: "d/x\\xFF", problem: .nameNotUTF8(kind: "a file")))"
        == #"d/x\xFF: not read: a file whose name is not UTF-8 (each byte that is not is shown as \xHH); "#
        + "adal2msal reads only UTF-8 paths: rename it to read it")
    // The file named `lit\xFF.json` as text, and a UTF-8 name, are read.
    #expect(try InputFile.read(#"\#(dumps)/lit\xFF.json"#) == Data("x".utf8))
    #expect(try InputFile.read("\(dumps)/ok-é.json") == Data("x".utf8))
    // An escaped name of no entry is missing.
    #expect(throws: InputFileError(path: "\(dumps)/none\\xFF", problem: .missing)) {
      try InputFile.read("\(dumps)/none\\xFF")
    }
  }

  /// A path that cannot be opened says why, as the system does: a loop of links, a name too long, a file where a
  /// directory is needed. It said "no such file" for each.
  @Test func aFileThatCannotBeOpenedSaysTheSystemsReason() throws {
    let scratch = try Fixtures.temporaryDirectory("input-errno")
    defer { try? FileManager.default.removeItem(at: scratch) }
    let (a, b) = (scratch.appendingPathComponent("loopA").path, scratch.appendingPathComponent("loopB").path)
    try FileManager.default.createSymbolicLink(atPath: a, withDestinationPath: b)
    try FileManager.default.createSymbolicLink(atPath: b, withDestinationPath: a)
    let file = scratch.appendingPathComponent("file").path
    #expect(FileManager.default.createFile(atPath: file, contents: Data("x".utf8)))
    let long = scratch.path + "/" + String(repeating: "a", count: 300)
    let cases: [(String, InputFileError.Problem)] = [
      (a, .unreadable(reason: String(cString: strerror(ELOOP)))),
      (long, .unreadable(reason: String(cString: strerror(ENAMETOOLONG)))),
      (file + "/inner", .unreadable(reason: String(cString: strerror(ENOTDIR)))),
      (scratch.appendingPathComponent("none").path, .missing),
    ]
    for (path, problem) in cases {
      #expect(throws: InputFileError(path: path, problem: problem)) { try InputFile.read(path) }
    }
    #expect(String(cString: strerror(ELOOP)) == "Too many levels of symbolic links")
    // A directory that cannot be listed says why too.
    #expect(
      throws: InputFileError(
        path: a, problem: .unreadable(reason: "cannot list the directory: \(String(cString: strerror(ELOOP)))"))
    ) {
      try InputDirectory.names(in: a)
    }
  }
}
