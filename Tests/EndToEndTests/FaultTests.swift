import Foundation
import Testing
import _Adal2MSALTestSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writes that fail from outside the tool (a full disk, a read-only directory, a store locked by another
/// process) and inputs that vanish or never end: each is one clear error line, status 1, and the existing
/// cache file byte for byte as it was.
@Suite("Faults", .serialized)
struct FaultTests {
  /// A subcommand that writes a store from one MSAL JSON input. `migrate` is enabled by building it.
  struct Writer: Sendable, CustomStringConvertible {
    var subcommand: String
    var arguments: @Sendable (_ input: String, _ store: String) -> [String]
    var description: String { arguments("IN", "STORE").joined(separator: " ") }
  }

  static let writers: [Writer] = [
    Writer(subcommand: "import") { ["import", $0, "--out", $1] },
    Writer(subcommand: "migrate") { ["migrate", "--msal", $0, "--out", $1] },
  ]

  /// A scratch directory with a canary cache, a large cache, and a store already holding the canary cache.
  struct Setup {
    var directory: URL
    var small: URL
    var large: URL
    var store: URL
    var storeBytes: Data

    init() throws {
      directory = try Fixtures.temporaryDirectory("fault")
      small = try SecretCorpus.canaryMSALCache(in: directory).file
      large = try Faults.largeMSALCache(count: 3000, in: directory)
      store = directory.appendingPathComponent("existing.sqlite")
      let imported = try CLI.run(["import", small.path, "--out", store.path])
      try #require(imported.exitCode == 0, "setup import failed: \(imported.stderr)")
      storeBytes = try Data(contentsOf: store)
    }

    /// The rows of the store as the sqlite3 shell dumps them, read from a copy (so that reading changes
    /// nothing here).
    func dump(_ database: URL) throws -> String {
      let copy = directory.appendingPathComponent("dump-\(UUID().uuidString)")
      try FileManager.default.createDirectory(at: copy, withIntermediateDirectories: true)
      defer { try? FileManager.default.removeItem(at: copy) }
      for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: database.path + suffix) {
        try FileManager.default.copyItem(
          atPath: database.path + suffix, toPath: copy.appendingPathComponent("db.sqlite" + suffix).path)
      }
      let output = try ProcessRunner.run(
        URL(fileURLWithPath: "/usr/bin/sqlite3"), arguments: [copy.appendingPathComponent("db.sqlite").path, ".dump"])
      return output.stdout
    }

    /// The existing store holds exactly the rows it held, and the same bytes.
    func expectStoreUntouched(_ what: String) throws {
      let snapshot = directory.appendingPathComponent("snapshot-\(UUID().uuidString).sqlite")
      try storeBytes.write(to: snapshot)
      #expect(try dump(store) == dump(snapshot), "\(what): the existing store's rows changed")
      #expect((try? Data(contentsOf: store)) == storeBytes, "\(what): the existing store's bytes changed")
    }
  }

  @Test("a full disk (ulimit -f) is a clear error and the store is untouched", arguments: writers)
  func fullDisk(_ writer: Writer) throws {
    let setup = try Setup()
    defer { try? FileManager.default.removeItem(at: setup.directory) }
    // 64 KiB of file size: the 1.3 MB input's rows cannot fit.
    let output = try CLI.runInShell(prefix: "ulimit -f 64", writer.arguments(setup.large.path, setup.store.path))
    let violations = CLI.contractViolations(
      output, expected: ["existing.sqlite", "File too large", "raise the file-size limit"])
    #expect(violations.isEmpty, "\(writer): \(violations.joined(separator: "; "))")
    try setup.expectStoreUntouched("\(writer) on a full disk")
  }

  /// A new store under a file-size limit: 64 KiB stops its schema (the open fails), 1,000 KiB its rows (the run
  /// rolls back). SQLite calls both a disk I/O error; the system error behind it is the cause to name.
  @Test("a file-size limit on a new store names its cause and leaves no file", arguments: writers, [64, 1000])
  func fileSizeLimitOnNewStore(_ writer: Writer, kilobytes: Int) throws {
    let setup = try Setup()
    defer { try? FileManager.default.removeItem(at: setup.directory) }
    let store = setup.directory.appendingPathComponent("new.sqlite")
    let output = try CLI.runInShell(
      prefix: "ulimit -f \(kilobytes)", writer.arguments(setup.large.path, store.path))
    let stage = kilobytes < 100 ? "cannot open the store" : "the run was rolled back"
    let violations = CLI.contractViolations(
      output, expected: ["new.sqlite", stage, "disk I/O error: File too large", "raise the file-size limit"])
    #expect(violations.isEmpty, "\(writer) at \(kilobytes) KiB: \(violations.joined(separator: "; "))")
    let left = try FileManager.default.contentsOfDirectory(atPath: setup.directory.path).filter {
      $0.contains("new.sqlite")
    }
    #expect(left.isEmpty, "\(writer) at \(kilobytes) KiB left \(left)")
  }

  @Test(
    "an existing store whose directory is read-only names the directory; the store is untouched", arguments: writers)
  func readOnlyStoreDirectory(_ writer: Writer) throws {
    let setup = try Setup()
    defer { try? FileManager.default.removeItem(at: setup.directory) }
    let output: ProcessRunner.Output
    do {
      let undo = try #require(Faults.makeReadOnly(setup.directory), "cannot make a directory read-only here")
      defer { undo() }
      output = try CLI.run(writer.arguments(setup.small.path, setup.store.path))
    }
    let violations = CLI.contractViolations(
      output, expected: ["existing.sqlite", "is not writable", "make the directory writable or move the store"])
    #expect(violations.isEmpty, "\(writer): \(violations.joined(separator: "; "))")
    try setup.expectStoreUntouched("\(writer) in a read-only directory")
  }

  /// The read-only directory as a user other than root meets it: mode 0555, which root writes through (the test
  /// above uses `chattr +i` for root), and SQLite's "attempt to write a readonly database". Run as nobody through
  /// `setpriv` when the tests run as root.
  @Test(
    "an existing store in a directory of mode 0555 names the directory, as a user other than root", arguments: writers)
  func readOnlyStoreDirectoryAsUser(_ writer: Writer) throws {
    let setpriv = URL(fileURLWithPath: "/usr/bin/setpriv")
    let asRoot = geteuid() == 0
    if asRoot {
      try #require(FileManager.default.isExecutableFile(atPath: setpriv.path), "no setpriv to run as another user")
    }
    let setup = try Setup()
    defer {
      _ = chmod(setup.directory.path, 0o755)
      try? FileManager.default.removeItem(at: setup.directory)
    }
    if asRoot {
      let owned = try ProcessRunner.run(
        URL(fileURLWithPath: "/bin/chown"), arguments: ["-R", "65534:65534", setup.directory.path])
      try #require(owned.exitCode == 0, "cannot give the store to nobody: \(owned.stderr)")
    }
    try #require(chmod(setup.directory.path, 0o555) == 0)
    let arguments = writer.arguments(setup.small.path, setup.store.path)
    let output =
      try asRoot
      ? ProcessRunner.run(
        setpriv, arguments: ["--reuid=65534", "--regid=65534", "--clear-groups", CLI.binary.path] + arguments,
        timeout: CLI.hangTimeout)
      : CLI.run(arguments)
    _ = chmod(setup.directory.path, 0o755)
    let violations = CLI.contractViolations(
      output,
      expected: [
        "existing.sqlite", "attempt to write a readonly database", "its directory", "is not writable",
        "make the directory writable or move the store",
      ])
    #expect(violations.isEmpty, "\(writer): \(violations.joined(separator: "; "))")
    try setup.expectStoreUntouched("\(writer) in a directory of mode 0555")
  }

  @Test("a read-only directory is a clear error and nothing is created", arguments: writers)
  func readOnlyDirectory(_ writer: Writer) throws {
    let setup = try Setup()
    defer { try? FileManager.default.removeItem(at: setup.directory) }
    let locked = setup.directory.appendingPathComponent("read-only")
    try FileManager.default.createDirectory(at: locked, withIntermediateDirectories: true)
    let undo = try #require(Faults.makeReadOnly(locked), "cannot make a directory read-only here")
    defer { undo() }
    let store = locked.appendingPathComponent("new.sqlite")
    let output = try CLI.run(writer.arguments(setup.small.path, store.path))
    let violations = CLI.contractViolations(output, expected: ["new.sqlite"])
    #expect(violations.isEmpty, "\(writer): \(violations.joined(separator: "; "))")
    #expect(!FileManager.default.fileExists(atPath: store.path))
  }

  @Test("a store locked by another process is a clear error and is untouched", arguments: writers)
  func lockedStore(_ writer: Writer) throws {
    let setup = try Setup()
    defer { try? FileManager.default.removeItem(at: setup.directory) }
    let lock = try Faults.WriteLock(database: setup.store.path)
    // The store waits up to 30 s (CacheStoreOptions.busyTimeout) for the other writer before failing.
    let output = try ProcessRunner.run(
      CLI.binary, arguments: writer.arguments(setup.large.path, setup.store.path), timeout: 90)
    lock.release()
    let violations = CLI.contractViolations(output, expected: ["existing.sqlite"])
    #expect(violations.isEmpty, "\(writer): \(violations.joined(separator: "; "))")
    try setup.expectStoreUntouched("\(writer) on a locked store")
  }

  @Test("an input that has disappeared is a clear error and the store is untouched", arguments: writers)
  func vanishedInput(_ writer: Writer) throws {
    let setup = try Setup()
    defer { try? FileManager.default.removeItem(at: setup.directory) }
    // A link whose file was deleted after the link was made: what a user sees when the file goes away.
    let gone = setup.directory.appendingPathComponent("gone.json")
    try FileManager.default.copyItem(at: setup.small, to: gone)
    let link = setup.directory.appendingPathComponent("vanished.json")
    try FileManager.default.createSymbolicLink(at: link, withDestinationURL: gone)
    try FileManager.default.removeItem(at: gone)
    let output = try CLI.run(writer.arguments(link.path, setup.store.path))
    let violations = CLI.contractViolations(output, expected: ["vanished.json"])
    #expect(violations.isEmpty, "\(writer): \(violations.joined(separator: "; "))")
    try setup.expectStoreUntouched("\(writer) with a vanished input")
  }

  @Test(
    "inputs that never end (a FIFO without a writer, /dev/zero) fail fast",
    arguments: [
      ["inspect", "INPUT"], ["import", "INPUT", "--out", "STORE"], ["migrate", "--adal", "INPUT", "--out", "STORE"],
    ])
  func endlessInput(_ template: [String]) throws {
    let setup = try Setup()
    defer { try? FileManager.default.removeItem(at: setup.directory) }
    let fifo = setup.directory.appendingPathComponent("endless.fifo")
    try #require(mkfifo(fifo.path, 0o600) == 0)
    for input in [fifo.path, "/dev/zero"] {
      let arguments = template.map { $0 == "INPUT" ? input : $0 == "STORE" ? setup.store.path : $0 }
      let output = try CLI.run(arguments)
      let violations = CLI.contractViolations(output, expected: [input])
      #expect(violations.isEmpty, "\(arguments.joined(separator: " ")): \(violations.joined(separator: "; "))")
      try setup.expectStoreUntouched(arguments.joined(separator: " "))
    }
  }

  @Test("a report to a full disk or a read-only directory is a clear error; the previous report and the store stay")
  func reportFaults() throws {
    let setup = try Setup()
    defer { try? FileManager.default.removeItem(at: setup.directory) }
    let previous = setup.directory.appendingPathComponent("previous-report.txt")
    let previousBytes = Data("an earlier report\n".utf8)
    try previousBytes.write(to: previous)
    // The report of the 3,000-entry input is far larger than 64 KiB; it is written in parts, beside the store's
    // transaction.
    let full = try CLI.runInShell(
      prefix: "ulimit -f 64",
      ["migrate", "--msal", setup.large.path, "--out", setup.store.path, "--report", previous.path])
    var violations = CLI.contractViolations(full, expected: ["previous-report.txt", "cannot write the report"])
    #expect(violations.isEmpty, "report on a full disk: \(violations.joined(separator: "; "))")
    try expectPreviousReportKept(previous, previousBytes, in: setup.directory, "a failed report")
    try setup.expectStoreUntouched("migrate whose report hit a full disk")

    let locked = setup.directory.appendingPathComponent("read-only")
    try FileManager.default.createDirectory(at: locked, withIntermediateDirectories: true)
    let undo = try #require(Faults.makeReadOnly(locked), "cannot make a directory read-only here")
    defer { undo() }
    let target = locked.appendingPathComponent("report.txt")
    let readOnly = try CLI.run([
      "migrate", "--msal", setup.small.path, "--out", setup.store.path, "--report", target.path,
    ])
    violations = CLI.contractViolations(readOnly, expected: ["report.txt"])
    #expect(violations.isEmpty, "report to a read-only directory: \(violations.joined(separator: "; "))")
    #expect(!FileManager.default.fileExists(atPath: target.path))
    try setup.expectStoreUntouched("migrate whose report directory is read-only")
  }

  @Test("a store write that fails after the report was rendered leaves no report; the previous one stays")
  func storeFailureAfterReport() throws {
    var setup = try Setup()
    defer { try? FileManager.default.removeItem(at: setup.directory) }
    // The run row is updated last, after every entity row is written and the report rendered.
    let trigger = try ProcessRunner.run(
      URL(fileURLWithPath: "/usr/bin/sqlite3"),
      arguments: [
        setup.store.path,
        "CREATE TRIGGER refuse_run_update BEFORE UPDATE ON runs BEGIN SELECT RAISE(ABORT, 'runs are read-only'); END;",
      ])
    try #require(trigger.exitCode == 0, "cannot add the trigger: \(trigger.stderr)")
    setup.storeBytes = try Data(contentsOf: setup.store)
    let previous = setup.directory.appendingPathComponent("previous-report.txt")
    let previousBytes = Data("an earlier report\n".utf8)
    try previousBytes.write(to: previous)
    let output = try CLI.run([
      "migrate", "--msal", setup.large.path, "--out", setup.store.path, "--report", previous.path,
    ])
    let violations = CLI.contractViolations(output, expected: ["existing.sqlite", "runs are read-only"])
    #expect(violations.isEmpty, "store failure: \(violations.joined(separator: "; "))")
    try expectPreviousReportKept(previous, previousBytes, in: setup.directory, "a failed run")
    try setup.expectStoreUntouched("migrate whose store write failed")
  }

  /// The report at `previous` still holds `bytes`, and no temporary file is left in `directory`.
  private func expectPreviousReportKept(
    _ previous: URL, _ bytes: Data, in directory: URL, _ what: String
  ) throws {
    #expect((try? Data(contentsOf: previous)) == bytes, "\(what) replaced the previous report")
    let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".tmp") }
    #expect(leftovers.isEmpty, "\(what) left \(leftovers)")
  }

  @Test("export to a full disk or a read-only directory keeps the previous export")
  func exportFaults() throws {
    let setup = try Setup()
    defer { try? FileManager.default.removeItem(at: setup.directory) }
    let bigStore = setup.directory.appendingPathComponent("big.sqlite")
    let imported = try CLI.run(["import", setup.large.path, "--out", bigStore.path])
    try #require(imported.exitCode == 0, "setup import failed: \(imported.stderr)")
    let previous = setup.directory.appendingPathComponent("previous-export.json")
    let previousBytes = Data("{\"AccessToken\": {}}\n".utf8)
    try previousBytes.write(to: previous)
    let full = try CLI.runInShell(prefix: "ulimit -f 64", ["export", bigStore.path, "--output", previous.path])
    var violations = CLI.contractViolations(full, expected: ["previous-export.json"])
    #expect(violations.isEmpty, "export on a full disk: \(violations.joined(separator: "; "))")
    #expect((try? Data(contentsOf: previous)) == previousBytes, "a failed export replaced the previous one")
    let leftovers = try FileManager.default.contentsOfDirectory(atPath: setup.directory.path).filter {
      $0.hasSuffix(".tmp")
    }
    #expect(leftovers.isEmpty, "a failed export left \(leftovers)")

    let locked = setup.directory.appendingPathComponent("read-only")
    try FileManager.default.createDirectory(at: locked, withIntermediateDirectories: true)
    let undo = try #require(Faults.makeReadOnly(locked), "cannot make a directory read-only here")
    defer { undo() }
    let target = locked.appendingPathComponent("export.json")
    let readOnly = try CLI.run(["export", setup.store.path, "--output", target.path])
    violations = CLI.contractViolations(readOnly, expected: ["export.json"])
    #expect(violations.isEmpty, "export to a read-only directory: \(violations.joined(separator: "; "))")
  }
}
