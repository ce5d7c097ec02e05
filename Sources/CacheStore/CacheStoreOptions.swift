import Foundation

/// How a store is opened.
public struct CacheStoreOptions: Sendable {
  /// The key that seals the `secret` column, or nil for a store without encryption (the default). A new store
  /// opened with a key becomes encrypted; an existing store must be opened with the key it was created with.
  public var sealing: SecretSealing?
  /// How long a writer waits for another process's transaction to finish before failing.
  public var busyTimeout: TimeInterval

  public init(sealing: SecretSealing? = nil, busyTimeout: TimeInterval = 30) {
    self.sealing = sealing
    self.busyTimeout = busyTimeout
  }
}
