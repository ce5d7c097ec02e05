import Adal2MSALSupport
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// File-system details of the store: creating it owner-only, and keeping SQLite's side files owner-only too.
enum StoreFile {
  /// Creates `path` with mode 0600 when it does not exist (O_CREAT|O_EXCL, so a file another process created
  /// in the meantime is left alone). An existing file is never touched: its mode is neither widened nor narrowed.
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

  /// The permission bits of a file, for tests and diagnostics.
  static func mode(of path: String) -> UInt16? {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    return UInt16(info.st_mode & 0o7777)
  }
}
