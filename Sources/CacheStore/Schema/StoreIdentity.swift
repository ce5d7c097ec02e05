import Adal2MSALSupport
import Foundation
import GRDB

/// What an existing file given as a store holds, found before anything is written to it: a file that is no store
/// is refused with its mode, its header and its journal as they were, so that a store path mistyped as an app's
/// own database or cache file never gets adal2msal's tables and tokens written into it.
enum StoreIdentity: Equatable {
  /// An empty file, or an SQLite database without tables (or one another run is creating): a new store.
  case nothing
  /// An adal2msal store, of any schema version.
  case store
  /// An SQLite database with tables of its own.
  case otherDatabase
  /// Not an SQLite database at all.
  case notADatabase
  /// No regular file (`OwnerOnlyFile.nonRegularKind`: a directory, a FIFO, a device), never opened: SQLite, and
  /// this look, would wait for a FIFO's writer forever, and SQLite calls a directory a disk I/O error.
  case notAFile(kind: String)

  /// What the file at `path` holds; nil when it cannot be read (or is missing), which the opening then reports.
  static func of(_ path: String) -> StoreIdentity? {
    if let kind = OwnerOnlyFile.nonRegularKind(path) { return .notAFile(kind: kind) }
    guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
    defer { try? handle.close() }
    let header: Data
    do {
      // nil at the end of the file: an empty file.
      header = try handle.read(upToCount: 100) ?? Data()
    } catch {
      return nil
    }
    if header.isEmpty { return .nothing }
    guard StoreFileMarker.isSQLite(header: header) else { return .notADatabase }
    if StoreFileMarker.isStore(header: header) { return .store }
    // SQLite must not open a store of which another user owns a file (`StoreFile.foreignOwned`): the opening
    // refuses it.
    if StoreFile.foreignOwned(path) != nil { return nil }
    // Stores before schema v4 have no application id, and a store's last commits may be in its WAL, which only
    // SQLite reads: the schema tells.
    var configuration = Configuration()
    configuration.readonly = true
    guard let queue = try? DatabaseQueue(path: StoreFile.readOnlyURI(path), configuration: configuration) else {
      return nil
    }
    return try? queue.read(Self.of)
  }

  /// What the open database holds.
  static func of(_ db: Database) throws -> StoreIdentity {
    // The migrator's own table comes first when another run creates the store.
    let tables = Set(try String.fetchAll(db, sql: "SELECT name FROM sqlite_schema WHERE type = 'table'"))
      .subtracting(["grdb_migrations", "sqlite_sequence"])
    if tables.isEmpty { return .nothing }
    if try Int32.fetchOne(db, sql: "PRAGMA application_id") == StoreFileMarker.applicationID { return .store }
    // A store from before the application id: the first schema's tables, its first migration recorded.
    guard tables.isSuperset(of: ["settings", "accounts"]), try db.tableExists("grdb_migrations") else {
      return .otherDatabase
    }
    let first = try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM grdb_migrations WHERE identifier = 'v1')")
    return first == true ? .store : .otherDatabase
  }

  /// The refusal of a file that holds this, opened to write (`readOnly` false) or to read; nil when it may be.
  func refusal(of path: String, readOnly: Bool) -> CacheStoreError? {
    let message: String
    switch self {
    case .store: return nil
    case .nothing:
      guard readOnly else { return nil }
      message = "the file holds no store yet (it is empty)"
    case .otherDatabase: message = "the file is an SQLite database with tables of its own, not an adal2msal store"
    case .notADatabase: message = "the file is not an SQLite database, so not an adal2msal store"
    case .notAFile(let kind): message = "the path is \(kind), not an adal2msal store"
    }
    return CacheStoreError(
      .notAStore, readOnly ? message : message + "; nothing was written", at: SourceLocation(file: path))
  }
}

extension CacheStore {
  /// Whether a run that writes `path` would create its store there: no file, or one that holds nothing yet. A dry
  /// run reads no store from such a path, as the run it previews starts from none.
  package static func wouldCreate(_ path: String) -> Bool {
    !FileManager.default.fileExists(atPath: path) || StoreIdentity.of(path) == .nothing
  }
}
