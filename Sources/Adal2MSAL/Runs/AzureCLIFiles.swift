import Adal2MSALSupport
import CacheStore
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Azure CLI 2.30+'s two credential files, written beside each other after a migration's store
/// (azure-cli-core `auth/identity.py`, `auth/persistence.py`: plain JSON when `core.encrypt_token_cache` is
/// off, the default outside Windows).
///
/// - `msal_token_cache.json`: the whole store as an export for MSAL Python writes it (Azure CLI refreshes and
///   signs out through MSAL Python, which finds entries by the keys it computes). An existing one is the
///   user's current sign-ins: it must be one of the run's MSAL inputs, so that it is merged, never overwritten.
/// - `service_principal_entries.json`: the ADAL inputs' service principals, added to an existing file's entries.
public struct AzureCLIFiles: Sendable {
  public let directory: String

  public init(directory: String) { self.directory = directory }

  public var tokenCache: String { (directory as NSString).appendingPathComponent("msal_token_cache.json") }
  public var servicePrincipals: String {
    (directory as NSString).appendingPathComponent("service_principal_entries.json")
  }

  /// What `write` wrote.
  public struct Written: Sendable {
    /// The two files' paths.
    public var tokenCache: String
    public var servicePrincipals: String
    /// The client ids of the ADAL inputs' service principals, and how many of them were new to the file.
    public var clientIDs: [String]
    public var added: Int
    /// How many of them the file already held, with the same credential (a run again adds none).
    public var alreadyThere: Int
    /// How many repeated one of the inputs read first, with the same credential.
    public var repeatedInInputs: Int
    /// What the export for MSAL Python said (entries it keys alike), and the inputs' service principals left out
    /// for another credential of the same one (`AzureCLIServicePrincipals.leftOutCode`).
    public var diagnostics: [Diagnostic]
    /// Entries of the store `msal_token_cache.json` does not hold (`CacheExport.entriesLeftOut`).
    public var entriesLeftOut: Int { CacheExport.entriesLeftOut(in: diagnostics) }
    /// The inputs' service principals not written because the file keeps another credential for them.
    public var servicePrincipalsLeftOut: Int {
      diagnostics.count { $0.code == AzureCLIServicePrincipals.leftOutCode }
    }
  }

  /// A directory refused before anything is read or written.
  public struct Refusal: Error, LocalizedError, CustomStringConvertible, Sendable {
    public var description: String
    public var errorDescription: String? { description }
  }

  /// Refuses, before anything is read or written, a directory that is missing, whose token cache would be lost or
  /// whose files could not be replaced or merged into (no regular file, not readable, not a JSON array of service
  /// principals), and a run that does not write (`dryRun`): each refusal says what to change in `names`' words.
  package func validate(msalInputs: [String], dryRun: Bool, names: RunFileNames) throws(Refusal) {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
      throw Refusal(description: "\(names.azureCLIDirectory) \(directory) is not a directory")
    }
    guard !dryRun else {
      throw Refusal(
        description:
          "Azure CLI's files are written after the store, and this run writes none: \(names.toWriteAzureCLIFiles)")
    }
    for path in [tokenCache, servicePrincipals] {
      if let kind = OwnerOnlyFile.nonRegularKind(path) {
        throw Refusal(description: "\(path) is \(kind), not a regular file: the run replaces it; move it away")
      }
    }
    if FileManager.default.fileExists(atPath: tokenCache), !InputFile.isAmong(tokenCache, inputs: msalInputs) {
      throw Refusal(
        description: "\(tokenCache) exists: \(names.giveAsMSALInput) so that its sign-ins are merged into the store, "
          + "or move it away")
    }
    // Found now, not once the store holds the run: a service principals file that cannot be merged into.
    do {
      _ = try AzureCLIServicePrincipals.merged([], into: existingServicePrincipals())
    } catch let error as AzureCLIServicePrincipals.MergeError {
      throw Refusal(description: "\(servicePrincipals): \(error): move it away and run again")
    } catch {
      throw Refusal(description: "\(error) (Azure CLI's service principals, which the run adds to)")
    }
  }

  /// The existing `service_principal_entries.json`, nil when there is none. One that cannot be read is an error,
  /// never taken for none: its entries would be lost when the file is replaced.
  private func existingServicePrincipals() throws -> Data? {
    guard FileManager.default.fileExists(atPath: servicePrincipals) else { return nil }
    return try InputFile.read(servicePrincipals)
  }

  /// Writes both files (mode 0600, atomically) from the store at `store` and the ADAL inputs, whose directories
  /// are listed as the run listed them: `runFiles` (the run's store and report, kept among its inputs) passed over.
  ///
  /// `tokenCacheAsRead` is the SHA-256 of `msal_token_cache.json` as the run read it among its MSAL inputs, nil when
  /// there was none. A token cache that is not that file any more (Azure CLI signed a user in or out while the run
  /// went on) is not replaced, nor is anything else written: its new sign-ins are in no store. The comparison and
  /// the writes are made holding Azure CLI's own lock on the file (`TokenCacheLock`), so that no sign-in lands
  /// between them.
  public func write(
    store: String, sealing: SecretSealing?, adal: [String], passingOver runFiles: [String], limits: InputLimits,
    tokenCacheAsRead: String?
  ) throws -> Written {
    let exported = try CacheStore.open(path: store, options: .reading(sealing: sealing)).export(for: .python)
    let principals = try AzureCLIServicePrincipals.collect(fromADAL: adal, passingOver: runFiles, limits: limits)
    let merged: AzureCLIServicePrincipals.Merge
    do {
      merged = try AzureCLIServicePrincipals.merged(principals, into: existingServicePrincipals())
    } catch {
      throw RunOutputError(
        "cannot merge the service principals (\(error))", file: servicePrincipals,
        remedy: "move the file away and run again")
    }
    try TokenCacheLock.holding(tokenCache) {
      let current = FileManager.default.fileExists(atPath: tokenCache) ? try? InputFile.read(tokenCache) : nil
      guard current.map({ SecretFingerprint.sha256Hex($0) }) == tokenCacheAsRead else {
        throw RunOutputError(
          "changed after the run read it (Azure CLI signed in or out meanwhile): not replaced, and "
            + "service_principal_entries.json not written", file: tokenCache,
          remedy: "run again, with the same options, to merge it")
      }
      for (data, path) in [(exported.data, tokenCache), (merged.data, servicePrincipals)] {
        do {
          try OwnerOnlyOutput.write(data, to: path)
        } catch {
          throw RunOutputError(
            "cannot write an Azure CLI file (\(error))", file: path, remedy: "check that the directory is writable")
        }
      }
    }
    return Written(
      tokenCache: tokenCache, servicePrincipals: servicePrincipals, clientIDs: principals.map(\.clientID),
      added: merged.added, alreadyThere: merged.alreadyThere, repeatedInInputs: merged.repeated,
      diagnostics: exported.diagnostics + merged.diagnostics)
  }
}

/// Azure CLI's lock on its token cache, taken as msal-extensions' `CrossPlatLock` takes it around every change
/// Azure CLI makes to the file (azure-cli-core `auth/persistence.py`, msal-extensions `cache_lock.py`):
/// `msal_token_cache.json.lockfile` created exclusively (waiting up to five seconds for its holder to remove it,
/// then going on, as msal-extensions does with a file a crashed process left), locked with `flock`, and removed
/// when done.
private enum TokenCacheLock {
  static let waitSeconds: TimeInterval = 5

  static func holding(_ tokenCache: String, _ body: () throws -> Void) throws {
    let path = tokenCache + ".lockfile"
    let created = Date().addingTimeInterval(waitSeconds)
    // Removed by an interrupt once this run made it, or took over one left after the wait: a lock file left behind
    // makes the next run (and Azure CLI) wait for it.
    var registration: InterruptCleanup.Registration?
    while true {
      var code: Int32 = 0
      registration = InterruptCleanup.register(path) {
        let descriptor = open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
        code = errno
        if descriptor >= 0 { close(descriptor) }
        return descriptor >= 0
      }
      if registration != nil { break }
      guard code == EEXIST, Date() < created else { break }
      usleep(250_000)
    }
    if registration == nil { registration = InterruptCleanup.register([path]) }
    defer { if let registration { InterruptCleanup.release(registration) } }
    let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else {
      throw RunOutputError(
        "cannot write an Azure CLI file (its lock file: \(String(cString: strerror(errno))))", file: tokenCache,
        remedy: "check that the directory is writable")
    }
    defer {
      unlink(path)
      close(descriptor)  // also lets go of the lock
    }
    let locked = Date().addingTimeInterval(waitSeconds)
    while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
      guard Date() < locked else {
        throw RunOutputError(
          "Azure CLI held its lock on it for \(Int(waitSeconds)) seconds: not replaced", file: tokenCache,
          remedy: "run again once Azure CLI is done")
      }
      usleep(100_000)
    }
    try body()
  }
}
