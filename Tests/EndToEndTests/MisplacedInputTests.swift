import Adal2MSAL
import Foundation
import Testing
import _Adal2MSALTestSupport

/// A file adal2msal reads, given in the wrong place (an MSAL cache as an ADAL input, an ADAL dump to `import`, a
/// store to `inspect`), is refused with where it belongs, in the words of whoever ran the tool: a pipeline gets
/// the library's parameters, never an option of the command line; `adal2msal` gets the options of the command
/// that was run. Nothing is written either way.
@Suite(.serialized) struct MisplacedInputTests {
  static let adalDump = Fixtures.url("adal/dump-multiuser.objection.json").path
  static let msalCache = Fixtures.url("msal-json/msal-dotnet_token_cache_one_acc_seed.json").path

  /// A scratch directory holding a store made from the MSAL fixture.
  struct Scratch {
    let directory: URL
    let store: String

    init() throws {
      directory = try Fixtures.temporaryDirectory("misplaced")
      store = directory.appendingPathComponent("made.sqlite").path
      _ = try ImportRun(files: [MisplacedInputTests.msalCache], store: store).run()
    }

    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    /// The directory's files, so that a refused run is seen to write none.
    func listing() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() }
  }

  @Test func aPipelineIsToldTheLibrarysParameters() async throws {
    let scratch = try Scratch()
    defer { try? FileManager.default.removeItem(at: scratch.directory) }
    let before = try scratch.listing()
    let new = scratch.path("new.sqlite")
    let cases: [(String, ADALCacheError.InputRole, String, () async throws -> Void)] = [
      (
        "an MSAL cache as an ADAL input", .msalInput,
        "this is an MSAL unified cache, not an ADAL cache: pass it in `msal:`",
        { _ = try await MigrationRun(adal: [Self.msalCache], store: new).run() }
      ),
      (
        "an ADAL dump as an MSAL input", .adalInput,
        "this is an ADAL input (objection-json), not an MSAL cache: pass it in `adal:`",
        { _ = try await MigrationRun(msal: [Self.adalDump], store: new).run() }
      ),
      (
        "a store as an ADAL input", .store, "this is an adal2msal store, not an input cache: pass it as `store:`",
        { _ = try await MigrationRun(adal: [scratch.store], store: new).run() }
      ),
      (
        "a store as an MSAL input", .store, "this is an adal2msal store, not an input cache: pass it as `store:`",
        { _ = try await MigrationRun(msal: [scratch.store], store: new).run() }
      ),
      (
        "an ADAL dump imported", .adalInput,
        "this is an ADAL input (objection-json), not an MSAL cache: migrate it with `MigrationRun(adal:)`",
        { _ = try ImportRun(files: [Self.adalDump], store: new).run() }
      ),
      (
        "a store imported", .store, "this is an adal2msal store, not an input cache: pass it as `store:`",
        { _ = try ImportRun(files: [scratch.store], store: new).run() }
      ),
      (
        "a store inspected", .store,
        "this is an adal2msal store, not an input cache: read it with `CacheStore.open(path:options:)`",
        { _ = try Inspection(file: scratch.store).render(.text) }
      ),
    ]
    for (name, role, message, body) in cases {
      let error = await refusal(ADALCacheError.self, body)
      #expect(error?.belongsAs == role, "\(name)")
      #expect(error?.description.hasSuffix(message) == true, "\(name): \(error.map(String.init(describing:)) ?? "")")
      #expect(error?.description.contains("--") == false, "\(name) names an option of the command line")
    }
    #expect(try scratch.listing() == before)
  }

  @Test func aPipelineIsToldWhatAzureCLIsFilesNeed() async throws {
    let scratch = try Scratch()
    defer { try? FileManager.default.removeItem(at: scratch.directory) }
    let azure = scratch.directory.appendingPathComponent("azure")
    try FileManager.default.createDirectory(at: azure, withIntermediateDirectories: true)
    var options = MigrationRun.Options()
    options.azureCLIDirectory = scratch.path("missing")
    let missing = await refusal(AzureCLIFiles.Refusal.self) {
      _ = try await MigrationRun(adal: [Self.adalDump], store: scratch.path("new.sqlite"), options: options).run()
    }
    options.azureCLIDirectory = azure.path
    let withoutStore = await refusal(AzureCLIFiles.Refusal.self) {
      _ = try await MigrationRun(adal: [Self.adalDump], store: nil, options: options).run()
    }
    try FileManager.default.copyItem(
      atPath: Self.msalCache, toPath: azure.appendingPathComponent("msal_token_cache.json").path)
    let notAnInput = await refusal(AzureCLIFiles.Refusal.self) {
      _ = try await MigrationRun(adal: [Self.adalDump], store: scratch.path("new.sqlite"), options: options).run()
    }
    #expect(missing?.description == "the Azure CLI directory \(scratch.path("missing")) is not a directory")
    #expect(
      withoutStore?.description
        == "Azure CLI's files are written after the store, and this run writes none: give the run a store and leave "
        + "`dryRun` off")
    #expect(
      notAnInput?.description.hasSuffix(
        "msal_token_cache.json exists: pass it in `msal:` so that its sign-ins "
          + "are merged into the store, or move it away") == true)
    for refusal in [missing, withoutStore, notAnInput] {
      #expect(refusal?.description.contains("--") == false, "\(refusal.map(String.init(describing:)) ?? "")")
    }
    #expect(!FileManager.default.fileExists(atPath: scratch.path("new.sqlite")))
  }

  @Test func eachCommandNamesItsOwnOptions() throws {
    let scratch = try Scratch()
    defer { try? FileManager.default.removeItem(at: scratch.directory) }
    let before = try scratch.listing()
    let new = scratch.path("new.sqlite")
    let clock = ["--now", "2025-06-01T12:00:00Z"]
    let cases: [([String], String)] = [
      (["migrate", "--adal", Self.msalCache, "--out", new] + clock, "not an ADAL cache: pass it with --msal"),
      (["migrate", "--msal", Self.adalDump, "--out", new] + clock, "not an MSAL cache: pass it with --adal"),
      (["migrate", "--adal", scratch.store, "--out", new] + clock, "not an input cache: pass it as --out"),
      (["import", Self.adalDump, "--out", new], "not an MSAL cache: migrate it with adal2msal migrate --adal"),
      (["import", scratch.store, "--out", new], "not an input cache: pass it as --out"),
      (
        ["inspect", scratch.store],
        "not an input cache: adal2msal accounts lists its accounts, and adal2msal export writes it out as a cache"
      ),
      (
        ["migrate", "--adal", Self.adalDump, "--dry-run", "--azure-cli-dir", scratch.directory.path] + clock,
        "Azure CLI's files are written after the store, and this run writes none: leave out --dry-run"
      ),
      (
        ["migrate", "--adal", Self.adalDump, "--out", new, "--azure-cli-dir", scratch.path("missing")] + clock,
        "--azure-cli-dir \(scratch.path("missing")) is not a directory"
      ),
    ]
    for (arguments, message) in cases {
      let output = try CLI.run(arguments)
      #expect(output.exitCode != 0 && output.exitCode != 2, "\(arguments): \(output.stderr)")
      #expect(output.stderr.contains(message), "\(arguments): \(output.stderr)")
      #expect(!output.stderr.contains("`"), "\(arguments) names a parameter of the library: \(output.stderr)")
    }
    #expect(try scratch.listing() == before)
  }

  /// A fleet's directory goes on without a file that belongs elsewhere, and the report says where it belongs.
  @Test func aDirectorysMisplacedFileIsSkippedWithWhereItBelongs() throws {
    let scratch = try Scratch()
    defer { try? FileManager.default.removeItem(at: scratch.directory) }
    let fleet = scratch.directory.appendingPathComponent("fleet")
    try FileManager.default.createDirectory(at: fleet, withIntermediateDirectories: true)
    try FileManager.default.copyItem(atPath: Self.adalDump, toPath: fleet.appendingPathComponent("device.json").path)
    try FileManager.default.copyItem(atPath: Self.msalCache, toPath: fleet.appendingPathComponent("msal.json").path)
    let output = try CLI.run(
      ["migrate", "--adal", fleet.path, "--dry-run", "--now", "2025-06-01T12:00:00Z", "--report", "-"])
    #expect(output.exitCode == 2, "\(output.stderr)")
    // The report wraps its lines: read its words.
    let words = output.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    #expect(
      words.contains(
        "msal.json: file skipped: this is an MSAL unified cache, not an ADAL cache: pass it with --msal"),
      "\(output.stdout.suffix(2000))")
  }
}

/// The error `body` throws, as the type the library documents for it; an issue when it throws another or none.
func refusal<E: Error>(_ type: E.Type, _ body: () async throws -> Void) async -> E? {
  do {
    try await body()
  } catch let error as E {
    return error
  } catch {
    Issue.record("\(error) is not \(E.self)")
    return nil
  }
  Issue.record("nothing was refused")
  return nil
}
