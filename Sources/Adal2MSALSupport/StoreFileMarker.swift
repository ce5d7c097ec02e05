import Foundation

/// How an adal2msal store says what it is: SQLite's header field `application_id` (bytes 68-71, big-endian),
/// which its schema sets, so that an input reader can tell a store given by mistake from a first look at the file
/// (the schema's text may sit anywhere in a large file), and the store's opening a file that is no store.
package enum StoreFileMarker {
  /// The files SQLite keeps beside a store, by the suffix it adds to the store's path.
  package static let sideFileSuffixes = ["-wal", "-shm", "-journal"]

  /// A store's path and its side files' paths.
  package static func files(of store: String) -> [String] { [store] + sideFileSuffixes.map { store + $0 } }

  /// `A2MS` in ASCII.
  package static let applicationID: Int32 = 0x4132_4D53

  /// Whether `header` (the file's first bytes) starts with SQLite's magic string: an SQLite database.
  package static func isSQLite<Bytes: Collection<UInt8>>(header: Bytes) -> Bool {
    header.starts(with: "SQLite format 3\u{0}".utf8)
  }

  /// Whether the file at `path` is an SQLite database (its first bytes are SQLite's magic string); false for a
  /// file that is missing or cannot be read.
  package static func holdsSQLite(_ path: String) -> Bool {
    guard let handle = FileHandle(forReadingAtPath: path) else { return false }
    defer { try? handle.close() }
    return isSQLite(header: (try? handle.read(upToCount: 16)) ?? Data())
  }

  /// Whether `header` (the file's first bytes) is an SQLite file whose application id is adal2msal's.
  package static func isStore<Bytes: Collection<UInt8>>(header: Bytes) -> Bool {
    let bytes = Array(header.prefix(72))
    guard bytes.count == 72 else { return false }
    let id = bytes[68..<72].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
    return Int32(bitPattern: id) == applicationID
  }
}
