import Dispatch
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Files that must not outlive an interrupted run: a temporary export or report (every token in clear), a new
/// store that never committed (its schema and a WAL full of tokens), Azure CLI's lock file.
///
/// A path registered here is removed when SIGINT, SIGTERM or SIGHUP (a closed terminal or SSH session) arrives,
/// and the process then exits with 130, 143 or 129 (128 + the signal, as a shell reports it): nothing was written.
/// Once a run's store has committed (`committing`) that is no longer true: an interrupt removes the files as
/// before, says what the store holds and what the run did not write, `adal2msal: error: run 3 was written to
/// cache.sqlite, but stopped by SIGTERM before Azure CLI's files`, and exits with 2, the status of an output after
/// the store that failed. The signals are taken with `DispatchSource` on a queue of their own, so removal is ordinary code
/// rather than an async-signal handler, and it runs while the main thread is busy writing. Only the run that
/// created a file registers it.
package enum InterruptCleanup {
  /// The signals handled: each ends the process as described above.
  package static let signals = [SIGINT, SIGTERM, SIGHUP]

  /// A registration, to end with `release` once the file is renamed into place, committed or removed.
  package struct Registration: Sendable, Hashable {
    fileprivate let id: Int
  }

  /// Removes `paths` if the process is interrupted before `release`. Installs the signal handlers on first
  /// use (from then on SIGINT, SIGTERM and SIGHUP always end the process through them).
  package static func register(_ paths: [String]) -> Registration {
    state.withLock { state in
      state.installIfNeeded()
      return state.add(paths)
    }
  }

  /// Runs `create`, which makes the file at `path` unless one is there, and registers the file if it made it:
  /// no interrupt comes between, so one never removes a file of that name that another process made.
  package static func register(_ path: String, creating create: () -> Bool) -> Registration? {
    state.withLock { state in
      state.installIfNeeded()
      return create() ? state.add([path]) : nil
    }
  }

  /// Forgets a registration: its files are the caller's to keep (or already gone).
  package static func release(_ registration: Registration) {
    _ = state.withLock { $0.paths.removeValue(forKey: registration.id) }
  }

  /// A writing run begins (`StoreWriteLock`): nothing of it is written yet, whatever an earlier run of the
  /// process committed.
  package static func runStarted() {
    state.withLock { $0.run = Run() }
  }

  /// What the run's store will hold once it commits ("run 3 was written to cache.sqlite"), for an interrupt after
  /// the commit to say (`committing`).
  package static func willCommit(_ written: String) {
    state.withLock { $0.run.written = written }
  }

  /// What the run has still to write once its store has committed ("Azure CLI's files"; nil: nothing but its
  /// end), for an interrupt after the commit to name: set before the commit, and as the run goes on.
  package static func remaining(_ what: String?) {
    state.withLock { $0.run.remaining = what }
  }

  /// Runs `commit`, which makes the store hold the run (SQLite's commit of a store written in place, the rename
  /// of a new one), with interrupts held off: one that comes meanwhile is handled once it has returned, and
  /// knows whether the store was written. Only a run whose files are registered (a writing run holds a
  /// `StoreWriteLock`) is so told.
  package static func committing<T>(_ commit: () throws -> T) rethrows -> T {
    try state.withLock { state in
      let result = try commit()
      if !state.sources.isEmpty { state.run.committed = true }
      return result
    }
  }

  /// What a run says when a signal stops it once its store has committed.
  package struct Run: Sendable, Hashable {
    /// What the store holds, once committed ("run 3 was written to cache.sqlite").
    package var written: String?
    /// What the run has still to write (nil: nothing but its end).
    package var remaining: String?
    /// Whether the store has committed.
    package var committed = false

    package init(written: String? = nil, remaining: String? = nil, committed: Bool = false) {
      self.written = written
      self.remaining = remaining
      self.committed = committed
    }

    /// `adal2msal: error: run 3 was written to cache.sqlite, but stopped by SIGTERM before the report`, and
    /// status 2, once the store has committed; before, nothing (the status is 128 + the signal).
    package func interrupted(by signalNumber: Int32) -> (message: String?, status: Int32) {
      guard committed else { return (nil, 128 + signalNumber) }
      let before = remaining.map { "before \($0)" } ?? "before the run ended"
      let message =
        "adal2msal: error: \(written ?? "the store was written"), but stopped by "
        + "\(InterruptCleanup.name(of: signalNumber)) \(before)"
      return (message, 2)
    }
  }

  /// `SIGTERM`, as a shell's `kill -l` names it.
  package static func name(of signalNumber: Int32) -> String {
    switch signalNumber {
    case SIGINT: "SIGINT"
    case SIGTERM: "SIGTERM"
    case SIGHUP: "SIGHUP"
    default: "signal \(signalNumber)"
    }
  }

  private struct State: @unchecked Sendable {
    var paths: [Int: [String]] = [:]
    var next = 0
    var sources: [any DispatchSourceSignal] = []
    var run = Run()

    mutating func add(_ paths: [String]) -> Registration {
      next += 1
      self.paths[next] = paths
      return Registration(id: next)
    }

    mutating func installIfNeeded() {
      guard sources.isEmpty else { return }
      for signalNumber in InterruptCleanup.signals {
        // The default action would end the process before the handler runs.
        signal(signalNumber, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: InterruptCleanup.queue)
        source.setEventHandler { InterruptCleanup.interrupted(by: signalNumber) }
        source.resume()
        sources.append(source)
      }
    }
  }

  private static let queue = DispatchQueue(label: "adal2msal.interrupt-cleanup")
  private static let state = Locked(State())

  private static func interrupted(by signalNumber: Int32) {
    // The lock is kept until the process ends: no new registration (a file about to be created) slips past.
    state.lockForever { state in
      for path in state.paths.values.joined() { unlink(path) }
      let (message, status) = state.run.interrupted(by: signalNumber)
      if let message {
        // A standard error that cannot be written (a closed pipe) is ignored, as everywhere: SIGPIPE would end the
        // process with a status of its own.
        signal(SIGPIPE, SIG_IGN)
        var line = TerminalText.escaped(message, keepingNewlines: false) + "\n"
        _ = line.withUTF8 { DescriptorWrite.all(UnsafeRawBufferPointer($0), to: STDERR_FILENO) }
      }
      _exit(status)
    }
  }
}

/// A value behind a lock: Foundation's `NSLock`, which `lockForever` can keep taken (`Mutex` gives its lock back
/// when `withLock` returns).
final class Locked<Value>: @unchecked Sendable {
  private var value: Value
  private let lock = NSLock()

  init(_ value: Value) { self.value = value }

  func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
    lock.lock()
    defer { lock.unlock() }
    return try body(&value)
  }

  /// Takes the lock and never gives it back: for the last thing a process does.
  func lockForever(_ body: (inout Value) -> Void) {
    lock.lock()
    body(&value)
  }
}
