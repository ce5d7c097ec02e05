import Adal2MSAL
import Foundation
import Testing
import _Adal2MSALTestSupport

/// Fixtures/bad through the built binary: each case fails with status 1 and exactly one line on standard
/// error that names the file and the place, prints nothing on standard output, neither crashes nor hangs, and
/// writes nothing (no --out store, nothing next to it).
@Suite("Bad inputs through the CLI")
struct BadInputTests {
  @Test("the manifest covers every format with at least 40 cases")
  func manifestIsComplete() throws {
    let cases = try BadInputManifest.load()
    #expect(cases.count >= 40)
    let folders = Set(cases.map { $0.file.split(separator: "/").first.map(String.init) ?? "" })
    #expect(folders == ["binary-plist", "xml-plist", "keyed-archive", "adal", "msal-json", "nothing"])
    for badCase in cases {
      let path = Fixtures.url("bad/" + badCase.file).path
      // Symbolic link loops do not resolve, so look at the link itself.
      #expect(
        (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) != nil
          || FileManager.default.fileExists(atPath: path), "missing fixture \(badCase.file)")
      #expect(
        CLI.arguments(badCase.command, input: badCase.file, out: "x") != nil, "unknown command \(badCase.command)")
    }
  }

  /// Every command the manifest names exists in this build: a missing one fails here, never skips.
  @Test("every manifest command is a subcommand of this build")
  func everyCommandExists() throws {
    for command in Set(BadInputManifest.cases.map { CLI.subcommand($0.command) }) {
      let help = try CLI.run(["help", command])
      #expect(
        help.exitCode == 0 && help.stdout.contains("USAGE: adal2msal \(command)"), "no `\(command)` in this build")
    }
  }

  @Test(
    "fails cleanly: status 1, one line naming the file and the place, nothing written",
    arguments: BadInputManifest.cases)
  func failsCleanly(_ badCase: BadInputCase) throws {
    let scratch = try Fixtures.temporaryDirectory("bad-input")
    defer { try? FileManager.default.removeItem(at: scratch) }
    let out = scratch.appendingPathComponent("cache.sqlite")
    let arguments = try #require(CLI.arguments(badCase.command, input: badCase.file, out: out.path))
    let started = Date()
    let output = try CLI.run(arguments, in: Fixtures.url("bad"))
    #expect(output.exitCode == badCase.exit)
    let violations = CLI.contractViolations(output, expected: [badCase.file] + badCase.expect)
    #expect(violations.isEmpty, "\(badCase.file) (\(badCase.note)): \(violations.joined(separator: "; "))")
    #expect(Date().timeIntervalSince(started) < CLI.hangTimeout)
    let written = (try? FileManager.default.contentsOfDirectory(atPath: scratch.path)) ?? []
    #expect(written.isEmpty, "\(badCase.file): a failed run wrote \(written)")
  }
}

/// The same cases through the library readers directly: a thrown error (never a crash, never a result)
/// naming the file and the place.
@Suite("Bad inputs through the readers")
struct BadInputReaderTests {
  @Test("each reader throws an error naming the file and the place", arguments: BadInputManifest.cases)
  func readerThrows(_ badCase: BadInputCase) throws {
    let path = Fixtures.url("bad/" + badCase.file).path
    do {
      let data = try InputFile.read(path)
      switch badCase.reader {
      case "plist", "keyed-archive": _ = try PropertyListInspection.inspect(data, file: badCase.file)
      case "adal": _ = try ADALCacheReader().read(data, file: badCase.file)
      case "msal-json": _ = try UnifiedCacheJSONReader().read(data, file: badCase.file)
      default: break
      }
      Issue.record("\(badCase.file) (\(badCase.note)) was read without an error by the \(badCase.reader) reader")
    } catch {
      let message = (error as? LocalizedError)?.errorDescription ?? "\(error)"
      #expect(message.contains(badCase.file), "\(badCase.file): \(message)")
      #expect(!message.contains("\n"), "\(badCase.file): a multi-line error: \(message)")
      for substring in badCase.expect {
        #expect(message.contains(substring), "\(badCase.file): expected \"\(substring)\" in: \(message)")
      }
    }
  }
}
