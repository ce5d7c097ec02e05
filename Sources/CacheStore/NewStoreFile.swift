import Adal2MSALSupport
import Foundation
import GRDB

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension CacheStore {
  /// Opens the store at `path` to write and runs `body` with it, which writes the run's one transaction; the
  /// caller holds the store's write lock, `lock`, until it returns. `opened` is the store when the caller has
  /// already opened it to write.
  ///
  /// A run that creates the store (`wouldCreate`: no file at `path`, or one that holds nothing yet) builds it
  /// under a hidden temporary name in the same directory (`NewStoreFile`) and renames it onto `path` once `body`
  /// has returned: its commit is the rename. A run that fails or is killed before it leaves `path` as it was (no
  /// file, or the file that held nothing, untouched) and, when killed, the temporary file, which the next run
  /// that writes `path` removes. An existing store is written in place (SQLite's transaction).
  package static func writing<T>(
    _ path: String, options: CacheStoreOptions, opened: CacheStore? = nil, lock: StoreWriteLock,
    _ body: (CacheStore) throws -> T
  ) throws -> T {
    try withExtendedLifetime(lock) {
      NewStoreFile.removeStale(of: path)
      if let opened { return try body(opened) }
      guard wouldCreate(path) else { return try body(open(path: path, options: options)) }
      let file = try NewStoreFile(for: path)
      do {
        let store = try open(path: path, file: file.temporary, options: options)
        let result = try body(store)
        try file.publish(store)
        return result
      } catch {
        file.discard()
        throw error
      }
    }
  }
}

/// A new store, built under a hidden temporary name beside its path and renamed onto the path at its commit, so
/// that a run killed before then (SIGKILL, a power cut) leaves no file at the path: `.NAME.adal2msal-new-RANDOM`,
/// created owner-only (0600) with `O_EXCL`, in the directory whose write lock the run holds (`StoreWriteLock`).
///
/// The first run is written there as in any new file (the rollback journal, `FirstRunJournal`). At the commit
/// the connection is closed (SQLite checkpoints the WAL into the file and deletes it), the file is synced, the
/// side files of what the path held before are removed (an SQLite file without tables may have left a `-wal`
/// or `-journal`, which SQLite would otherwise apply to the new store), the file is renamed onto the path and
/// the directory synced. An interrupt (SIGINT, SIGTERM, SIGHUP) before the rename removes the temporary file and
/// its side files (`InterruptCleanup`), one after it says the store was written; a kill leaves them, and the next
/// writing run of that path removes them: it holds the directory's write lock, which every run that makes such a
/// file holds until it has renamed or removed it, so a file of that name there is a dead run's.
struct NewStoreFile {
  /// Between the store's name and the random part of a temporary file's name.
  static let marker = ".adal2msal-new-"

  /// Where the store goes: the path, or the file it names when it is a link (renamed onto, the link would be
  /// replaced by the store).
  let path: String
  /// The file the store is built in.
  let temporary: String
  private let registration: InterruptCleanup.Registration

  /// Creates the temporary file for the store at `path` (mode 0600). What the path holds is checked first, as a
  /// store opened in place is: a file another user owns (or a side file of it) is refused.
  init(for path: String) throws(CacheStoreError) {
    if FileManager.default.fileExists(atPath: path) { try StoreFile.secureExisting(path, tightening: false) }
    let target = Self.resolved(path)
    self.path = target
    let stem = Self.stem(of: target)
    for _ in 0..<64 {
      let suffix = String((0..<12).map { _ in Self.alphabet.randomElement()! })
      let candidate = stem + suffix
      // Registered before it exists: an interrupt from here on removes it, or ends the process before it is made.
      let registration = InterruptCleanup.register(StoreFileMarker.files(of: candidate))
      let descriptor = open(candidate, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
      if descriptor >= 0 {
        close(descriptor)
        temporary = candidate
        self.registration = registration
        return
      }
      let code = errno
      InterruptCleanup.release(registration)
      if code != EEXIST {
        throw CacheStoreError(
          .cannotOpen, "cannot create the store (\(String(cString: strerror(code))))",
          remedy: "check that the directory exists and is writable", at: SourceLocation(file: path))
      }
    }
    throw CacheStoreError(
      .cannotOpen, "cannot create the store (no free temporary name)", at: SourceLocation(file: path))
  }

  private static let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789")

  /// `DIRECTORY/.NAME.adal2msal-new-`: every temporary file of the store at `path` starts so.
  static func stem(of path: String) -> String {
    let directory = (path as NSString).deletingLastPathComponent
    let name = "." + (path as NSString).lastPathComponent + marker
    return directory.isEmpty ? name : (directory as NSString).appendingPathComponent(name)
  }

  /// The directory of `path`, as `open` takes it.
  static func directory(of path: String) -> String {
    let directory = (path as NSString).deletingLastPathComponent
    return directory.isEmpty ? "." : directory
  }

  /// The file `path` names once links are followed (a link to a missing file: the file it names), in the
  /// directory whose write lock the run holds (`StoreWriteLock.resolved`).
  static func resolved(_ path: String) -> String { StoreWriteLock.resolved(path) }

  /// Removes the temporary files (and their side files) that runs killed while creating the store at `path`
  /// left. Only for a caller that holds the store's write lock: then no live run is writing one.
  static func removeStale(of path: String) {
    let stem = stem(of: resolved(path))
    let prefix = (stem as NSString).lastPathComponent
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory(of: stem)) else { return }
    for name in names where name.hasPrefix(prefix) {
      unlink((directory(of: stem) as NSString).appendingPathComponent(name))
    }
  }

  /// Makes the store committed in the temporary file the store at `path`: closes `store` (SQLite checkpoints its
  /// WAL into the file), syncs the file, removes the side files of what the path held, renames the file onto
  /// the path and syncs the directory. A failure before the rename leaves the path as it was.
  func publish(_ store: CacheStore) throws(CacheStoreError) {
    let place = SourceLocation(file: path)
    do {
      try store.queue.close()
    } catch {
      throw CacheStoreError(.database, "cannot close the new store (\(CacheStore.describe(error)))", at: place)
    }
    // With its only connection closed, every commit is in the file; a -wal or -journal left would not follow it.
    for suffix in ["-wal", "-journal"] where FileManager.default.fileExists(atPath: temporary + suffix) {
      throw CacheStoreError(.database, "the new store's \(suffix) file outlived its connection", at: place)
    }
    unlink(temporary + "-shm")
    try Self.sync(temporary, place: place)
    for file in StoreFileMarker.sideFileSuffixes.map({ path + $0 }) { unlink(file) }
    // With interrupts held off: one that comes as the store is renamed knows whether it was.
    let renamed = InterruptCleanup.committing { rename(temporary, path) == 0 ? nil : errno }
    if let code = renamed {
      throw CacheStoreError(
        .cannotOpen, "cannot put the new store in place (\(String(cString: strerror(code))))", at: place)
    }
    InterruptCleanup.release(registration)
    // As SQLite does for its journal (`synchronous = EXTRA`), a directory that cannot be synced is not an error:
    // the store is in place.
    let directory = open(Self.directory(of: path), O_RDONLY | O_CLOEXEC)
    if directory >= 0 {
      _ = fsync(directory)
      close(directory)
    }
  }

  /// Removes the temporary file and its side files: the run failed (its transaction rolled back, or never began).
  func discard() {
    for file in StoreFileMarker.files(of: temporary) { unlink(file) }
    InterruptCleanup.release(registration)
  }

  /// Syncs the file's data and size (SQLite's checkpoint synced its pages already): `fdatasync`, which leaves out
  /// the modification time that `fsync` waited 24 ms for after the 40k-item `migrate`.
  private static func sync(_ file: String, place: SourceLocation) throws(CacheStoreError) {
    let descriptor = open(file, O_RDONLY | O_CLOEXEC)
    #if os(Linux)
      let failed = descriptor < 0 || fdatasync(descriptor) != 0
    #else
      let failed = descriptor < 0 || fsync(descriptor) != 0
    #endif
    let code = errno
    if descriptor >= 0 { close(descriptor) }
    if failed {
      throw CacheStoreError(.database, "cannot sync the new store (\(String(cString: strerror(code))))", at: place)
    }
  }
}
