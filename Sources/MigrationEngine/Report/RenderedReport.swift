import Adal2MSALSupport
import Dispatch
import Foundation

/// The formats a report renders to.
public enum ReportFormat: String, Sendable, Hashable, CaseIterable {
  /// Plain text for a terminal, aligned columns (`MigrationReport.text(colorize:)`).
  case text
  /// JSON (docs/report-schema.json).
  case json
  /// GitHub-flavoured Markdown.
  case markdown
}

extension MigrationReport {
  /// Writes the report in `format` as it is made: `output` gets its UTF-8 bytes, part by part, in order, and
  /// a part's bytes are only lent for the call. The user sections are made on all cores a batch at a time,
  /// so a large report is never held whole: a million items make about a gigabyte of text. `colorize`
  /// applies to text only.
  public func write(
    _ format: ReportFormat, colorize: Bool = false, to output: (UnsafeRawBufferPointer) throws -> Void
  ) rethrows {
    try write(format, colorize: colorize, usersPerBatch: Self.usersPerBatch, to: output)
  }

  /// `write` with another batch size (tests check that it never changes a byte).
  func write(
    _ format: ReportFormat, colorize: Bool = false, usersPerBatch: Int,
    to output: (UnsafeRawBufferPointer) throws -> Void
  ) rethrows {
    try write(
      format, colorize: colorize, userCount: users.count, usersPerBatch: usersPerBatch,
      userPiece: { [self] in piece(ofUser: $0, format, colorize: colorize) }, to: output)
  }

  /// `write` of a report whose `userCount` user sections `userPiece` renders (`SectionedReport`): the report's
  /// own `users` are not read.
  func write(
    _ format: ReportFormat, colorize: Bool, userCount: Int, usersPerBatch: Int,
    userPiece: @escaping @Sendable (Int) -> ReportPiece, to output: (UnsafeRawBufferPointer) throws -> Void
  ) rethrows {
    var assembler = ReportAssembler(format: format, colorize: colorize)
    try assembler.opening(self, to: output)
    // Each section's lines for "Skipped and conflicts" are kept for the end; the sections are written out.
    var attention: [[UInt8]] = []
    var attentionCount = 0
    try UserBatches(size: usersPerBatch).forEach(userCount, userPiece) {
      pieces in
      for piece in pieces {
        try assembler.section(piece.body, to: output)
        if !piece.attention.isEmpty { attention.append(piece.attention) }
        attentionCount += piece.attentionCount
      }
    }
    try assembler.beginOthers(count: otherEntries.count, to: output)
    for index in otherEntries.indices {
      let piece = piece(ofOther: index, format, colorize: colorize)
      try assembler.other(piece.body, to: output)
      if !piece.attention.isEmpty { attention.append(piece.attention) }
      attentionCount += piece.attentionCount
    }
    try assembler.beginAttention(count: attentionCount, to: output)
    for lines in attention { try assembler.attention(lines, to: output) }
    try assembler.end(diagnostics: diagnostics, to: output)
  }

  /// The report in `format`, held in the parts it was written in (for output that must wait, such as a
  /// report on standard output printed after the store is written).
  public func rendered(_ format: ReportFormat, colorize: Bool = false) -> RenderedReport {
    var parts: [[UInt8]] = []
    write(format, colorize: colorize) { parts.append(Array($0)) }
    return RenderedReport(parts)
  }

  /// Users per batch when a report is written as it is made: one chunk of `orderedParallelMap`'s smallest size
  /// (`parallelMapMinimumChunk`) for each core, so that every core renders, and few enough that a batch's text
  /// (about 2 MB for 512 of the benchmark's users) is a small part of any report. Two batches are held at once,
  /// one written while the next is made: with 4,096 users a batch, a 10k-item run on two cores held its whole
  /// report's text at once and peaked 7 MiB higher, for no time the report's benchmark shows (docs/benchmarks.md,
  /// "Memory").
  static let usersPerBatch = parallelMapMinimumChunk * max(2, activeCores)
}

/// How a report's user sections are made: on all cores, a batch at a time.
struct UserBatches {
  let size: Int

  /// `transform` of each index below `count`, on all cores a batch at a time, each batch's results handed to
  /// `body` in order (and let go after it). The next batch is made while `body` takes one: `body` writes the
  /// text out, on one core, and the other core waited for it at every batch.
  func forEach<Result: Sendable>(
    _ count: Int, _ transform: @escaping @Sendable (Int) -> Result, _ body: ([Result]) throws -> Void
  ) rethrows {
    let size = max(1, size)
    let batch = { @Sendable (start: Int) in Array(start..<min(count, start + size)).orderedParallelMap(transform) }
    var next = count > 0 ? BackgroundValue { batch(0) } : nil
    // A batch still being made when `body` throws is waited for, so that no work outlives the call.
    defer { _ = next?.value }
    var start = 0
    while let made = next {
      let results = made.value
      start += size
      next = start < count ? BackgroundValue { [start] in batch(start) } : nil
      try body(results)
    }
  }
}

/// A report held as the UTF-8 parts it was written in (`MigrationReport.rendered(_:colorize:)`), written
/// out without joining them.
public struct RenderedReport: Sendable {
  private let parts: [[UInt8]]
  /// The length of the text in UTF-8 bytes.
  public let byteCount: Int

  init(_ parts: [[UInt8]]) {
    self.parts = parts
    byteCount = parts.reduce(0) { $0 + $1.count }
  }

  /// Calls `body` with the text's UTF-8 bytes, part by part, in order.
  public func forEachChunk(_ body: (UnsafeRawBufferPointer) throws -> Void) rethrows {
    for part in parts { try part.withUnsafeBytes(body) }
  }

  /// The whole text. The parts are copied into it on all cores: at 100 MB the copy, and the page faults of the
  /// new buffer, were a fifth of the text report's serial time.
  public var text: String {
    let offsets = parts.reduce(into: [0]) { $0.append($0[$0.count - 1] + $1.count) }
    let groupCount = min(parts.count, activeCores * 4)
    let parts = self.parts
    return String(unsafeUninitializedCapacity: byteCount) { buffer in
      // Each group writes its own parts' bytes only.
      nonisolated(unsafe) let target = buffer
      DispatchQueue.concurrentPerform(iterations: max(1, groupCount)) { group in
        var index = group
        while index < parts.count {
          parts[index].withUnsafeBufferPointer { part in
            _ = UnsafeMutableBufferPointer(rebasing: target[offsets[index]...]).initialize(fromContentsOf: part)
          }
          index += groupCount
        }
      }
      return byteCount
    }
  }
}
