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

  public init(sealing: SecretSealing? = nil, busyTimeout: TimeInterval = 30, createIfMissing: Bool = true) {
    self.sealing = sealing
    self.busyTimeout = busyTimeout
    self.createIfMissing = createIfMissing
  }
}
