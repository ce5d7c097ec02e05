import Foundation
import Testing
import _Adal2MSALTestSupport

/// Every subcommand of this build, in every output format it has, on fixtures whose token values are known
/// (collected independently, `SecretCorpus`): no token, nor any 16-character piece of one, may appear on
/// standard output, standard error or in a report file. `--show-secrets` is never passed.
@Suite("Secrets never leak")
struct SecretLeakTests {
  /// Paths one run works with.
  struct Context {
    var input: String
    var store: String
    var report: String
  }

  /// Which inputs a case runs on.
  enum Inputs: Sendable { case adal, msal, all }

  /// One subcommand in one format. Add a row to `cases` for a new subcommand or format; rows whose
  /// subcommand this build lacks are skipped (and named in the output).
  struct LeakCase: Sendable, CustomStringConvertible {
    var name: String
    var subcommand: String
    var inputs: Inputs
    /// Import the MSAL canary cache into the store first (for the subcommands that read a store).
    var needsStore = false
    /// The subcommand's purpose is to output the tokens (export writes the cache itself): only standard error
    /// and report files are checked.
    var outputIsTheCache = false
    var arguments: @Sendable (Context) -> [String]
    var description: String { name }
  }

  static let cases: [LeakCase] = [
    LeakCase(name: "inspect text", subcommand: "inspect", inputs: .all) { ["inspect", $0.input] },
    LeakCase(name: "inspect json", subcommand: "inspect", inputs: .all) { ["inspect", $0.input, "--format", "json"] },
    LeakCase(name: "import", subcommand: "import", inputs: .msal) { ["import", $0.input, "--out", $0.store] },
    LeakCase(name: "import dry run", subcommand: "import", inputs: .msal) {
      ["import", $0.input, "--out", $0.store, "--dry-run"]
    },
    LeakCase(name: "accounts text", subcommand: "accounts", inputs: .msal, needsStore: true) {
      ["accounts", $0.store]
    },
    LeakCase(name: "accounts json", subcommand: "accounts", inputs: .msal, needsStore: true) {
      ["accounts", $0.store, "--format", "json"]
    },
    LeakCase(name: "export to a file", subcommand: "export", inputs: .msal, needsStore: true, outputIsTheCache: true) {
      ["export", $0.store, "--output", $0.report + ".cache.json"]
    },
    LeakCase(name: "migrate dry run", subcommand: "migrate", inputs: .adal) {
      ["migrate", "--adal", $0.input, "--out", $0.store, "--dry-run"]
    },
    LeakCase(name: "migrate text report", subcommand: "migrate", inputs: .adal) {
      ["migrate", "--adal", $0.input, "--out", $0.store, "--report", $0.report, "--report-format", "text"]
    },
    LeakCase(name: "migrate json report", subcommand: "migrate", inputs: .adal) {
      ["migrate", "--adal", $0.input, "--out", $0.store, "--report", $0.report, "--report-format", "json"]
    },
    LeakCase(name: "migrate markdown report", subcommand: "migrate", inputs: .adal) {
      ["migrate", "--adal", $0.input, "--out", $0.store, "--report", $0.report, "--report-format", "markdown"]
    },
    LeakCase(name: "migrate msal input", subcommand: "migrate", inputs: .msal) {
      ["migrate", "--msal", $0.input, "--out", $0.store, "--report", $0.report, "--report-format", "json"]
    },
  ]

  /// Every ADAL fixture (archives, the four dump layouts, macOS blobs, the ADAL ObjC items), not the README or
  /// the manifest.
  static func adalInputs() throws -> [String] {
    let generated = try Fixtures.files(in: "adal").filter {
      !["README.md", "manifest.json"].contains($0.lastPathComponent)
    }
    return (generated + (try Fixtures.files(in: "adal-objc", withExtension: "bplist"))).map(\.path)
  }

  @Test("the known tokens are many and distinctive")
  func corpusIsMeaningful() throws {
    let adal = try SecretCorpus.adalManifestTokens()
    let unified = try SecretCorpus.unifiedSecretsInDumps()
    #expect(adal.count >= 20)
    #expect(unified.count >= 2)
    let long = try #require(adal.first { $0.count > 40 })
    #expect(SecretCorpus.leaks(in: "x \(long.dropFirst(3).prefix(16)) y", of: adal).count == 1)
    #expect(SecretCorpus.leaks(in: "x \(long.prefix(15)) y", of: adal).isEmpty)
    #expect(SecretCorpus.leaks(in: "nothing here", of: adal).isEmpty)
  }

  @Test("no token in any output", arguments: cases)
  func noLeak(_ leakCase: LeakCase) throws {
    let scratch = try Fixtures.temporaryDirectory("leak")
    defer { try? FileManager.default.removeItem(at: scratch) }
    let canary = try SecretCorpus.canaryMSALCache(in: scratch)
    let adalSecrets = try SecretCorpus.adalManifestTokens().union(SecretCorpus.unifiedSecretsInDumps())
      .subtracting(["<tombstone>"])
    let secrets = adalSecrets.union(canary.secrets)
    let publicValues = try SecretCorpus.adalPublicValues()
    var inputs: [String] = []
    if leakCase.inputs != .msal {
      inputs += try Self.adalInputs()
    }
    if leakCase.inputs != .adal { inputs.append(canary.file.path) }
    #expect(!inputs.isEmpty)
    for (index, input) in inputs.enumerated() {
      let context = Context(
        input: input, store: scratch.appendingPathComponent("store-\(index).sqlite").path,
        report: scratch.appendingPathComponent("report-\(index)").path)
      if leakCase.needsStore {
        let imported = try CLI.run(["import", canary.file.path, "--out", context.store])
        try #require(imported.exitCode == 0, "setup import failed: \(imported.stderr)")
      }
      let output = try CLI.run(leakCase.arguments(context))
      let name = "\(leakCase.name) on \(URL(fileURLWithPath: input).lastPathComponent)"
      #expect(!output.terminatedBySignal && !output.timedOut, "\(name) crashed or hung")
      var checked = [("standard error", output.stderr)]
      if !leakCase.outputIsTheCache { checked.append(("standard output", output.stdout)) }
      if let report = try? String(contentsOfFile: context.report, encoding: .utf8) {
        checked.append(("the report", report))
      }
      for (stream, text) in checked {
        let leaks = SecretCorpus.leaks(in: text, of: secrets, publicValues: publicValues)
        #expect(leaks.isEmpty, "\(name): \(leaks.count) token(s) in \(stream), e.g. \(leaks.first ?? "")")
      }
    }
  }

  /// One changed byte in the offset table of the archive inside a dump's item (found by fuzzing) pointed the
  /// item's `clientId` at its refresh token, which then migrated as the client id: printed in every report and
  /// stored unsealed in keys. The item is refused now, and the token appears nowhere.
  @Test("a damaged archive whose client id is its refresh token: refused, the token in no output")
  func damagedArchiveNeverShowsItsTokenAsAField() throws {
    let scratch = try Fixtures.temporaryDirectory("leak")
    defer { try? FileManager.default.removeItem(at: scratch) }
    let source = try String(
      contentsOf: Fixtures.url("scenarios/frt-only-no-client/adal.xml.plist"), encoding: .utf8)
    let damaged = source.replacingOccurrences(of: "AToBPAE+AUABQgFE", with: "AToBPAE+AUQBQgFE")
    try #require(damaged != source, "the fixture no longer holds the bytes this test changes")
    let input = scratch.appendingPathComponent("damaged.xml.plist")
    try Data(damaged.utf8).write(to: input)
    let token = "RT.alice.frt.only"
    let store = scratch.appendingPathComponent("s.sqlite").path
    let report = scratch.appendingPathComponent("report").path
    var runs: [[String]] = [["inspect", input.path], ["inspect", input.path, "--format", "json"]]
    for format in ["text", "json", "markdown"] {
      runs.append([
        "migrate", "--adal", input.path, "--dry-run", "--report-format", format, "--now", "2026-12-01T00:00:00Z",
      ])
    }
    runs.append(["migrate", "--adal", input.path, "--out", store, "--report", report, "--now", "2026-12-01T00:00:00Z"])
    for arguments in runs {
      let output = try CLI.run(arguments)
      #expect(!output.terminatedBySignal && [1, 2].contains(output.exitCode) || arguments[0] == "inspect")
      let texts = [output.stdout, output.stderr, (try? String(contentsOfFile: report, encoding: .utf8)) ?? ""]
      #expect(!texts.contains { $0.contains(token) }, "\(arguments): the refresh token is shown")
      if arguments[0] == "migrate" {
        #expect(output.stderr.contains("the archive's clientId is its refresh token"), "\(arguments): \(output.stderr)")
      }
    }
    #expect(!FileManager.default.fileExists(atPath: store), "the only item was refused: nothing to write")
  }
}
