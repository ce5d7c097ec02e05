import Foundation
import Testing
import _Adal2MSALTestSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A run that creates its store, killed with SIGKILL while it writes, leaves the path as it was: no file (or the
/// file that held nothing, as it was), never a store of the schema only that `accounts` accepts. The store is
/// built under a hidden temporary name and renamed onto the path at its commit (`NewStoreFile`); the next run
/// that writes the path removes what the killed run left.
@Suite("Killed runs that create a store", .serialized)
struct KilledNewStoreTests {
  /// The files of `directory` whose names contain `name` (the store, its side files, its temporary files).
  static func files(of name: String, in directory: URL) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).filter { $0.contains(name) }.sorted()
  }

  /// Starts `arguments`, waits until a rollback journal of a file named after `name` exists in `directory` beside
  /// a file being written past 4 MiB (the run is in its transaction, `FirstRunJournal`), and kills it with
  /// SIGKILL. Tried again (up to five times) when the run ended before it was seen writing. Returns whether a
  /// kill landed in the write.
  static func killWhileWriting(_ arguments: [String], name: String, in directory: URL, reset: () throws -> Void)
    throws -> Bool
  {
    for _ in 0..<5 {
      let run = try InterruptTests.interrupt(arguments, with: SIGKILL) {
        let names = files(of: name, in: directory)
        return names.contains { journal in
          journal.hasSuffix("-journal")
            && InterruptTests.size(directory.appendingPathComponent(String(journal.dropLast(8))).path) > 4 << 20
        }
      }
      if run.seen, run.bySignal, run.status == SIGKILL { return true }
      try reset()
    }
    return false
  }

  @Test("migrate or import into a missing path, killed mid-write, leaves no store", arguments: ["migrate", "import"])
  func killedIntoMissingPath(_ command: String) throws {
    let directory = try Fixtures.temporaryDirectory("killed-new")
    defer { try? FileManager.default.removeItem(at: directory) }
    let input = try InterruptTests.heavyCache(in: directory)
    let store = directory.appendingPathComponent("new.sqlite").path
    let arguments =
      command == "import" ? ["import", input.path, "--out", store] : ["migrate", "--msal", input.path, "--out", store]
    let killed = try Self.killWhileWriting(arguments, name: "new.sqlite", in: directory) {
      for name in Self.files(of: "new.sqlite", in: directory) {
        try FileManager.default.removeItem(at: directory.appendingPathComponent(name))
      }
    }
    try #require(killed, "\(command): the run was never killed while it wrote its store")
    let left = Self.files(of: "new.sqlite", in: directory)
    #expect(!left.contains { $0.hasPrefix("new.sqlite") }, "\(command): left at the path: \(left)")
    #expect(
      left.allSatisfy { $0.hasPrefix(".new.sqlite.adal2msal-new-") }, "\(command): unexpected files: \(left)")
    let accounts = try CLI.run(["accounts", store])
    #expect(accounts.exitCode != 0, "\(command): accounts accepted what the killed run left: \(accounts.stdout)")

    // The next run of the path removes what the killed one left, and writes the store as a run never killed.
    let small = try SecretCorpus.canaryMSALCache(in: directory).file.path
    let again = try CLI.run(
      command == "import" ? ["import", small, "--out", store] : ["migrate", "--msal", small, "--out", store])
    #expect(again.exitCode == 0, "\(command): \(again.stderr)")
    #expect(Self.files(of: "new.sqlite", in: directory) == ["new.sqlite"], "\(command): stale files remain")
    #expect(OwnerOnlyTests.mode(store) == 0o600)
    #expect(try CLI.run(["accounts", store]).exitCode == 0)
  }

  @Test("migrate into an empty file, killed mid-write, leaves it empty with its mode")
  func killedIntoEmptyFile() throws {
    let directory = try Fixtures.temporaryDirectory("killed-new")
    defer { try? FileManager.default.removeItem(at: directory) }
    let input = try InterruptTests.heavyCache(in: directory)
    let store = directory.appendingPathComponent("empty.sqlite").path
    func reset() throws {
      for name in Self.files(of: "empty.sqlite", in: directory) {
        try FileManager.default.removeItem(at: directory.appendingPathComponent(name))
      }
      #expect(FileManager.default.createFile(atPath: store, contents: Data(), attributes: [.posixPermissions: 0o640]))
    }
    try reset()
    let killed = try Self.killWhileWriting(
      ["migrate", "--msal", input.path, "--out", store], name: "empty.sqlite", in: directory, reset: reset)
    try #require(killed, "the run was never killed while it wrote its store")
    #expect(InterruptTests.size(store) == 0, "the empty file became \(InterruptTests.size(store)) bytes")
    #expect(OwnerOnlyTests.mode(store) == 0o640)
    let left = Self.files(of: "empty.sqlite", in: directory).filter { $0.hasPrefix("empty.sqlite") }
    #expect(left == ["empty.sqlite"], "left at the path: \(left)")
    #expect(try CLI.run(["accounts", store]).exitCode != 0)

    let small = try SecretCorpus.canaryMSALCache(in: directory).file.path
    let again = try CLI.run(["migrate", "--msal", small, "--out", store])
    #expect(again.exitCode == 0, "\(again.stderr)")
    #expect(Self.files(of: "empty.sqlite", in: directory) == ["empty.sqlite"], "stale files remain")
    #expect(OwnerOnlyTests.mode(store) == 0o600)
    #expect(try CLI.run(["accounts", store]).exitCode == 0)
  }

  /// A store created whole: the same export as a store the same run wrote into an existing empty file, no
  /// temporary file left, mode 0600, and only the store at the path once the run has ended.
  @Test("a new store is the same whether its path was missing or an empty file")
  func newStoreIsComplete() throws {
    let directory = try Fixtures.temporaryDirectory("killed-new")
    defer { try? FileManager.default.removeItem(at: directory) }
    let input = try SecretCorpus.canaryMSALCache(in: directory).file.path
    let missing = directory.appendingPathComponent("a.sqlite").path
    let empty = directory.appendingPathComponent("b.sqlite").path
    #expect(FileManager.default.createFile(atPath: empty, contents: Data(), attributes: [.posixPermissions: 0o644]))
    var exports: [String] = []
    for store in [missing, empty] {
      let written = try CLI.run(["migrate", "--msal", input, "--out", store, "--now", "2026-12-01T00:00:00Z"])
      #expect(written.exitCode == 0, "\(written.stderr)")
      #expect(OwnerOnlyTests.mode(store) == 0o600)
      let exported = try CLI.run(["export", store, "--for", "python"])
      #expect(exported.exitCode == 0, "\(exported.stderr)")
      exports.append(exported.stdout)
    }
    #expect(exports[0] == exports[1])
    #expect(!exports[0].isEmpty)
    let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.contains(".sqlite") }
    #expect(names.sorted() == ["a.sqlite", "b.sqlite"], "\(names)")
  }

  /// A store path that is a symbolic link, to an empty file or to a missing one: the store is built beside the
  /// file the link names and renamed onto that file; the link stays a link.
  @Test("a new store at a link goes to the file the link names")
  func newStoreThroughALink() throws {
    let directory = try Fixtures.temporaryDirectory("killed-new")
    defer { try? FileManager.default.removeItem(at: directory) }
    let input = try SecretCorpus.canaryMSALCache(in: directory).file.path
    let targets = directory.appendingPathComponent("targets")
    try FileManager.default.createDirectory(at: targets, withIntermediateDirectories: true)
    let empty = targets.appendingPathComponent("empty.sqlite").path
    #expect(FileManager.default.createFile(atPath: empty, contents: Data()))
    for (link, target) in [
      ("to-empty.sqlite", empty), ("to-missing.sqlite", targets.appendingPathComponent("missing.sqlite").path),
    ] {
      let path = directory.appendingPathComponent(link).path
      try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: target)
      let written = try CLI.run(["migrate", "--msal", input, "--out", path])
      #expect(written.exitCode == 0, "\(link): \(written.stderr)")
      #expect(try FileManager.default.destinationOfSymbolicLink(atPath: path) == target, "\(link) is no longer a link")
      #expect(OwnerOnlyTests.mode(target) == 0o600, "\(link)")
      #expect(try CLI.run(["accounts", path]).exitCode == 0, "\(link)")
    }
    let names = try FileManager.default.contentsOfDirectory(atPath: targets.path).sorted()
    #expect(names == ["empty.sqlite", "missing.sqlite"], "\(names)")
  }
}
