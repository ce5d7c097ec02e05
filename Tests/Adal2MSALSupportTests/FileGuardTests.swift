import Adal2MSALSupport
import Foundation
import Testing
import _Adal2MSALTestSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The library side of issue 22, for pipeline authors: `OutputGuard` and `TerminalText`.
@Suite struct OutputGuardTests {
  @Test func sameFileThroughALinkIsRefusedAndDistinctFilesPass() throws {
    let directory = try Fixtures.temporaryDirectory("guard")
    defer { try? FileManager.default.removeItem(at: directory) }
    let input = directory.appendingPathComponent("in.json").path
    #expect(FileManager.default.createFile(atPath: input, contents: Data("{}".utf8)))
    try FileManager.default.createSymbolicLink(
      atPath: directory.appendingPathComponent("link").path, withDestinationPath: input)

    var fine = OutputGuard()
    fine.reading(input, as: "the input")
    fine.writing(directory.appendingPathComponent("report.txt").path, as: "--report")
    fine.writing(nil, as: "--output")
    try fine.check()

    var clash = OutputGuard()
    clash.reading(input, as: "the input")
    clash.writing(directory.appendingPathComponent("link").path, as: "--report")
    let error = #expect(throws: OutputPathError.self) { try clash.check() }
    #expect(error?.problem == .sameFile(as: RunFile(role: "the input", path: input)))
    #expect(error?.description.contains("writing it would destroy that file") == true)
  }

  @Test func specialFilesAndDashForAStoreAreRefused() throws {
    var device = OutputGuard()
    device.writing("/dev/null", as: "--output")
    #expect(
      throws: OutputPathError(RunFile(role: "--output", path: "/dev/null"), .notRegular("a character device"))
    ) {
      try device.check()
    }
    var dash = OutputGuard()
    dash.writingStore("-", as: "--out", storeName: "the --out store")
    #expect(throws: OutputPathError(RunFile(role: "--out", path: "-"), .standardOutput)) { try dash.check() }
    var report = OutputGuard()
    report.writing("-", as: "the report")
    #expect(throws: OutputPathError(RunFile(role: "the report", path: "-"), .standardOutput)) { try report.check() }
  }

  @Test func twoNewOutputsWithOnePathClash() throws {
    let directory = try Fixtures.temporaryDirectory("guard")
    defer { try? FileManager.default.removeItem(at: directory) }
    var paths = OutputGuard()
    paths.writingStore(directory.appendingPathComponent("new.sqlite").path, as: "--out", storeName: "the --out store")
    paths.writing(directory.path + "/./new.sqlite-wal", as: "--report")
    #expect(throws: OutputPathError.self) { try paths.check() }
  }
  @Test func aDatabaseIsRefusedAsAReportButNotAsTheStore() throws {
    let directory = try Fixtures.temporaryDirectory("guard")
    defer { try? FileManager.default.removeItem(at: directory) }
    let database = directory.appendingPathComponent("app.db").path
    #expect(
      FileManager.default.createFile(atPath: database, contents: Data("SQLite format 3\u{0}".utf8) + Data(count: 84)))
    var report = OutputGuard()
    report.writing(database, as: "--report")
    #expect(throws: OutputPathError(RunFile(role: "--report", path: database), .database)) { try report.check() }
    var store = OutputGuard()
    store.writingStore(database, as: "--out", storeName: "the --out store")
    try store.check()
  }

}

@Suite struct TerminalTextTests {
  @Test func controlCharactersAreEscapedAndTextWithoutThemIsKept() {
    #expect(TerminalText.escaped("a\u{1B}]0;x\u{07}b\u{9B}c\nd\te") == "a\\x1B]0;x\\x07b\\x9Bc\nd\te")
    #expect(TerminalText.escaped("line\nbreak", keepingNewlines: false) == "line\\x0Abreak")
    #expect(TerminalText.escaped("Zoë © 日本") == "Zoë © 日本")
  }

  @Test func bytesKeepOnlyColoursWhenAsked() {
    let coloured = Array("\u{1B}[32madd\u{1B}[0m evil\u{1B}]0;t\u{07} ©\u{C2}".utf8)
    let kept = String(decoding: TerminalText.escaped(bytes: coloured, keepingColors: true), as: UTF8.self)
    #expect(kept == "\u{1B}[32madd\u{1B}[0m evil\\x1B]0;t\\x07 ©\u{C2}")
    let plain = String(decoding: TerminalText.escaped(bytes: coloured, keepingColors: false), as: UTF8.self)
    #expect(plain == "\\x1B[32madd\\x1B[0m evil\\x1B]0;t\\x07 ©\u{C2}")
  }

  /// Bytes are escaped as the String version escapes the same text (its oracle), wherever in the text a
  /// character that needs an escape (or one that nearly does) stands: the scan reads sixteen bytes at a time,
  /// and each lane must see it.
  @Test func bytesAreEscapedAsTheTextIsAtEveryPosition() {
    let probes = [
      "\u{0}", "\u{1}", "\u{8}", "\t", "\n", "\u{B}", "\u{1B}", "\u{1F}", " ", "~", "\u{7F}", "\u{80}", "\u{85}",
      "\u{9F}", "\u{A0}", "©", "é", "日",
    ]
    for length in 1..<26 {
      for position in 0..<length {
        for probe in probes {
          var parts = (0..<length).map { String(UnicodeScalar(UInt8(0x61 + $0 % 26))) }
          parts[position] = probe
          let text = parts.joined()
          let bytes = TerminalText.escaped(bytes: Array(text.utf8), keepingColors: false)
          #expect(
            String(decoding: bytes, as: UTF8.self) == TerminalText.escaped(text), "\(length) \(position) \(probe)")
        }
      }
    }
  }

  /// A line feed or tab (kept as they are) in the same sixteen bytes as a character that needs an escape
  /// does not hide it: the scan leaves line feeds out of its test, and every line of a report ends with one.
  @Test func controlCharactersBesideLineFeedsAndTabsAreEscaped() {
    for length in 2..<40 {
      for position in 0..<length {
        for kept in ["\n", "\t"] {
          var parts = (0..<length).map { String(UnicodeScalar(UInt8(0x61 + $0 % 26))) }
          parts[position] = "\u{1B}"
          parts[(position + 5) % length] = kept
          let text = parts.joined()
          let bytes = TerminalText.escaped(bytes: Array(text.utf8), keepingColors: false)
          #expect(String(decoding: bytes, as: UTF8.self) == TerminalText.escaped(text), "\(length) \(position)")
        }
      }
    }
  }
}
