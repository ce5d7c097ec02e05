import ArgumentParser
import Foundation
import GRDBSQLite

/// `compare`'s floor, as a child process: read the whole input file into memory, then insert `rows` rows into a
/// plain rowid table of a new SQLite file in one transaction, each a blob of `rowBytes` bytes sliced from the
/// input. Same durability as the store (WAL, `synchronous = FULL`), default page cache. No schema of ours: the
/// `pipeline` benchmark's `RawInsertLoop` inherits the store's schema, which hid that schema's cost (issue 23).
/// Hidden from help.
struct CompareFloorChild: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "compare-floor",
    abstract: "Read a file, then insert N plain rows into a new SQLite file (the floor of `compare`).",
    shouldDisplay: false)

  @Option var input: String
  @Option var out: String
  @Option var rows: Int
  @Option var rowBytes: Int

  func run() throws {
    let bytes = try readWhole(input)
    var db: OpaquePointer?
    guard sqlite3_open_v2(out, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil) == SQLITE_OK, let db else {
      throw ValidationError("cannot open \(out)")
    }
    defer { sqlite3_close_v2(db) }
    try exec(db, "PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL")
    try exec(db, "CREATE TABLE rows (id INTEGER PRIMARY KEY, value BLOB NOT NULL); BEGIN IMMEDIATE")
    var statement: OpaquePointer?
    guard sqlite3_prepare_v2(db, "INSERT INTO rows (value) VALUES (?)", -1, &statement, nil) == SQLITE_OK, let statement
    else { throw ValidationError("sqlite: \(String(cString: sqlite3_errmsg(db)))") }
    defer { sqlite3_finalize(statement) }
    let length = max(0, min(rowBytes, bytes.count))
    let span = max(1, bytes.count - length)
    try bytes.withUnsafeBytes { buffer in
      for row in 0..<rows {
        // Successive slices of the input, so that rows hold real, differing bytes.
        let start = (row &* 4099) % span
        sqlite3_bind_blob(statement, 1, buffer.baseAddress! + start, Int32(length), nil)
        guard sqlite3_step(statement) == SQLITE_DONE else {
          throw ValidationError("sqlite: \(String(cString: sqlite3_errmsg(db)))")
        }
        sqlite3_reset(statement)
      }
    }
    try exec(db, "COMMIT")
  }

  /// The file into one buffer of its size, with read(2): what any reader of the dump must do at least.
  private func readWhole(_ path: String) throws -> [UInt8] {
    let descriptor = open(path, O_RDONLY)
    guard descriptor >= 0 else { throw ValidationError("cannot read \(path)") }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0 else { throw ValidationError("cannot stat \(path)") }
    var bytes = [UInt8](repeating: 0, count: Int(status.st_size))
    var offset = 0
    try bytes.withUnsafeMutableBytes { buffer in
      while offset < buffer.count {
        let count = read(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
        guard count > 0 else { throw ValidationError("short read of \(path)") }
        offset += count
      }
    }
    return bytes
  }

  private func exec(_ db: OpaquePointer, _ sql: String) throws {
    guard sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK else {
      throw ValidationError("sqlite: \(String(cString: sqlite3_errmsg(db)))")
    }
  }
}
