import Foundation
import GRDB
import UnifiedCache

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A store's contents, read by a read-only connection before the reader takes the store's write lock, with what
/// tells it later, under the lock, whether they are still what the file holds: so that a writing run can read
/// its target beside its inputs and plan against that read only when no commit came in between.
package struct CheckedContents: Sendable {
  /// The read-only store the contents were read from.
  package let store: CacheStore
  package let contents: UnifiedCacheContents
  private let mark: Mark

  /// What shows a commit after the read. A connection that SQLite was told the file never changes sees no
  /// commit, so for that one the file itself is compared: a commit writes the file, or leaves a `-wal` or
  /// `-journal` beside it.
  private enum Mark: Sendable {
    /// `PRAGMA data_version` of the connection: another connection's commit changes it.
    case dataVersion(Int)
    /// The file as `stat` gave it before the store was opened (nil: it could not, and the read is never current).
    case file(StoreFileState?)
  }

  /// Opens the existing store at `path` read-only and reads it whole.
  package init(path: String, sealing: SecretSealing?) throws(CacheStoreError) {
    // Taken before the open, so that a commit made during the read differs from it.
    let before = StoreFileState(path: path)
    store = try CacheStore.open(path: path, options: .reading(sealing: sealing))
    if store.isImmutable {
      mark = .file(before)
    } else {
      mark = .dataVersion(try Self.dataVersion(of: store))
    }
    contents = try store.contents()
  }

  /// Whether nothing has been committed to the file since the read. Asked under the write lock, before the
  /// run opens the store to write (which creates the `-wal` file).
  package var isCurrent: Bool {
    switch mark {
    case .dataVersion(let version):
      return (try? Self.dataVersion(of: store)) == version
    case .file(let before):
      let sideFiles = ["-wal", "-journal"].map { store.path + $0 }
      return before != nil && StoreFileState(path: store.path) == before
        && !sideFiles.contains(where: FileManager.default.fileExists(atPath:))
    }
  }

  private static func dataVersion(of store: CacheStore) throws(CacheStoreError) -> Int {
    try store.read { db, _ in try Int.fetchOne(db, sql: "PRAGMA data_version") ?? 0 }
  }
}

/// Which file a path names and when it was last written: a write to it, or another file renamed over it,
/// changes one of these.
struct StoreFileState: Sendable, Equatable {
  let device: UInt64
  let inode: UInt64
  let size: Int64
  let modifiedSeconds: Int
  let modifiedNanoseconds: Int

  init?(path: String) {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    device = UInt64(info.st_dev)
    inode = UInt64(info.st_ino)
    size = Int64(info.st_size)
    #if canImport(Darwin)
      (modifiedSeconds, modifiedNanoseconds) = (Int(info.st_mtimespec.tv_sec), Int(info.st_mtimespec.tv_nsec))
    #else
      (modifiedSeconds, modifiedNanoseconds) = (Int(info.st_mtim.tv_sec), Int(info.st_mtim.tv_nsec))
    #endif
  }
}
