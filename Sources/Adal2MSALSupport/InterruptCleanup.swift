import Dispatch
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Files that must not outlive an interrupted run: a temporary export or report (every token in clear), a new
/// store that never committed (its schema and a WAL full of tokens).
///
/// A path registered here is removed when SIGINT or SIGTERM arrives, and the process then exits with 130 or
/// 143 (128 + the signal, as a shell reports it). The signals are taken with `DispatchSource` on a queue of
/// their own, so removal is ordinary code rather than an async-signal handler, and it runs while the main
/// thread is busy writing. Only the run that created a file registers it.
package enum InterruptCleanup {
  /// A registration, to end with `release` once the file is renamed into place, committed or removed.
  package struct Registration: Sendable, Hashable {
    fileprivate let id: Int
  }

  /// Removes `paths` if the process is interrupted before `release`. Installs the signal handlers on first
  /// use (from then on SIGINT and SIGTERM always end the process through them).
  package static func register(_ paths: [String]) -> Registration {
    state.withLock { state in
      state.installIfNeeded()
      state.next += 1
      state.paths[state.next] = paths
      return Registration(id: state.next)
    }
  }

  /// Forgets a registration: its files are the caller's to keep (or already gone).
  package static func release(_ registration: Registration) {
    _ = state.withLock { $0.paths.removeValue(forKey: registration.id) }
  }

  private struct State: @unchecked Sendable {
    var paths: [Int: [String]] = [:]
    var next = 0
    var sources: [any DispatchSourceSignal] = []

    mutating func installIfNeeded() {
      guard sources.isEmpty else { return }
      for signalNumber in [SIGINT, SIGTERM] {
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
    }
    _exit(128 + signalNumber)
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
