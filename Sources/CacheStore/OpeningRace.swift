import Foundation
import GRDB

/// Opening a store while another process creates or upgrades the same file.
///
/// SQLite's busy timeout does not cover every step of that: switching a new file to WAL takes an exclusive lock
/// without calling the busy handler, so the second process gets "database is locked" at once; and while the
/// first converts the file, the second cannot read the schema, so it may compile against the empty schema it
/// loaded before ("no such table: grdb_migrations"), create a table the first has just created ("table already
/// exists") or record a migration the first has just recorded ("UNIQUE constraint failed"). Each of these goes away once the first process is done, so the open is tried again.
enum OpeningRace {
  /// How often a schema error is tried again: enough for another process to finish creating the file, few
  /// enough that a file that is simply wrong fails at once.
  static let schemaAttempts = 5

  /// Runs `open` until it succeeds, a lock stays held beyond `timeout` seconds, or a schema error persists.
  static func retrying<T>(for timeout: TimeInterval, _ open: () throws -> T) throws -> T {
    let deadline = Date().addingTimeInterval(timeout)
    var schemaErrors = 0
    while true {
      do {
        return try open()
      } catch let error as DatabaseError {
        switch error.resultCode {
        case .SQLITE_BUSY, .SQLITE_LOCKED:
          guard Date() < deadline else { throw error }
        case .SQLITE_ERROR, .SQLITE_SCHEMA, .SQLITE_CONSTRAINT:
          schemaErrors += 1
          guard schemaErrors < schemaAttempts else { throw error }
        default:
          throw error
        }
        usleep(useconds_t.random(in: 5_000...25_000))
      }
    }
  }
}
