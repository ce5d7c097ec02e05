import Foundation
import Testing
import _Adal2MSALTestSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Issue 22: input that never ends or is not a cache at all is refused from its first bytes, with an error
/// that says what it is: a FIFO (never opened: that would wait for a writer), /dev/zero, a large zero-filled
/// file (without reading it whole), a key "file" that is a device.
@Suite("Special inputs", .serialized)
struct SpecialInputTests {
  struct Case: Sendable, CustomStringConvertible {
    var name: String
    var arguments: @Sendable (_ input: String, _ store: String) -> [String]
    var description: String { name }
  }

  static let commands: [Case] = [
    Case(name: "inspect") { input, _ in ["inspect", input] },
    Case(name: "migrate --adal") { input, store in ["migrate", "--adal", input, "--out", store] },
    Case(name: "migrate --msal") { input, store in ["migrate", "--msal", input, "--out", store] },
    Case(name: "import") { input, store in ["import", input, "--out", store] },
  ]

  @Test("a FIFO is refused unopened", arguments: commands)
  func fifo(_ command: Case) throws {
    let directory = try Fixtures.temporaryDirectory("special")
    defer { try? FileManager.default.removeItem(at: directory) }
    let fifo = directory.appendingPathComponent("pipe").path
    try #require(mkfifo(fifo, 0o600) == 0)
    let store = directory.appendingPathComponent("s.sqlite").path
    let output = try CLI.run(command.arguments(fifo, store))
    let violations = CLI.contractViolations(output, expected: ["pipe", "a FIFO (named pipe), not a regular file"])
    #expect(violations.isEmpty, "\(command): \(violations.joined(separator: "; "))")
    #expect(!FileManager.default.fileExists(atPath: store))
  }

  @Test("/dev/zero is refused", arguments: commands)
  func devZero(_ command: Case) throws {
    let directory = try Fixtures.temporaryDirectory("special")
    defer { try? FileManager.default.removeItem(at: directory) }
    let store = directory.appendingPathComponent("s.sqlite").path
    let output = try CLI.run(command.arguments("/dev/zero", store))
    let violations = CLI.contractViolations(output, expected: ["/dev/zero", "a character device, not a regular file"])
    #expect(violations.isEmpty, "\(command): \(violations.joined(separator: "; "))")
    #expect(!output.stderr.contains("permission"), "\(output.stderr)")
  }

  @Test("a 1 GiB zero-filled file is refused from its first bytes, in little memory", arguments: commands)
  func zeroFilled(_ command: Case) throws {
    let directory = try Fixtures.temporaryDirectory("special")
    defer { try? FileManager.default.removeItem(at: directory) }
    let zeros = directory.appendingPathComponent("zeros.bin").path
    // Sparse: a gigabyte that takes no disk.
    try #require(truncate(zeros, 0) == 0 || FileManager.default.createFile(atPath: zeros, contents: nil))
    try #require(truncate(zeros, 1 << 30) == 0)
    let store = directory.appendingPathComponent("s.sqlite").path
    // 1 GiB of address space: less than reading (or mapping) the whole file takes.
    let output = try CLI.runInShell(prefix: "ulimit -v 1048576", command.arguments(zeros, store))
    let violations = CLI.contractViolations(output, expected: ["zeros.bin", "the first 4096 bytes are all zero"])
    #expect(violations.isEmpty, "\(command): \(violations.joined(separator: "; "))")
  }

  @Test("a key file that is a device is refused unread")
  func deviceKeyFile() throws {
    let directory = try Fixtures.temporaryDirectory("special")
    defer { try? FileManager.default.removeItem(at: directory) }
    let input = try SecretCorpus.canaryMSALCache(in: directory).file.path
    let store = directory.appendingPathComponent("s.sqlite").path
    let output = try CLI.run(["migrate", "--msal", input, "--out", store, "--encryption-key-file", "/dev/zero"])
    let violations = CLI.contractViolations(output, expected: ["/dev/zero", "the key file is a character device"])
    #expect(violations.isEmpty, "\(violations.joined(separator: "; "))")
    #expect(!FileManager.default.fileExists(atPath: store))
  }
}
