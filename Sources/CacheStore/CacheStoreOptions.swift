import Foundation

/// How a store is opened.
public struct CacheStoreOptions: Sendable {
  /// The key that seals the `secret` column, or nil for a store without encryption (the default). A new store
  /// opened with a key becomes encrypted; an existing store must be opened with the key it was created with.
  public var sealing: SecretSealing?
  /// How long a writer waits for another process's transaction to finish before failing.
  public var busyTimeout: TimeInterval
  /// Whether a missing file is created (`migrate`, `import`) or is an error (`accounts`, `export`).
  public var createIfMissing: Bool
  /// Open without writing a byte: no schema migration, no settings row, SQLite in read-only mode (dry runs,
  /// `accounts`, `export`). The store must exist and be of the current schema.
  public var readOnly: Bool

  public init(
    sealing: SecretSealing? = nil, busyTimeout: TimeInterval = 30, createIfMissing: Bool = true, readOnly: Bool = false
  ) {
    self.sealing = sealing
    self.busyTimeout = busyTimeout
    self.createIfMissing = createIfMissing && !readOnly
    self.readOnly = readOnly
  }

  /// The options of a reader: an existing store, opened read-only.
  public static func reading(sealing: SecretSealing? = nil) -> CacheStoreOptions {
    CacheStoreOptions(sealing: sealing, createIfMissing: false, readOnly: true)
  }
}
