import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What the process is attached to: colour and progress only on a terminal, never with `NO_COLOR`.
enum Terminal {
  static var standardOutputIsTerminal: Bool { isatty(STDOUT_FILENO) == 1 }
  static var standardErrorIsTerminal: Bool { isatty(STDERR_FILENO) == 1 }

  /// Colour on standard output: a terminal, and `NO_COLOR` unset or empty (https://no-color.org).
  static var colorOnStandardOutput: Bool {
    standardOutputIsTerminal && (ProcessInfo.processInfo.environment["NO_COLOR"] ?? "").isEmpty
  }

  static func standardError(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
  }
}
