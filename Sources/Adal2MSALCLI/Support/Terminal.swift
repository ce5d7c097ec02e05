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

  /// Opens /dev/null, read-only, in place of a standard stream that was closed (`>&-`), before any other file is
  /// opened. Otherwise the first file opened took its number, and what was meant for standard output or error
  /// went into it (the runtime's own event descriptors among them). Read-only, a write to it still fails and is
  /// reported, as a write to a closed stream was.
  static func reserveClosedStreams() {
    for descriptor in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] where fcntl(descriptor, F_GETFD) == -1 {
      let opened = open("/dev/null", O_RDONLY)
      if opened >= 0, opened != descriptor {
        _ = dup2(opened, descriptor)
        _ = close(opened)
      }
    }
  }

  /// Writes one line to standard error: the one way messages reach it (the progress bar aside), so that a
  /// name or value from an input with control characters in it is shown escaped (`TerminalText`). A line
  /// break in it is escaped too: a file named `a\nadal2msal: wrote run 1` in a fleet is one line, never two.
  static func standardError(_ line: String) {
    standardError(raw: TerminalText.escaped(line, keepingNewlines: false) + "\n")
  }

  /// Writes `text` to standard error as it is (the progress bar's control sequences). A failure is ignored:
  /// there is nowhere left to report it, and the run's exit status still tells.
  static func standardError(raw text: String) {
    var text = text
    _ = text.withUTF8 { DescriptorWrite.all(UnsafeRawBufferPointer($0), to: STDERR_FILENO) }
  }

  /// Makes a reader that stops taking standard output or error (`| head`) a failed write (EPIPE) rather than the
  /// end of the process (SIGPIPE, status 141 and no word): for runs that write a store, where it would come after
  /// the commit. Standard output then gives the error that names what the store holds (`run 3 was written to
  /// cache.sqlite, but cannot write the report to standard output (Broken pipe)`, status 2), and standard error
  /// is ignored, as a full one is. Read-only commands keep SIGPIPE, as Unix tools do: they stop quietly.
  static func reportClosedPipes() {
    signal(SIGPIPE, SIG_IGN)
  }

  /// Writes `bytes` to standard output, the one way output reaches it; `what` names the output in the error
  /// ("the report"). A closed pipe ends a read-only command with SIGPIPE, as it does any command-line tool
  /// (`reportClosedPipes`).
  static func standardOutput(_ bytes: UnsafeRawBufferPointer, what: String) throws(StandardOutputError) {
    if let code = DescriptorWrite.all(bytes, to: STDOUT_FILENO) { throw StandardOutputError(what: what, code: code) }
  }

  static func standardOutput(_ text: String, what: String) throws(StandardOutputError) {
    var text = text
    let failure = text.withUTF8 { DescriptorWrite.all(UnsafeRawBufferPointer($0), to: STDOUT_FILENO) }
    if let code = failure { throw StandardOutputError(what: what, code: code) }
  }

  static func standardOutput(_ data: Data, what: String) throws(StandardOutputError) {
    let failure = data.withUnsafeBytes { DescriptorWrite.all($0, to: STDOUT_FILENO) }
    if let code = failure { throw StandardOutputError(what: what, code: code) }
  }
}

/// Standard output could not be written (a full disk, a closed file): what was being written and why.
struct StandardOutputError: Error, LocalizedError, CustomStringConvertible {
  var what: String
  var code: Int32
  var description: String { "cannot write \(what) to standard output (\(String(cString: strerror(code))))" }
  var errorDescription: String? { description }
}
