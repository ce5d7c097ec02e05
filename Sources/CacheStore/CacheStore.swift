import Adal2MSALSupport
import Foundation
import GRDB
import GRDBSQLite
import UnifiedCache

/// The unified cache in one SQLite file (schema: docs/sqlite-schema.md).
///
/// A new file is created owner-only (0600); an existing file opened for writing, and its side files, are made
/// owner-only, and refused when another user owns them. The database runs in WAL mode with
/// `synchronous = FULL` (a new store's first run uses the rollback journal, `FirstRunJournal`), and a writer
/// waits up to `busyTimeout` for another process, so concurrent runs serialize. Everything one `apply` writes
/// is one immediate transaction.
public struct CacheStore: Sendable {
  /// The database file.
  public let path: String
  /// Whether the store is sealed with AES-GCM (every `secret`, and every column that keeps input as it was
  /// read: `RowCodec.fieldValue`).
  public let isEncrypted: Bool
  let queue: DatabaseQueue
  private(set) var codec: RowCodec
  /// Whether the file was empty when this store opened it (this process created it): its first run is written
  /// with the rollback journal (`FirstRunJournal`).
  let isNew: Bool
  /// How long a writer waits for another process (`CacheStoreOptions.busyTimeout`).
  let busyTimeout: TimeInterval
  /// Whether SQLite was told the file never changes (`StoreFile.readOnlyURI`): this connection sees no commit
  /// made after it opened.
  let isImmutable: Bool
  /// Whether the store is built in a file other than `path` (`NewStoreFile`): its commit is not the run's, the
  /// rename onto `path` is.
  let isStaged: Bool

  private init(
    path: String, queue: DatabaseQueue, sealing: SecretSealing?, isNew: Bool, busyTimeout: TimeInterval,
    isImmutable: Bool, isStaged: Bool = false
  ) {
    self.path = path
    self.queue = queue
    self.isEncrypted = sealing != nil
    self.codec = RowCodec(sealing: sealing, file: path)
    self.isNew = isNew
    self.busyTimeout = busyTimeout
    self.isImmutable = isImmutable
    self.isStaged = isStaged
  }

  /// Opens the store at `path`, creating it (mode 0600) and its schema when needed, and checks the key against
  /// the store's encryption setting.
  public static func open(path: String, options: CacheStoreOptions = CacheStoreOptions()) throws(CacheStoreError)
    -> CacheStore
  {
    try open(path: path, file: path, options: options)
  }

  /// Opens the store in `file`, called `path` (its `path`, and the file its errors name): a new store built under
  /// a temporary name is called by the path it is renamed onto (`NewStoreFile`).
  static func open(path: String, file: String, options: CacheStoreOptions) throws(CacheStoreError) -> CacheStore {
    // Before anything touches the file, its mode included, and before SQLite opens it (`StoreFile.foreignOwned`).
    try StoreFile.refuseForeignOwned(file)
    if let identity = StoreIdentity.of(file), let refusal = identity.refusal(of: path, readOnly: options.readOnly) {
      throw refusal
    }
    if options.createIfMissing {
      if try !StoreFile.createOwnerOnly(file) { try StoreFile.secureExisting(file) }
    } else if !options.readOnly, FileManager.default.fileExists(atPath: file) {
      try StoreFile.secureExisting(file)
    } else if !FileManager.default.fileExists(atPath: file) {
      throw CacheStoreError(
        .cannotOpen, "the store does not exist", remedy: "give the path of a store written by migrate or import",
        at: SourceLocation(file: path))
    }
    let isNew = !options.readOnly && StoreFile.isEmpty(file)
    var configuration = Configuration()
    configuration.readonly = options.readOnly
    configuration.busyMode = .timeout(options.busyTimeout)
    let readOnly = options.readOnly
    configuration.prepareDatabase { db in
      // A read-only connection cannot switch the journal mode; the file is already in WAL mode.
      if readOnly { return }
      // A new file gets larger pages, set before the first write fixes them (an existing store keeps its own):
      // a token row is 1-3 KB, and 4 KiB pages that hold two such rows leave a third of the file unused.
      if try Int.fetchOne(db, sql: "PRAGMA page_count") == 0 {
        try db.execute(sql: "PRAGMA page_size = \(Self.pageSize)")
      }
      // WAL is set here rather than with GRDB's `journalMode = .wal`, which, on every open, also creates and
      // drops a table (changing the file even when nothing else is written) and sets `synchronous = NORMAL`
      // after this block. On a file already in WAL mode this pragma writes nothing.
      if try String.fetchOne(db, sql: "PRAGMA journal_mode")?.lowercased() != "wal" {
        _ = try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL")
      }
      try db.execute(sql: "PRAGMA synchronous = FULL")
      // 64 MB of page cache: a large apply inserts random keys into several B-trees, and a small cache
      // spills pages to the WAL over and over inside the transaction (a new store's first run, which only
      // appends rows, needs less: `FirstRunJournal`).
      try db.execute(sql: "PRAGMA cache_size = -\(Self.cacheKilobytes)")
    }
    var store: CacheStore
    // The connection of the last attempt: what SQLite met, when it fails (`failure`).
    var opened: DatabaseQueue?
    do {
      store = try OpeningRace.retrying(for: options.busyTimeout) {
        let location = options.readOnly ? StoreFile.readOnlyURI(file) : file
        let queue = try StoreFile.withOwnerOnlyUmask { try DatabaseQueue(path: location, configuration: configuration) }
        opened = queue
        let store = CacheStore(
          path: path, queue: queue, sealing: options.sealing, isNew: isNew, busyTimeout: options.busyTimeout,
          isImmutable: location != file, isStaged: file != path)
        if options.readOnly {
          try store.checkSchemaIsCurrent()
        } else {
          try StoreFile.withOwnerOnlyUmask { try store.migrate() }
        }
        return store
      }
    } catch let error as CacheStoreError {
      throw error
    } catch {
      var failure = Self.failure(
        .cannotOpen, "cannot open the store", error, on: opened, at: SourceLocation(file: path))
      if !options.readOnly, let directory = StoreFile.unwritableDirectory(of: file, after: error) {
        failure.message +=
          ": its directory \(directory) is not writable, and SQLite writes its journal beside the store"
        failure.remedy = "make the directory writable or move the store"
      }
      throw failure
    }
    let scheme = try store.checkEncryptionSetting(options.sealing, readOnly: options.readOnly)
    store.codec.clearFieldsAllowed = scheme == clearFieldsEncryptionScheme
    return store
  }

  /// For a read-only open: the schema must be exactly the one this version writes.
  private func checkSchemaIsCurrent() throws {
    if let refusal = try queue.read(StoreIdentity.of).refusal(of: path, readOnly: true) { throw refusal }
    let migrator = StoreSchema.migrator
    let (complete, superseded) = try queue.read { db in
      (try migrator.hasCompletedMigrations(db), try migrator.hasBeenSuperseded(db))
    }
    if superseded {
      throw CacheStoreError(
        .unknownSchema, "the store was written by a newer adal2msal", at: SourceLocation(file: path))
    }
    if !complete {
      throw CacheStoreError(
        .outdatedSchema, "the store's schema is older than this adal2msal",
        at: SourceLocation(file: path))
    }
  }

  /// Brings the schema up to date (`OpeningRace` retries it when another process is creating the same file).
  private func migrate() throws {
    let migrator = StoreSchema.migrator
    // An up-to-date store is not touched: the migrator's own bookkeeping would otherwise write to the file
    // even when no migration runs, and a run that then fails must leave the file byte for byte as it was.
    if try queue.read({ try migrator.hasCompletedMigrations($0) && !migrator.hasBeenSuperseded($0) }) { return }
    // `open` refused such a file before touching it, unless it could not read it then.
    if let refusal = try queue.read(StoreIdentity.of).refusal(of: path, readOnly: false) { throw refusal }
    // A file that holds nothing yet gets its schema with `synchronous = NORMAL`: each migration is its own
    // transaction, and a sync each made most of a new store's creation. In WAL mode a power loss can then lose
    // those commits but never corrupt the file, and the first commit with `FULL` (a run's) syncs the WAL that
    // holds them.
    let isEmpty = try queue.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM sqlite_schema") == 0 }
    if isEmpty { try queue.writeWithoutTransaction { try $0.execute(sql: "PRAGMA synchronous = NORMAL") } }
    let isNew = try isEmpty || queue.read(StoreSchema.holdsCurrentSchema)
    try (isNew ? StoreSchema.newStoreMigrator : migrator).migrate(queue)
    if try queue.read({ try migrator.hasBeenSuperseded($0) }) {
      throw CacheStoreError(
        .unknownSchema, "the store was written by a newer adal2msal",
        at: SourceLocation(file: path))
    }
    // A migration that rebuilt tables (v3, v7) left their old pages free; give them back, or an upgraded store
    // keeps the old layout's size on top of the new one's. VACUUM is one transaction, like the migration.
    let free = try queue.read { db in
      try Int.fetchOne(db, sql: "PRAGMA freelist_count") ?? 0
    }
    if free > 0 { try queue.vacuum() }
    // The pages the migrations wrote are not what a run needs: give their memory back, so that a run peaks no
    // higher than its own pages take.
    try queue.writeWithoutTransaction { try $0.execute(sql: "PRAGMA shrink_memory") }
    if isEmpty { try queue.writeWithoutTransaction { try $0.execute(sql: "PRAGMA synchronous = FULL") } }
  }

  /// Records the encryption setting of a new store, or checks the key against an existing one; returns the
  /// store's scheme.
  private func checkEncryptionSetting(_ sealing: SecretSealing?, readOnly: Bool) throws(CacheStoreError) -> String {
    let place = SourceLocation(file: path)
    let stored: (mode: String, check: String?)
    do {
      stored =
        try readOnly
        ? readEncryptionSetting()
        : queue.immediateTransaction { db in
          let mode = try String.fetchOne(db, sql: "SELECT value FROM settings WHERE name = 'encryption'")
          if let mode {
            let check = try String.fetchOne(db, sql: "SELECT value FROM settings WHERE name = 'key_check'")
            return (mode, check)
          }
          let newMode = sealing == nil ? "none" : Self.encryptionScheme
          try db.execute(sql: "INSERT INTO settings (name, value) VALUES ('encryption', ?)", arguments: [newMode])
          if let sealing {
            try db.execute(
              sql: "INSERT INTO settings (name, value) VALUES ('key_check', ?)", arguments: [sealing.keyCheckValue])
          }
          return (newMode, sealing?.keyCheckValue)
        }
    } catch {
      throw Self.failure(.database, "cannot read the store settings", error, on: queue, at: place)
    }
    switch (stored.mode, sealing) {
    case ("none", nil):
      return stored.mode
    case ("none", _?):
      throw CacheStoreError(
        .notEncrypted, "the store is not encrypted but an encryption key was given", at: place)
    case (Self.encryptionScheme, nil), (Self.clearFieldsEncryptionScheme, nil):
      throw CacheStoreError(
        .keyRequired,
        "the store is encrypted and no key was given",
        at: place)
    case (Self.encryptionScheme, let sealing?), (Self.clearFieldsEncryptionScheme, let sealing?):
      guard stored.check == sealing.keyCheckValue else {
        throw CacheStoreError(.wrongKey, "the encryption key is not the key of this store", at: place)
      }
      return stored.mode
    default:
      throw CacheStoreError(
        .unknownSchema, "the store uses an unknown encryption scheme", at: place)
    }
  }

  /// The encryption setting as stored; a store that never recorded one has none.
  private func readEncryptionSetting() throws -> (mode: String, check: String?) {
    try queue.read { db in
      let mode = try String.fetchOne(db, sql: "SELECT value FROM settings WHERE name = 'encryption'") ?? "none"
      let check = try String.fetchOne(db, sql: "SELECT value FROM settings WHERE name = 'key_check'")
      return (mode, check)
    }
  }

  /// The page size of a new store, in bytes (`PRAGMA page_size`). Each of the store's 21 B-trees takes at least
  /// a page, and a page of appended token rows ends in the part of a row that did not fit. 64 KiB pages made the
  /// first cost a tenth of a small store; 16 KiB pages keep both costs small (docs/benchmarks.md, "Store size").
  static let pageSize = 16_384

  /// The page cache of a connection, in KiB (`PRAGMA cache_size`).
  public static let cacheKilobytes = 65_536

  /// The value of the `encryption` setting of an encrypted store: every `secret` sealed, and every column that
  /// keeps input as it was read (`additional_fields`, `written_form`, `unknown_sections.value`,
  /// `SecretSealing.sealField`).
  static let encryptionScheme = "aes-256-gcm-v2"

  /// The `encryption` setting of a store sealed by adal2msal before `encryptionScheme`: only `secret` is
  /// sealed, and the other columns above hold their text in clear. Such a store opens and reads as it is; its
  /// next run seals the rest in its transaction and records `encryptionScheme` (`sealClearFields`).
  static let clearFieldsEncryptionScheme = "aes-256-gcm-v1"

  /// A short description of a GRDB or system error, without SQL arguments (which could hold secrets).
  static func describe(_ error: any Error) -> String {
    if let error = error as? DatabaseError {
      return "SQLite error \(error.resultCode.rawValue): \(error.message ?? "unknown")"
    }
    return String(describing: type(of: error))
  }

  /// The error of `what` failing on `queue`'s connection (nil: none was opened): `describe`'s text, and for a
  /// disk I/O error the system error behind it (`systemError`), with a remedy for a file that cannot grow.
  static func failure(
    _ reason: CacheStoreError.Reason, _ what: String, _ error: any Error, on queue: DatabaseQueue?,
    at place: SourceLocation
  ) -> CacheStoreError {
    let code = queue.flatMap { systemError(behind: error, on: $0) }
    var cause = describe(error)
    if let code { cause += ": " + String(cString: strerror(code)) }
    var remedy: String?
    if let code, [EFBIG, ENOSPC, EDQUOT].contains(code) {
      remedy =
        "free space or raise the file-size limit (ulimit -f), then run again"
        + (reason == .database ? "; nothing was written" : "")
    }
    return CacheStoreError(reason, "\(what) (\(cause))", remedy: remedy, at: place)
  }

  /// The system error (`errno`) behind a disk I/O error of `queue`'s connection: SQLite's message says "disk I/O
  /// error" whatever the system call met (a file-size limit, a device error). Nil for any other error, or when
  /// SQLite kept none.
  ///
  /// SQLite records it for the connection (`sqlite3_system_errno`) when a statement's own write fails, but not
  /// when the WAL written at a commit does; each of its `unix` files keeps the error of its own last failed call
  /// (`SQLITE_FCNTL_LAST_ERRNO`), the WAL's or rollback journal's included.
  static func systemError(behind error: any Error, on queue: DatabaseQueue) -> Int32? {
    guard let error = error as? DatabaseError, error.resultCode == .SQLITE_IOERR else { return nil }
    return queue.inDatabase { db -> Int32? in
      guard let connection = db.sqliteConnection else { return nil }
      var journal: UnsafeMutableRawPointer?
      var journalError: Int32 = 0
      if sqlite3_file_control(connection, "main", SQLITE_FCNTL_JOURNAL_POINTER, &journal) == SQLITE_OK,
        let file = journal?.assumingMemoryBound(to: sqlite3_file.self), let methods = file.pointee.pMethods
      {
        _ = methods.pointee.xFileControl(file, SQLITE_FCNTL_LAST_ERRNO, &journalError)
      }
      var mainError: Int32 = 0
      _ = sqlite3_file_control(connection, "main", SQLITE_FCNTL_LAST_ERRNO, &mainError)
      return [sqlite3_system_errno(connection), journalError, mainError].first { $0 != 0 }
    }
  }
}
