import Foundation
import GRDBSQLite

/// What a user who writes their own migration would get from SQLite: `rows` rows inserted into a plain rowid table
/// of a new file in one transaction, each a blob of `rowBytes` bytes sliced from `source`, with the store's
/// durability (WAL, `synchronous = FULL`) and SQLite's default page cache. No schema of ours: the `pipeline`
/// benchmark's `RawInsertLoop` inherits the store's schema, which hid that schema's cost (issue 23). The floor of
/// `compare` (after reading the input) and of `pipeline`'s write.
enum PlainInsertLoop {
  static func run(path: String, rows: Int, rowBytes: Int, slicing source: UnsafeRawBufferPointer) throws {
    var db: OpaquePointer?
    guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil) == SQLITE_OK, let db else {
      throw BenchFailure("cannot open \(path)")
    }
    defer { sqlite3_close_v2(db) }
    try SQLiteCalls.exec(db, "PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL")
    try SQLiteCalls.exec(db, "CREATE TABLE rows (id INTEGER PRIMARY KEY, value BLOB NOT NULL); BEGIN IMMEDIATE")
    let statement = try SQLiteCalls.prepare(db, "INSERT INTO rows (value) VALUES (?)")
    defer { sqlite3_finalize(statement) }
    let length = max(0, min(rowBytes, source.count))
    let span = max(1, source.count - length)
    for row in 0..<rows {
      // Successive slices of the source, so that rows hold real, differing bytes.
      let start = (row &* 4099) % span
      sqlite3_bind_blob(statement, 1, source.baseAddress.map { $0 + start }, Int32(length), nil)
      try SQLiteCalls.step(db, statement)
    }
    try SQLiteCalls.exec(db, "COMMIT")
  }

  /// The file into one buffer of its size, with read(2): what any reader of the dump must do at least.
  static func readWhole(_ path: String) throws -> [UInt8] {
    let descriptor = open(path, O_RDONLY)
    guard descriptor >= 0 else { throw BenchFailure("cannot read \(path)") }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0 else { throw BenchFailure("cannot stat \(path)") }
    var bytes = [UInt8](repeating: 0, count: Int(status.st_size))
    var offset = 0
    try bytes.withUnsafeMutableBytes { buffer in
      while offset < buffer.count {
        let count = read(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
        guard count > 0 else { throw BenchFailure("short read of \(path)") }
        offset += count
      }
    }
    return bytes
  }
}
