import Foundation
import _Adal2MSALTestSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Ways to make a write or a read fail from outside the tool, for FaultTests.
enum Faults {
  /// A JSON unified cache with `count` access tokens (about 400 bytes each), built with Foundation.
  static func largeMSALCache(count: Int, in directory: URL) throws -> URL {
    var accessTokens: [String: Any] = [:]
    for index in 0..<count {
      let key = "uid.utid-login.microsoftonline.com-accesstoken-client-utid-scope\(index)"
      accessTokens[key] = [
        "home_account_id": "uid.utid", "environment": "login.microsoftonline.com",
        "credential_type": "AccessToken", "client_id": "client", "realm": "utid",
        "target": "scope\(index)", "cached_at": "1700000000",
        "expires_on": "1900000000", "extended_expires_on": "1900000000",
        "secret": String(repeating: "x", count: 200) + "\(index)",
      ]
    }
    let file = directory.appendingPathComponent("large-\(count).json")
    try JSONSerialization.data(withJSONObject: ["AccessToken": accessTokens], options: [.sortedKeys]).write(to: file)
    return file
  }

  /// Makes `directory` refuse new files, even for root (an immutable directory on Linux when running as root,
  /// mode 0555 otherwise). Returns the undo, or nil when neither works here.
  static func makeReadOnly(_ directory: URL) -> (() -> Void)? {
    if geteuid() == 0 {
      let done = try? ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/chattr"), arguments: ["+i", directory.path])
      guard done?.exitCode == 0 else { return nil }
      return { _ = try? ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/chattr"), arguments: ["-i", directory.path]) }
    }
    guard chmod(directory.path, 0o555) == 0 else { return nil }
    return { _ = chmod(directory.path, 0o755) }
  }

  /// A second process (the sqlite3 shell) holding an exclusive SQLite write transaction on `database` until
  /// `release()`: it reads its commands from a pipe that stays open.
  final class WriteLock {
    private let process = Process()
    private let input = Pipe()

    init(database: String) throws {
      process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
      process.arguments = [database]
      let output = Pipe()
      process.standardInput = input
      process.standardOutput = output
      try process.run()
      input.fileHandleForWriting.write(Data("BEGIN EXCLUSIVE;\nSELECT 'locked';\n".utf8))
      // Wait until the lock is held (its answer on standard output), at most 20 s.
      let deadline = Date().addingTimeInterval(20)
      var received = Data()
      while !received.contains(UInt8(ascii: "\n")), Date() < deadline, process.isRunning {
        received += output.fileHandleForReading.availableData
      }
      guard String(decoding: received, as: UTF8.self).hasPrefix("locked") else {
        release()
        throw CocoaError(.fileLocking)
      }
    }

    /// Ends the shell's input: it rolls the transaction back and exits.
    func release() {
      try? input.fileHandleForWriting.close()
      if process.isRunning { process.waitUntilExit() }
    }

    deinit { release() }
  }
}
