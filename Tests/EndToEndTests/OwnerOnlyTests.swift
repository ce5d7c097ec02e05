import Foundation
import Testing
import _Adal2MSALTestSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Issue 22: the files that hold tokens are their user's alone. A loose existing store (and its side files) is
/// made 0600 by a run that writes it; a store planted by another user is refused untouched; a key file others
/// may read is a warning, and with --strict an error.
@Suite("Owner-only files", .serialized)
struct OwnerOnlyTests {
  static func mode(_ path: String) -> UInt16? {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    return UInt16(info.st_mode & 0o7777)
  }

  @Test("a loose existing store and its side files become 0600", arguments: ["import", "migrate"])
  func looseStoreIsTightened(_ command: String) throws {
    let directory = try Fixtures.temporaryDirectory("owner")
    defer { try? FileManager.default.removeItem(at: directory) }
    let input = try SecretCorpus.canaryMSALCache(in: directory).file
    let store = directory.appendingPathComponent("store.sqlite").path
    // An empty 0644 file, as `touch` leaves it, plus loose side files.
    #expect(FileManager.default.createFile(atPath: store, contents: nil, attributes: [.posixPermissions: 0o644]))
    for suffix in ["-wal", "-shm"] {
      #expect(
        FileManager.default.createFile(atPath: store + suffix, contents: nil, attributes: [.posixPermissions: 0o644]))
    }
    let arguments =
      command == "import" ? ["import", input.path, "--out", store] : ["migrate", "--msal", input.path, "--out", store]
    let output = try CLI.run(arguments)
    #expect(output.exitCode == 0, "\(output.stderr)")
    for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: store + suffix) {
      #expect(
        Self.mode(store + suffix) == 0o600,
        "\(command): \(suffix) is \(String(Self.mode(store + suffix) ?? 0, radix: 8))")
    }
  }

  @Test("a store owned by another user is refused and left as it was", arguments: ["import", "migrate"])
  func foreignStoreIsRefused(_ command: String) throws {
    try #require(geteuid() == 0, "needs root to give a file to another user")
    let directory = try Fixtures.temporaryDirectory("owner")
    defer { try? FileManager.default.removeItem(at: directory) }
    let input = try SecretCorpus.canaryMSALCache(in: directory)
    let store = directory.appendingPathComponent("planted.sqlite").path
    #expect(FileManager.default.createFile(atPath: store, contents: nil, attributes: [.posixPermissions: 0o666]))
    #expect(chown(store, 4321, 4321) == 0)
    let arguments =
      command == "import"
      ? ["import", input.file.path, "--out", store] : ["migrate", "--msal", input.file.path, "--out", store]
    let output = try CLI.run(arguments)
    let violations = CLI.contractViolations(output, expected: ["planted.sqlite", "owned by user 4321"])
    #expect(violations.isEmpty, "\(command): \(violations.joined(separator: "; "))")
    #expect(try Data(contentsOf: URL(fileURLWithPath: store)).isEmpty, "\(command): the planted store was written")
    #expect(!FileManager.default.fileExists(atPath: store + "-wal"), "\(command): a -wal was created")
    #expect(Self.mode(store) == 0o666, "the planted file's mode was changed")
    #expect(SecretCorpus.leaks(in: output.stderr, of: input.secrets).isEmpty)
  }

  /// SQLite running as root gives a journal file the database's owner: a `-wal` another user planted beside an
  /// existing store, and holds open, was made root's by the run's first read of the store (before the check of a
  /// writing open), then written with tokens that user read through its descriptor (status 0). Every command that
  /// opens the store refuses it before SQLite touches the file, reading too.
  @Test(
    "a side file of an existing store owned by another user is refused before SQLite opens the store",
    arguments: ["-wal", "-journal"])
  func foreignSideFileOfAnExistingStoreIsRefused(_ suffix: String) throws {
    try #require(geteuid() == 0, "needs root to give a file to another user")
    let directory = try Fixtures.temporaryDirectory("owner")
    defer { try? FileManager.default.removeItem(at: directory) }
    let input = try SecretCorpus.canaryMSALCache(in: directory)
    let store = directory.appendingPathComponent("store.sqlite").path
    let made = try CLI.run(["import", input.file.path, "--out", store, "-q"])
    try #require(made.exitCode == 0, "\(made.stderr)")
    let planted = store + suffix
    let plantedBytes = Data(suffix == "-journal" ? Array(repeating: 0, count: 512) : [])
    #expect(
      FileManager.default.createFile(atPath: planted, contents: plantedBytes, attributes: [.posixPermissions: 0o644]))
    #expect(chown(planted, 4321, 4321) == 0)
    let commands: [[String]] = [
      ["migrate", "--msal", input.file.path, "--out", store],
      ["migrate", "--msal", input.file.path, "--out", store, "--dry-run"],
      ["import", input.file.path, "--out", store],
      ["export", store, "--output", directory.appendingPathComponent("export.json").path],
      ["accounts", store],
    ]
    for arguments in commands {
      let output = try CLI.run(arguments)
      let context = "\(arguments.prefix(2).joined(separator: " ")) \(suffix): \(output.stderr.prefix(400))"
      #expect(output.exitCode == 1, "\(context)")
      #expect(output.stderr.contains("store.sqlite\(suffix) is owned by user 4321"), "\(context)")
      var info = stat()
      #expect(stat(planted, &info) == 0 && info.st_uid == 4321, "the planted file was taken over: \(context)")
      #expect(try Data(contentsOf: URL(fileURLWithPath: planted)) == plantedBytes, "written: \(context)")
      #expect(SecretCorpus.leaks(in: output.stdout + output.stderr, of: input.secrets).isEmpty)
    }
  }

  @Test("a key file others may read: a warning, and with --strict an error")
  func looseKeyFile() throws {
    let directory = try Fixtures.temporaryDirectory("owner")
    defer { try? FileManager.default.removeItem(at: directory) }
    let input = try SecretCorpus.canaryMSALCache(in: directory).file
    let key = directory.appendingPathComponent("loose.key").path
    let keyText = String(repeating: "cd", count: 32)
    try Data(keyText.utf8).write(to: URL(fileURLWithPath: key))
    #expect(chmod(key, 0o644) == 0)
    let store = directory.appendingPathComponent("store.sqlite").path
    let strict = try CLI.run([
      "migrate", "--msal", input.path, "--out", store, "--encryption-key-file", key, "--strict",
    ])
    let violations = CLI.contractViolations(strict, expected: ["loose.key", "mode 0644", "chmod 600"])
    #expect(violations.isEmpty, "--strict: \(violations.joined(separator: "; "))")
    #expect(!FileManager.default.fileExists(atPath: store), "--strict wrote the store")
    let warned = try CLI.run(["migrate", "--msal", input.path, "--out", store, "--encryption-key-file", key])
    #expect(warned.exitCode == 0, "\(warned.stderr)")
    #expect(warned.stderr.contains("adal2msal: warning: \(key): the key file is mode 0644"), "\(warned.stderr)")
    #expect(!(strict.stderr + warned.stderr).contains(keyText), "the key was printed")
    #expect(chmod(key, 0o600) == 0)
    let quiet = try CLI.run([
      "export", store, "--encryption-key-file", key, "--output", directory.appendingPathComponent("o.json").path,
    ])
    #expect(quiet.exitCode == 0 && !quiet.stderr.contains("warning"), "\(quiet.stderr)")
  }
}
