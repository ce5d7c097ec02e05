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
    for file in StoreFileMarker.files(of: path) {
      guard let status = OwnerOnlyFile.status(file) else { continue }
      guard status.isOwnedByCurrentUser else {
        throw CacheStoreError(
          .cannotOpen,
          "\(file) is owned by user \(status.owner), not by the user running adal2msal: "
            + "that user could read every token written to it; nothing was written",
          remedy: "move the file away and give a new path (or run as its owner)", at: SourceLocation(file: path))
      }
      if tightening, status.isOpenToOthers, !OwnerOnlyFile.tighten(file) {
        throw CacheStoreError(
          .cannotOpen,
          "\(file) is \(status.modeDescription), and it cannot be made owner-only "
            + "(\(String(cString: strerror(errno)))); nothing was written",
          remedy: "run chmod 600 on it, or give a new path", at: SourceLocation(file: path))
      }
    }
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

extension CacheStore {
  /// Runs `body` (which opens or creates the store at `path` and writes to it) and, when it fails, leaves the
  /// path as it was: a file that did not exist before (`existed == false`) is removed with its side files, and
  /// an existing file that held no store yet (empty, as `mktemp` leaves it, or an SQLite file without tables)
  /// gets its bytes and mode back, the side files the run made removed, since the schema a run writes before it
  /// plans would otherwise outlive a run that wrote nothing. A store is never touched: its transaction rolled
  /// back. A process killed during `body` leaves the new file behind: the runs of `migrate` and `import` use
  /// `writing` instead, which builds a new store under a temporary name and renames it onto the path at the
  /// commit.
  public static func removingNewFileOnFailure<T>(_ path: String, existed: Bool, _ body: () throws -> T) throws -> T {
    let heldNothing = existed ? HeldNothing(path) : nil
    do {
      return try body()
    } catch {
      if !existed {
        for file in StoreFileMarker.files(of: path) { unlink(file) }
      } else {
        heldNothing?.restore()
      }
      throw error
    }
  }
}

/// An existing file at a store's path that holds no store yet: its bytes, its mode and which side files were
/// there, to put back when the run that would have made it a store fails.
private struct HeldNothing {
  /// An SQLite file without tables is a page or two; a larger one is no file a run would make a store of.
  static let largestKept = 1 << 20

  let path: String
  let bytes: Data
  let mode: mode_t
  let sideFiles: Set<String>

  init?(_ path: String) {
    var info = stat()
    guard stat(path, &info) == 0, info.st_size <= Self.largestKept, CacheStore.wouldCreate(path),
      let bytes = FileManager.default.contents(atPath: path)
    else { return nil }
    self.path = path
    self.bytes = bytes
    mode = info.st_mode & 0o7777
    sideFiles = Set(
      StoreFileMarker.sideFileSuffixes.map { path + $0 }.filter { FileManager.default.fileExists(atPath: $0) })
  }

  func restore() {
    for file in StoreFileMarker.sideFileSuffixes.map({ path + $0 }) where !sideFiles.contains(file) { unlink(file) }
    let descriptor = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC)
    guard descriptor >= 0 else { return }
    defer { close(descriptor) }
    _ = bytes.withUnsafeBytes { DescriptorWrite.all($0, to: descriptor) }
    fchmod(descriptor, mode)
  }
}
