import Adal2MSALSupport
import Foundation
import GRDB

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// File-system details of the store: creating it owner-only, and keeping SQLite's side files owner-only too.
enum StoreFile {
  /// Creates `path` with mode 0600 when it does not exist (O_CREAT|O_EXCL, so a file another process created
  /// in the meantime is left alone). An existing file is not touched here (see `secureExisting`).
  /// Returns whether this call created the file.
  @discardableResult
  static func createOwnerOnly(_ path: String) throws(CacheStoreError) -> Bool {
    let descriptor = open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
    if descriptor >= 0 {
      close(descriptor)
      return true
    }
    let code = errno
    if code == EEXIST { return false }
    throw CacheStoreError(
      .cannotOpen, "cannot create the store (\(String(cString: strerror(code))))",
      remedy: "check that the directory exists and is writable",
      at: SourceLocation(file: path))
  }

  /// Makes an existing store that is about to be written, and its side files, owner-only: a file owned by
  /// another user is refused (they could read every token written to it, and chmod is not ours to do), a
  /// store that is not a regular file is refused, and group or other permissions are removed (mode 0600) unless
  /// `tightening` is false (a file that holds no store yet, which a new store replaces: `NewStoreFile`).
  static func secureExisting(_ path: String, tightening: Bool = true) throws(CacheStoreError) {
    if let kind = OwnerOnlyFile.nonRegularKind(path) {
      throw CacheStoreError(
        .cannotOpen, "the store is \(kind), not a regular file",
        remedy: "give the path of a new file or of a store written by migrate or import", at: SourceLocation(file: path)
      )
    }
    try refuseForeignOwned(path)
    for file in StoreFileMarker.files(of: path) {
      guard let status = OwnerOnlyFile.status(file) else { continue }
      if tightening, status.isOpenToOthers, !OwnerOnlyFile.tighten(file) {
        throw CacheStoreError(
          .cannotOpen,
          "\(file) is \(status.modeDescription), and it cannot be made owner-only "
            + "(\(String(cString: strerror(errno)))); nothing was written",
          remedy: "run chmod 600 on it, or give a new path", at: SourceLocation(file: path))
      }
    }
  }

  /// The first of the store's files (the database, `-wal`, `-shm`, `-journal`) that another user owns, with its
  /// owner, or nil. Asked before SQLite opens the store at all, to read it too: SQLite running as root gives a
  /// journal file the database's owner (`fchown`), so a `-wal` another user created and holds open would be made
  /// root's and then written with tokens that user still reads through its descriptor.
  static func foreignOwned(_ path: String) -> (file: String, owner: UInt32)? {
    for file in StoreFileMarker.files(of: path) {
      if let status = OwnerOnlyFile.status(file), !status.isOwnedByCurrentUser { return (file, status.owner) }
    }
    return nil
  }

  /// Refuses a store of which another user owns a file (`foreignOwned`): that user could read every token written
  /// to it.
  static func refuseForeignOwned(_ path: String) throws(CacheStoreError) {
    guard let (file, owner) = foreignOwned(path) else { return }
    throw CacheStoreError(
      .cannotOpen,
      "\(file) is owned by user \(owner), not by the user running adal2msal: "
        + "that user could read every token written to it; nothing was written",
      remedy: "move the file away and give a new path (or run as its owner)", at: SourceLocation(file: path))
  }

  /// Runs `body` with the process umask set to 077, so that the -wal and -shm files SQLite creates are
  /// owner-only whatever the caller's umask. (SQLite also gives them the database file's mode.) The umask is
  /// process-wide: a lock keeps two stores opening on different threads from restoring each other's value.
  static func withOwnerOnlyUmask<T>(_ body: () throws -> T) rethrows -> T {
    umaskLock.lock()
    defer { umaskLock.unlock() }
    let previous = umask(0o077)
    defer { umask(previous) }
    return try body()
  }

  private static let umaskLock = NSLock()

  /// What a read-only open passes to SQLite. A read-only connection to a WAL database creates the `-wal` and
  /// `-shm` files when they are missing; when no other connection has the file open (no `-wal` exists, every
  /// commit is in the main file), the store is opened `immutable` instead, so a dry run leaves the directory
  /// exactly as it was. (A writer that starts and checkpoints during that read could give the reader an error,
  /// never a change to the file.) A `-journal` is a first run being written or one that was killed
  /// (`FirstRunJournal`): its pages are in the main file before its commit, so SQLite's locks and journal are
  /// needed to read the file.
  static func readOnlyURI(_ path: String) -> String {
    let manager = FileManager.default
    guard !manager.fileExists(atPath: path + "-wal"), !manager.fileExists(atPath: path + "-journal") else {
      return path
    }
    let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
    var allowed = CharacterSet.urlPathAllowed
    allowed.remove(charactersIn: "?#%")
    let encoded = absolute.addingPercentEncoding(withAllowedCharacters: allowed) ?? absolute
    return "file:\(encoded)?immutable=1"
  }

  /// The directory of the store at `path` (links followed) when SQLite's `error`, opening the store to write, comes
  /// from that directory not being writable: SQLite creates the `-wal` and `-shm` files (a first run's `-journal`)
  /// beside the store, and says only "attempt to write a readonly database" or "unable to open database file".
  static func unwritableDirectory(of path: String, after error: any Error) -> String? {
    guard let error = error as? DatabaseError,
      error.resultCode == .SQLITE_READONLY || error.resultCode == .SQLITE_CANTOPEN
    else { return nil }
    let directory = NewStoreFile.directory(of: StoreWriteLock.resolved(path))
    return access(directory, W_OK) == 0 ? nil : directory
  }

  /// Whether `path` is an empty file (one just created, that SQLite has not written yet).
  static func isEmpty(_ path: String) -> Bool {
    var info = stat()
    return stat(path, &info) == 0 && info.st_size == 0
  }

  /// The permission bits of a file, for tests and diagnostics.
  static func mode(of path: String) -> UInt16? {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    return UInt16(info.st_mode & 0o7777)
  }
}
