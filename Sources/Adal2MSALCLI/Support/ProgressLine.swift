import Adal2MSAL
import Foundation

/// A run's progress on one line of standard error (`RunProgress`: the stage, files and bytes read, items
/// planned, rows written), redrawn in place. Only on a terminal, and only once the run has taken
/// `quietPeriod`: a short run prints nothing. Thread-safe: readers on several cores report at once.
final class ProgressLine: @unchecked Sendable {
  /// How long a run goes before its progress is shown.
  static let quietPeriod: TimeInterval = 2
  private let enabled: Bool
  private let started = Date()
  private let lock = NSLock()
  private var shown = false
  private var lastDraw = Date.distantPast

  init(enabled: Bool) { self.enabled = enabled }

  /// The handler to give a run: draws its progress, and says (always, on any standard error) when the run
  /// waits for another one writing a store in the directory of `store`.
  func handler(store: String?) -> RunProgressHandler {
    { progress in
      if progress.stage == .waiting, let store {
        self.clear()
        Terminal.standardError(
          "adal2msal: waiting for another adal2msal run writing a store in the directory of \(store)")
      } else {
        self.draw(progress)
      }
    }
  }

  func draw(_ progress: RunProgress) {
    guard enabled else { return }
    lock.withLock {
      let now = Date()
      // Only after the quiet period, and at most ten redraws a second (a stage's start always draws).
      let elapsed = now.timeIntervalSince(started)
      guard elapsed >= Self.quietPeriod, now.timeIntervalSince(lastDraw) >= 0.1 || progress.done == 0 else { return }
      lastDraw = now
      shown = true
      let line = Self.describe(progress) + " (\(Int(elapsed)) s)"
      FileHandle.standardError.write(Data("\r\u{1B}[2K\(line)".utf8))
    }
  }

  /// Clears the line if it was drawn.
  func clear() {
    guard enabled else { return }
    lock.withLock {
      if shown { FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8)) }
      shown = false
    }
  }

  /// `reading 3/10 files, 120.4/336.0 MB`, `planning 25,000/40,000 items`, `writing 12,345 rows`.
  static func describe(_ progress: RunProgress) -> String {
    switch progress.stage {
    case .waiting: return "waiting for another run"
    case .reading:
      return "reading \(progress.files)/\(progress.totalFiles) files, "
        + "\(megabytes(progress.done))/\(megabytes(progress.total ?? 0)) MB"
    case .planning:
      return "planning \(counted(progress.done))/\(counted(progress.total ?? progress.done)) items"
    case .writing: return "writing \(counted(progress.done)) rows"
    case .reporting: return "writing the report"
    }
  }

  private static func megabytes(_ bytes: Int) -> String { String(format: "%.1f", Double(bytes) / 1_000_000) }

  private static func counted(_ count: Int) -> String {
    let digits = String(count)
    var grouped = ""
    for (offset, digit) in digits.enumerated() {
      if offset > 0, (digits.count - offset) % 3 == 0 { grouped.append(",") }
      grouped.append(digit)
    }
    return grouped
  }
}
