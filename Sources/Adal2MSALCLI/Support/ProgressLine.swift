import Adal2MSAL
import Dispatch
import Foundation

/// A run's progress on one line of standard error (`RunProgress`: the stage, files and bytes read, items
/// planned, rows written), redrawn in place with the time the run has taken, also between reports (a single
/// large file reports only when it is read). Only on a terminal, and only once the run has taken
/// `quietPeriod`: a short run prints nothing. Thread-safe: readers on several cores report at once.
final class ProgressLine: @unchecked Sendable {
  /// How long a run goes before its progress is shown.
  static let quietPeriod: TimeInterval = 2
  private let enabled: Bool
  private let started = Date()
  private let lock = NSLock()
  private var latest: RunProgress?
  private var shown = false
  private var lastDraw = Date.distantPast
  private var timer: DispatchSourceTimer?

  init(enabled: Bool) {
    self.enabled = enabled
    guard enabled else { return }
    let timer = DispatchSource.makeTimerSource(queue: .global())
    timer.schedule(deadline: .now() + Self.quietPeriod, repeating: 0.5)
    timer.setEventHandler { [weak self] in self?.redraw(throttled: false) }
    timer.resume()
    self.timer = timer
  }

  deinit { timer?.cancel() }

  /// The handler to give a run: draws its progress, and says (always, on any standard error) when the run
  /// waits for another one writing a store in the directory of `store`.
  func handler(store: String?) -> RunProgressHandler {
    { progress in
      if progress.stage == .waiting, let store {
        self.erase()
        Terminal.standardError(
          "adal2msal: waiting for another adal2msal run writing a store in the directory of \(store)")
      } else {
        self.update(progress)
      }
    }
  }

  func update(_ progress: RunProgress) {
    guard enabled else { return }
    lock.withLock { latest = progress }
    redraw(throttled: true)
  }

  /// Stops redrawing and clears the line: the run is over.
  func finish() {
    timer?.cancel()
    erase()
  }

  /// Draws the latest progress: after the quiet period, and when `throttled` at most ten times a second.
  private func redraw(throttled: Bool) {
    lock.withLock {
      let now = Date()
      let elapsed = now.timeIntervalSince(started)
      guard let latest, elapsed >= Self.quietPeriod, !throttled || now.timeIntervalSince(lastDraw) >= 0.1 else {
        return
      }
      lastDraw = now
      shown = true
      let line = Self.describe(latest) + " (\(Int(elapsed)) s)"
      Terminal.standardError(raw: "\r\u{1B}[2K\(line)")
    }
  }

  /// Clears the line if it was drawn.
  private func erase() {
    guard enabled else { return }
    lock.withLock {
      if shown { Terminal.standardError(raw: "\r\u{1B}[2K") }
      shown = false
    }
  }

  /// `reading 336.0 MB` (one file), `reading 3/10 files, 120.4/336.0 MB`, `planning 25,000 of 40,000 items`, `writing 12,345 of 40,000 rows`.
  static func describe(_ progress: RunProgress) -> String {
    switch progress.stage {
    case .waiting: return "waiting for another run"
    case .reading where progress.totalFiles == 1:
      return "reading \(megabytes(progress.total ?? 0)) MB"
    case .reading:
      return "reading \(progress.files)/\(progress.totalFiles) files, "
        + "\(megabytes(progress.done))/\(megabytes(progress.total ?? 0)) MB"
    case .planning:
      return "planning \(counted(progress.done)) of \(counted(progress.total ?? progress.done)) items"
    case .writing:
      return "writing \(counted(progress.done)) of \(counted(progress.total ?? progress.done)) rows"
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
