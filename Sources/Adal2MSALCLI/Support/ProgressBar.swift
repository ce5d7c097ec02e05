import Foundation

/// A progress bar on standard error for work that takes more than a second; silent when standard error is
/// not a terminal. Thread-safe: readers on several cores call `advance`.
final class ProgressBar: @unchecked Sendable {
  private let total: Int
  private let label: String
  private let enabled: Bool
  private let started = Date()
  private let lock = NSLock()
  private var done = 0
  private var shown = false
  private var lastDraw = Date.distantPast

  init(label: String, total: Int, enabled: Bool = Terminal.standardErrorIsTerminal) {
    self.label = label
    self.total = max(total, 1)
    self.enabled = enabled
  }

  func advance(by count: Int = 1) {
    guard enabled else { return }
    lock.lock()
    defer { lock.unlock() }
    done += count
    let now = Date()
    // Only after a second, and at most ten redraws a second.
    guard now.timeIntervalSince(started) >= 1, now.timeIntervalSince(lastDraw) >= 0.1 else { return }
    lastDraw = now
    shown = true
    let fraction = min(Double(done) / Double(total), 1)
    let width = 30
    let filled = Int(fraction * Double(width))
    let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
    FileHandle.standardError.write(Data("\r\(label) [\(bar)] \(done)/\(total)".utf8))
  }

  /// Clears the bar's line if it was drawn.
  func finish() {
    guard enabled else { return }
    lock.lock()
    defer { lock.unlock() }
    if shown { FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8)) }
  }
}
