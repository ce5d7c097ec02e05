import ArgumentParser
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Runs one command and prints its wall time and peak RSS (RUSAGE_CHILDREN: this process has no other child)
/// as one JSON line. The benchmarks run each end-to-end `adal2msal` run through one, so peaks do not mix.
/// Hidden from help.
struct MeasureCommandChild: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "measure-command",
    abstract: "Run a command; print its wall time and peak memory as JSON (child of the benchmarks).",
    shouldDisplay: false)

  @Argument(parsing: .captureForPassthrough, help: "The command and its arguments.")
  var command: [String] = []

  struct Output: Codable {
    var seconds: Double
    /// The command's CPU seconds (user + system).
    var cpuSeconds: Double
    var peakMiB: Int
    var status: Int32
  }

  func run() throws {
    let arguments = command.first == "--" ? Array(command.dropFirst()) : command
    guard let executable = arguments.first else { throw ValidationError("give a command to run") }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = Array(arguments.dropFirst())
    process.standardOutput = FileHandle.nullDevice
    let start = ContinuousClock.now
    try process.run()
    process.waitUntilExit()
    let seconds = BenchFormat.toSeconds(ContinuousClock.now - start)
    var usage = rusage()
    #if canImport(Darwin)
      getrusage(RUSAGE_CHILDREN, &usage)
      let peak = Int(usage.ru_maxrss) / (1024 * 1024)
    #else
      getrusage(RUSAGE_CHILDREN.rawValue, &usage)
      let peak = Int(usage.ru_maxrss) / 1024
    #endif
    let output = Output(
      seconds: seconds, cpuSeconds: CPUTime.ofChildren(), peakMiB: peak, status: process.terminationStatus)
    print(String(decoding: try JSONEncoder().encode(output), as: UTF8.self))
  }
}

/// Starting this executable's hidden children and decoding their JSON line.
enum BenchChild {
  /// This executable's path.
  static var executable: String {
    #if os(Linux)
      if let resolved = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") { return resolved }
    #endif
    return URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL.path
  }

  /// The release `adal2msal` next to this executable.
  static var migrateBinary: String {
    URL(fileURLWithPath: executable).deletingLastPathComponent().appendingPathComponent("adal2msal").path
  }

  /// Runs `executable arguments` with `environment` added, and decodes the last line of its standard output.
  static func run<T: Decodable>(_ arguments: [String], environment: [String: String] = [:], as type: T.Type) throws -> T
  {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      throw BenchFailure("\(arguments.first ?? "child") exited with status \(process.terminationStatus)")
    }
    guard let line = String(decoding: data, as: UTF8.self).split(separator: "\n").last else {
      throw BenchFailure("\(arguments.first ?? "child") printed nothing")
    }
    return try JSONDecoder().decode(T.self, from: Data(line.utf8))
  }
}
