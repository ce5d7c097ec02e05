import Adal2MSALSupport
import Foundation

/// A fatal problem with a store: it cannot be opened, its key is missing or wrong, a sealed secret does not
/// open, or SQLite failed. Messages name the file and say what to do; they never contain a secret or a key.
public struct CacheStoreError: Error, LocalizedError, CustomStringConvertible, Sendable, Hashable {
  /// What went wrong.
  public enum Reason: String, Sendable, Hashable, Codable {
    /// The file could not be created or opened (permissions, missing directory, not a database).
    case cannotOpen = "cannot-open"
    /// The store is encrypted and no key was given.
    case keyRequired = "key-required"
    /// The key does not match the store's key check value.
    case wrongKey = "wrong-key"
    /// A key was given for a store that is not encrypted.
    case notEncrypted = "not-encrypted"
    /// A key file or key text is not 32 bytes (raw, 64 hex digits or base64).
    case badKey = "bad-key"
    /// A sealed secret failed authentication: tampered, moved to another row, or another key.
    case secretUnreadable = "secret-unreadable"
    /// A row could not be turned back into an entity (bad JSON in `additional_fields`, bad kind).
    case corruptRow = "corrupt-row"
    /// The schema is newer than this tool knows.
    case unknownSchema = "unknown-schema"
    /// A store opened read-only has a schema older than this tool writes: opened to write, it is upgraded.
    case outdatedSchema = "outdated-schema"
    /// The file is not a store: not an SQLite database, one with tables of its own, (to read) an empty file, or
    /// no regular file at all (a directory, a FIFO, a device).
    /// Nothing is written to it.
    case notAStore = "not-a-store"
    /// SQLite reported an error (busy beyond the timeout, disk full, I/O error, ...).
    case database = "database"
  }

  public var reason: Reason
  /// What happened, one line. Never a secret.
  public var message: String
  /// What to do about it, one line.
  public var remedy: String
  /// The store file, and the row key or setting name when one is concerned.
  public var location: SourceLocation

  public init(_ reason: Reason, _ message: String, remedy: String? = nil, at location: SourceLocation) {
    self.reason = reason
    self.message = message
    self.remedy = remedy ?? reason.defaultRemedy
    self.location = location
  }

  public var errorDescription: String? { description }
  public var description: String { "\(location): \(message); \(remedy)" }
}

extension CacheStoreError.Reason {
  /// What to do, when the thrower has nothing more specific, in the library's words (`adal2msal` names its
  /// options instead where the remedy is one).
  public var defaultRemedy: String {
    switch self {
    case .cannotOpen: "check the path and that the file is an adal2msal SQLite cache"
    case .keyRequired:
      "give its key: a `SecretSealing`, or `SecretSealing.fromEnvironment()` with \(SecretSealing.environmentVariable) set"
    case .wrongKey: "give the key the store was created with"
    case .notEncrypted: "open it without an encryption key"
    case .badKey: "give 32 raw bytes, 64 hex digits or the base64 of 32 bytes"
    case .secretUnreadable, .corruptRow: "restore the file from a backup or import it again"
    case .unknownSchema: "use the newer adal2msal that wrote it"
    case .outdatedSchema: "open it to write once to upgrade it, as a run that is not a dry run does"
    case .notAStore: "give the path of an adal2msal store, or of a new file for a new store"
    case .database: "fix the cause and run again; nothing was written"
    }
  }
}
