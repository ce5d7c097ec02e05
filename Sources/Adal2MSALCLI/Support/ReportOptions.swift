import Adal2MSAL
import ArgumentParser
import Foundation

/// `--report`, `--report-format`, `--redact-usernames`: where the diff report goes and how it looks.
struct ReportOptions: ParsableArguments {
  @Option(
    help: ArgumentHelp(
      "Write the report to this file (mode 0600) instead of standard output; `-` is standard output.", valueName: "file"
    ))
  var report: String?

  @Option(help: "Report format: text (the default; coloured on a terminal unless NO_COLOR is set), json or markdown.")
  var reportFormat: ReportFormat = .text

  @Flag(help: "Replace usernames and account ids in the report with stable hashes, for reports that leave the team.")
  var redactUsernames = false

  /// Where a run's parts are rendered as they are planned (`ReportSpool`, a temporary file).
  func spool(names: RedactionNames?) -> ReportSpool {
    ReportSpool(format: reportFormat, colorize: colorize, redacting: names)
  }

  /// Writes the report of `spool`'s parts and `rest` to the file (mode 0600, atomically) or to standard output
  /// as it is assembled: a large report is never held whole (a million items make about a gigabyte of text).
  func write(_ spool: inout ReportSpool, rest: MigrationPlan) throws {
    try output { write in try spool.finish(rest, to: write) }
  }

  /// Coloured only for text on a terminal.
  private var colorize: Bool { reportFormat == .text && (report ?? "-") == "-" && Terminal.colorOnStandardOutput }

  /// Hands `produce` the function that writes to the report's file or standard output, through a buffer.
  private func output(_ produce: (_ write: (UnsafeRawBufferPointer) throws -> Void) throws -> Void) throws {
    guard let path = report, path != "-" else {
      return try Self.buffered(produce) { try FileHandle.standardOutput.write(contentsOf: $0) }
    }
    do {
      try StoreCommandSupport.writeOwnerOnly(to: path) { write in try Self.buffered(produce, into: write) }
    } catch {
      throw StoreCommandSupport.fail(
        "cannot write the report (\(error))", file: path, todo: "check that the directory exists and is writable")
    }
  }
}

extension ReportOptions {
  /// The most a write waits for.
  static let bufferSize = 1 << 20

  /// `produce`'s parts gathered into writes of up to `bufferSize` bytes: a user section is a few hundred
  /// bytes, and a write of each was a system call each, and a small report on standard output several writes
  /// where it was one.
  static func buffered(
    _ produce: (_ write: (UnsafeRawBufferPointer) throws -> Void) throws -> Void,
    into write: (UnsafeRawBufferPointer) throws -> Void
  ) throws {
    var pending: [UInt8] = []
    pending.reserveCapacity(bufferSize)
    // `write` is only called during `produce`, never kept.
    try withoutActuallyEscaping(write) { write in
      try produce { part in
        if pending.count + part.count > bufferSize, !pending.isEmpty {
          try pending.withUnsafeBytes(write)
          pending.removeAll(keepingCapacity: true)
        }
        if part.count >= bufferSize { try write(part) } else { pending.append(contentsOf: part) }
      }
      if !pending.isEmpty { try pending.withUnsafeBytes(write) }
    }
  }
}

extension ReportFormat: ExpressibleByArgument {}
