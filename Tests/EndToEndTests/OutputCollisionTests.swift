import Adal2MSAL
import Foundation
import Testing
import _Adal2MSALTestSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Issue 22: an output that is one of the run's own files, or not a regular file, is refused before anything
/// is written: one error line naming both files, status 1, every file byte for byte as it was.
@Suite("Output collisions", .serialized)
struct OutputCollisionTests {
  /// A scratch directory with a canary MSAL cache, a store holding it, and a key file.
  struct Setup {
    var directory: URL
    var input: URL
    var store: URL
    var key: URL
    /// A character device to write to. Not the system's /dev/null: a run without the guard, as root, renames
    /// its output over the device (issue 22), and /dev/null is every other process's too. As root, a private
    /// null device (1, 3) in the scratch directory; otherwise /dev/null, which a user cannot replace.
    var device: String

    init() throws {
      directory = try Fixtures.temporaryDirectory("collision")
      input = try SecretCorpus.canaryMSALCache(in: directory).file
      store = directory.appendingPathComponent("store.sqlite")
      key = directory.appendingPathComponent("store.key")
      try Data(String(repeating: "ab", count: 32).utf8).write(to: key)
      #expect(chmod(key.path, 0o600) == 0)
      let imported = try CLI.run(["import", input.path, "--out", store.path])
      try #require(imported.exitCode == 0, "setup import failed: \(imported.stderr)")
      device = "/dev/null"
      if geteuid() == 0 {
        device = directory.appendingPathComponent("null").path
        #if os(Linux)
          let number: dev_t = 0x103
        #else
          let number: dev_t = (1 << 24) | 3
        #endif
        try #require(mknod(device, S_IFCHR | 0o666, number) == 0, "cannot make a private null device")
      }
    }

    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    /// The type of every entry of the directory and the bytes of every regular file (a FIFO or a device is
    /// never opened), to compare before and after.
    func snapshot() throws -> [String: String] {
      var files: [String: String] = [:]
      for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) {
        let type = try FileManager.default.attributesOfItem(atPath: path(name))[.type] as? FileAttributeType
        var entry = type?.rawValue ?? "?"
        if type == .typeRegular {
          entry += " " + SecretFingerprint.of(FileManager.default.contents(atPath: path(name)) ?? Data())
        }
        files[name] = entry
      }
      return files
    }
  }

  struct Case: Sendable, CustomStringConvertible {
    var name: String
    /// The arguments, given the setup's paths.
    var arguments: @Sendable (Setup) throws -> [String]
    /// What the one error line must say.
    var expected: [String]
    var description: String { name }
  }

  static let cases: [Case] = [
    Case(
      name: "migrate --report is the input",
      arguments: { s in
        ["migrate", "--msal", s.input.path, "--out", s.path("new.sqlite"), "--report", s.input.path]
      }, expected: ["--report", "is the same file as the --msal input"]),
    Case(
      name: "migrate --report is the store",
      arguments: { s in
        ["migrate", "--msal", s.input.path, "--out", s.store.path, "--report", s.store.path]
      }, expected: ["--report", "is the same file as"]),
    Case(
      name: "migrate --report is the key file",
      arguments: { s in
        [
          "migrate", "--msal", s.input.path, "--out", s.path("new.sqlite"), "--encryption-key-file", s.key.path,
          "--report", s.key.path,
        ]
      }, expected: ["is the same file as the --encryption-key-file"]),
    Case(
      name: "migrate --report is a symlink to the input",
      arguments: { s in
        try FileManager.default.createSymbolicLink(atPath: s.path("link.json"), withDestinationPath: s.input.path)
        return ["migrate", "--msal", s.input.path, "--out", s.path("new.sqlite"), "--report", s.path("link.json")]
      }, expected: ["link.json", "is the same file as the --msal input"]),
    Case(
      name: "migrate --report is a hard link to the store",
      arguments: { s in
        #expect(link(s.store.path, s.path("hard.json")) == 0)
        return ["migrate", "--msal", s.input.path, "--out", s.store.path, "--report", s.path("hard.json")]
      }, expected: ["hard.json", "is the same file as"]),
    Case(
      name: "migrate --report and --out are one new path",
      arguments: { s in
        [
          "migrate", "--msal", s.input.path, "--out", s.path("new.sqlite"), "--report",
          "\(s.directory.path)/./new.sqlite",
        ]
      }, expected: ["--report", "is the same file as"]),
    Case(
      name: "migrate --out is the input",
      arguments: { s in
        ["migrate", "--msal", s.input.path, "--out", s.input.path]
      }, expected: ["--out", "is the same file as the --msal input"]),
    Case(
      name: "migrate --out is a character device",
      arguments: { s in
        ["migrate", "--msal", s.input.path, "--out", s.device]
      }, expected: ["--out", "a character device"]),
    Case(
      name: "migrate --report is a directory",
      arguments: { s in
        ["migrate", "--msal", s.input.path, "--out", s.path("new.sqlite"), "--report", s.directory.path]
      }, expected: ["--report", "a directory"]),
    Case(
      name: "migrate --out is -",
      arguments: { s in
        ["migrate", "--msal", s.input.path, "--out", "-"]
      }, expected: ["cannot be standard output"]),
    Case(
      name: "export --output is the store",
      arguments: { s in
        ["export", s.store.path, "--output", s.store.path]
      }, expected: ["--output", "is the same file as the store"]),
    Case(
      name: "export --output is the store's -wal",
      arguments: { s in
        ["export", s.store.path, "--output", s.store.path + "-wal"]
      }, expected: ["--output", "-wal"]),
    Case(
      name: "export --output is a character device",
      arguments: { s in
        ["export", s.store.path, "--output", s.device]
      }, expected: ["--output", "a character device"]),
    Case(
      name: "export --output is a FIFO",
      arguments: { s in
        #expect(mkfifo(s.path("fifo"), 0o600) == 0)
        return ["export", s.store.path, "--output", s.path("fifo")]
      }, expected: ["fifo", "a FIFO"]),
    Case(
      name: "import --out is the input",
      arguments: { s in
        ["import", s.input.path, "--out", s.input.path]
      }, expected: ["--out", "is the same file as the input"]),
  ]

  @Test("a colliding or special output is refused and nothing changes", arguments: cases)
  func refused(_ test: Case) throws {
    let setup = try Setup()
    defer { try? FileManager.default.removeItem(at: setup.directory) }
    let arguments = try test.arguments(setup)
    let before = try setup.snapshot()
    let output = try CLI.run(arguments, in: setup.directory)
    let violations = CLI.contractViolations(output, expected: test.expected)
    #expect(violations.isEmpty, "\(test): \(violations.joined(separator: "; "))")
    #expect(try setup.snapshot() == before, "\(test): a file of the directory changed, appeared or vanished")
    #expect(
      try FileManager.default.attributesOfItem(atPath: setup.device)[.type] as? FileAttributeType
        == .typeCharacterSpecial)
    #expect(!FileManager.default.fileExists(atPath: setup.device + "-journal"), "\(test): a -journal was created")
  }

  @Test("--report - and --output - write to standard output, not to a file named -")
  func dashIsStandardOutput() throws {
    let setup = try Setup()
    defer { try? FileManager.default.removeItem(at: setup.directory) }
    let migrated = try CLI.run(
      [
        "migrate", "--msal", setup.input.path, "--out", setup.path("new.sqlite"), "--report", "-",
        "--report-format", "json",
      ], in: setup.directory)
    #expect(migrated.exitCode == 0, "\(migrated.stderr)")
    #expect(migrated.stdout.contains("\"entries\"") || migrated.stdout.hasPrefix("{"), "\(migrated.stdout.prefix(200))")
    let exported = try CLI.run(["export", setup.store.path, "--output", "-"], in: setup.directory)
    #expect(exported.exitCode == 0, "\(exported.stderr)")
    #expect(exported.stdout.contains("\"RefreshToken\""))
    #expect(!FileManager.default.fileExists(atPath: setup.path("-")), "a file named - was written")
  }
}

/// The same check in the library's runs, for pipelines that call them directly: the error names both files in
/// the library's words, and nothing is read or written.
@Suite("Output collisions in the library's runs", .serialized)
struct LibraryOutputCollisionTests {
  typealias Setup = OutputCollisionTests.Setup

  /// Runs `body`, expects it to refuse `output` as the same file as `other`, and every file to be as it was.
  func expectRefused(
    _ setup: Setup, output: RunFile, sameAs other: RunFile, _ body: () async throws -> Void
  ) async throws {
    let before = try setup.snapshot()
    let error = await #expect(throws: OutputPathError.self) { try await body() }
    #expect(error?.output == output)
    #expect(error?.problem == .sameFile(as: other))
    #expect(try setup.snapshot() == before, "a file of the directory changed, appeared or vanished")
  }

  @Test func aMigrationsReportThatIsItsInputIsRefused() async throws {
    let setup = try Setup()
    defer { try? FileManager.default.removeItem(at: setup.directory) }
    var options = MigrationRun.Options()
    options.report = .file(setup.input.path)
    try await expectRefused(
      setup, output: RunFile(role: "the report", path: setup.input.path),
      sameAs: RunFile(role: "the MSAL input", path: setup.input.path)
    ) {
      _ = try await MigrationRun(msal: [setup.input.path], store: setup.path("new.sqlite"), options: options).run()
    }
  }

  @Test func aDryRunsReportThatIsTheStoresWriteAheadLogIsRefused() async throws {
    let setup = try Setup()
    defer { try? FileManager.default.removeItem(at: setup.directory) }
    var options = MigrationRun.Options()
    options.dryRun = true
    options.report = .file(setup.store.path + "-wal")
    try await expectRefused(
      setup, output: RunFile(role: "the report", path: setup.store.path + "-wal"),
      sameAs: RunFile(role: "the store's -wal file", path: setup.store.path + "-wal")
    ) {
      _ = try await MigrationRun(msal: [setup.input.path], store: setup.store.path, options: options).run()
    }
  }

  @Test func aReportThatIsAzureCLIsServicePrincipalsIsRefused() async throws {
    let setup = try Setup()
    defer { try? FileManager.default.removeItem(at: setup.directory) }
    let tokenCache = setup.path("msal_token_cache.json")
    try FileManager.default.copyItem(atPath: setup.input.path, toPath: tokenCache)
    var options = MigrationRun.Options()
    options.azureCLIDirectory = setup.directory.path
    options.report = .file(setup.path("service_principal_entries.json"))
    try await expectRefused(
      setup, output: RunFile(role: "the report", path: setup.path("service_principal_entries.json")),
      sameAs: RunFile(
        role: "Azure CLI's service principals", path: setup.directory.path + "/service_principal_entries.json")
    ) {
      _ = try await MigrationRun(msal: [tokenCache], store: setup.path("new.sqlite"), options: options).run()
    }
  }

  /// Azure CLI's token cache holds the user's current sign-ins: a run that would replace it without reading it
  /// is refused (the command line refuses it as a usage error).
  @Test func azureCLIsTokenCacheThatIsNotAnInputIsRefused() async throws {
    let setup = try Setup()
    defer { try? FileManager.default.removeItem(at: setup.directory) }
    try FileManager.default.copyItem(atPath: setup.input.path, toPath: setup.path("msal_token_cache.json"))
    var options = MigrationRun.Options()
    options.azureCLIDirectory = setup.directory.path
    let before = try setup.snapshot()
    let error = await #expect(throws: AzureCLIFiles.Refusal.self) {
      _ = try await MigrationRun(msal: [setup.input.path], store: setup.path("new.sqlite"), options: options).run()
    }
    #expect(error?.description.contains("pass it in `msal:`") == true)
    #expect(try setup.snapshot() == before)
  }

  @Test func anImportIntoItsInputIsRefused() async throws {
    let setup = try Setup()
    defer { try? FileManager.default.removeItem(at: setup.directory) }
    try await expectRefused(
      setup, output: RunFile(role: "the store", path: setup.input.path),
      sameAs: RunFile(role: "the MSAL input", path: setup.input.path)
    ) {
      _ = try ImportRun(files: [setup.input.path], store: setup.input.path).run()
    }
  }

  @Test func anExportOverItsStoreIsRefused() async throws {
    let setup = try Setup()
    defer { try? FileManager.default.removeItem(at: setup.directory) }
    try await expectRefused(
      setup, output: RunFile(role: "the export", path: setup.store.path),
      sameAs: RunFile(role: "the store", path: setup.store.path)
    ) {
      _ = try ExportRun(store: setup.store.path, library: .python, output: setup.store.path).run()
    }
  }

  /// A report or an export over another store (a mistyped path) replaced it: refused, the store as it was; the
  /// store itself, an SQLite file, is still the run's to write.
  @Test func aReportOrExportOverAnotherStoreIsRefused() throws {
    let setup = try Setup()
    defer { try? FileManager.default.removeItem(at: setup.directory) }
    let other = setup.path("other.sqlite")
    try FileManager.default.copyItem(atPath: setup.store.path, toPath: other)
    let before = try setup.snapshot()
    let runs: [[String]] = [
      ["export", setup.store.path, "--output", other],
      ["migrate", "--msal", setup.input.path, "--out", setup.path("new.sqlite"), "--report", other],
    ]
    for arguments in runs {
      let output = try CLI.run(arguments)
      #expect(output.exitCode == 1, "\(arguments): \(output.stderr)")
      #expect(
        output.stderr.contains("\(other) is an SQLite database (an adal2msal store or another application's)"),
        "\(arguments): \(output.stderr)")
      #expect(try setup.snapshot() == before, "\(arguments) changed the directory")
    }
    let again = try CLI.run(["import", setup.input.path, "--out", setup.store.path])
    #expect(again.exitCode == 0, "the run's own store: \(again.stderr)")
  }
}
