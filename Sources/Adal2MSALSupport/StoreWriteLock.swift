import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One writing run at a time for a store: held from before a run decides what the store holds (whether it
/// exists, and its contents: read under the lock, or read before it and found unchanged since) until the run
/// has committed or cleaned up, so that a second run plans against what the first committed and never mistakes
/// the first run's new file for its own.
///
/// SQLite's own locks cover one transaction, not a run's read-plan-write, and not the creation of a new
/// file; this lock covers both. It is an advisory `flock` on the store's directory (SQLite never takes that
/// lock, and locking the directory creates no file beside the user's store), so runs writing other stores of
/// the same directory wait for each other too. The lock ends with the process, however it ends.
///
/// A run that creates the store builds it under a temporary name in the same directory and renames it onto the
/// store's path at its commit (`CacheStore.writing`, `NewStoreFile`): the lock is what lets the next run remove
/// such a file that a killed run left, since no live run can be writing one while it holds the lock.
package final class StoreWriteLock: @unchecked Sendable {
  /// The locked directory.
  package let directory: String
  /// Whether the store existed when the lock was taken: if not, this run creates it.
  package private(set) var existed = true
  private var descriptor: Int32
  private var cleanup: InterruptCleanup.Registration?

  /// Takes the lock for the store at `storePath`. When another run holds it, calls `waiting` once (to say so)
  /// and waits up to `timeout` seconds (nil: as long as it takes).
  package init(storePath: String, timeout: TimeInterval? = nil, waiting: () -> Void) throws(StoreWriteLockError) {
    // The directory of the file itself when the path is a link, so that two names of one store share a lock.
    directory = URL(fileURLWithPath: Self.resolved(storePath)).deletingLastPathComponent().path
    descriptor = open(directory, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { throw StoreWriteLockError(directory: directory, problem: .cannotOpen(errno)) }
    if flock(descriptor, LOCK_EX | LOCK_NB) == 0 {
      locked(storePath)
      return
    }
    guard errno == EWOULDBLOCK else { throw failure(.cannotLock(errno)) }
    waiting()
    let deadline = timeout.map { Date().addingTimeInterval($0) }
    // Polled rather than a blocking flock, so that a deadline can end the wait.
    while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
      guard errno == EWOULDBLOCK || errno == EINTR else { throw failure(.cannotLock(errno)) }
      if let deadline, Date() >= deadline { throw failure(.timedOut(timeout ?? 0)) }
      usleep(20_000)
    }
    locked(storePath)
  }

  /// The file a store's path names once links are followed: the path of an existing file with every link
  /// resolved, the file a link to a missing file names (which a run creates there), else `path`. The lock is on
  /// its directory, where a new store is built (`NewStoreFile`).
  package static func resolved(_ path: String) -> String {
    if let pointer = realpath(path, nil) {
      defer { free(pointer) }
      return String(cString: pointer)
    }
    var current = path
    // At most as many links as the kernel follows (Linux's 40).
    for _ in 0..<40 {
      guard let destination = try? FileManager.default.destinationOfSymbolicLink(atPath: current) else { break }
      current =
        destination.hasPrefix("/")
        ? destination
        : ((current as NSString).deletingLastPathComponent as NSString).appendingPathComponent(destination)
    }
    return current
  }

  private func locked(_ storePath: String) {
    existed = FileManager.default.fileExists(atPath: storePath)
    // An existing store is left to SQLite (an interrupted transaction rolls back), and a new store's temporary
    // file is registered by the run that makes it (`NewStoreFile`); registering nothing still gives an
    // interrupted run its status, 128 + the signal.
    InterruptCleanup.runStarted()
    cleanup = InterruptCleanup.register([])
  }

  /// The run committed (or ended).
  package func committed() {
    if let cleanup { InterruptCleanup.release(cleanup) }
    cleanup = nil
  }

  private func failure(_ problem: StoreWriteLockError.Problem) -> StoreWriteLockError {
    close(descriptor)
    descriptor = -1
    return StoreWriteLockError(directory: directory, problem: problem)
  }

  /// Lets the next run in (after the run removed or committed its store).
  package func release() {
    committed()
    guard descriptor >= 0 else { return }
    close(descriptor)
    descriptor = -1
  }

  deinit { release() }
}

/// The store's write lock (on the store's directory, which one writing run at a time holds) cannot be taken.
public struct StoreWriteLockError: Error, LocalizedError, CustomStringConvertible, Sendable, Hashable {
  /// Why the lock cannot be taken.
  public enum Problem: Sendable, Hashable {
    /// The directory cannot be opened (the `errno` of `open`).
    case cannotOpen(Int32)
    /// The lock failed other than by being held (the `errno` of `flock`).
    case cannotLock(Int32)
    /// Another run held the lock for longer than the wait allowed, in seconds.
    case timedOut(TimeInterval)
  }

  /// The store's directory.
  public var directory: String
  public var problem: Problem

  public var description: String {
    switch problem {
    case .cannotOpen(let code):
      "\(directory): cannot open the store's directory to lock it (\(String(cString: strerror(code)))); "
        + "check that it exists and is readable"
    case .cannotLock(let code):
      "\(directory): cannot lock the store's directory (\(String(cString: strerror(code)))); nothing was written"
    case .timedOut(let seconds):
      "\(directory): another adal2msal run kept writing a store here for \(Int(seconds)) s; nothing was written; "
        + "run again when it has finished"
    }
  }

  public var errorDescription: String? { description }
}
