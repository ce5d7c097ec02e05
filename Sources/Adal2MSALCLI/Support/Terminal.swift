import Adal2MSAL
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

  /// Writes one line to standard error: the one way messages reach it (the progress bar aside), so that a
  /// name or value from an input with control characters in it is shown escaped (`TerminalText`).
  static func standardError(_ line: String) {
    FileHandle.standardError.write(Data((TerminalText.escaped(line) + "\n").utf8))
  }
}
