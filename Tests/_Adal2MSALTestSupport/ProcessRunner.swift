import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Runs a program to completion and captures what it printed: for tests that call the built CLI or an
/// external oracle (the MSAL Python checker).
public enum ProcessRunner {
  /// What a finished process left behind.
  public struct Output: Sendable, Hashable {
    public var exitCode: Int32
    public var stdout: String
    public var stderr: String
    /// The process ended on a signal (a crash, or the kill after `timeout`); `exitCode` is then the signal.
    public var terminatedBySignal = false
    /// The process was still running after `timeout` seconds and was killed.
    public var timedOut = false
  }

  /// A failure to start the program at all (missing executable, permissions).
  public struct LaunchError: Error, CustomStringConvertible {
    public var executable: String
    public var reason: String
    public var description: String { "cannot run \(executable): \(reason)" }
  }

  /// Runs `executable` with `arguments`, feeding `stdin` (if any) and waiting for it to exit. Output is read
  /// concurrently so that a chatty child cannot block on a full pipe. With a `timeout`, a process still
  /// running after that many seconds is killed (SIGKILL) and reported as `timedOut`.
  public static func run(
    _ executable: URL, arguments: [String] = [], stdin: Data? = nil, environment: [String: String]? = nil,
    currentDirectory: URL? = nil, timeout: TimeInterval? = nil
  ) throws -> Output {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    if let environment { process.environment = environment }
    if let currentDirectory { process.currentDirectoryURL = currentDirectory }
    let outPipe = Pipe()
    let errPipe = Pipe()
    let inPipe = Pipe()
    process.standardOutput = outPipe
    process.standardError = errPipe
    process.standardInput = inPipe
    do {
      try process.run()
    } catch {
      throw LaunchError(executable: executable.path, reason: "\(error)")
    }
    let collected = Collected()
    let group = DispatchGroup()
    for (pipe, isError) in [(outPipe, false), (errPipe, true)] {
      group.enter()
      DispatchQueue.global().async {
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        collected.store(data, isError: isError)
        group.leave()
      }
    }
    let killer = timeout.map { seconds in
      let item = DispatchWorkItem {
        guard process.isRunning else { return }
        collected.markTimedOut()
        kill(process.processIdentifier, SIGKILL)
      }
      DispatchQueue.global().asyncAfter(deadline: .now() + seconds, execute: item)
      return item
    }
    if let stdin { inPipe.fileHandleForWriting.write(stdin) }
    try? inPipe.fileHandleForWriting.close()
    process.waitUntilExit()
    killer?.cancel()
    group.wait()
    var output = Output(
      exitCode: process.terminationStatus, stdout: String(decoding: collected.out, as: UTF8.self),
      stderr: String(decoding: collected.err, as: UTF8.self))
    output.terminatedBySignal = process.terminationReason == .uncaughtSignal
    output.timedOut = collected.timedOut
    return output
  }

  private final class Collected: @unchecked Sendable {
    private let lock = NSLock()
    private(set) var out = Data()
    private(set) var err = Data()
    private(set) var timedOut = false

    func markTimedOut() {
      lock.lock()
      defer { lock.unlock() }
      timedOut = true
    }

    func store(_ data: Data, isError: Bool) {
      lock.lock()
      defer { lock.unlock() }
      if isError { err = data } else { out = data }
    }
  }
}
