import Adal2MSAL
import ArgumentParser
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What the store subcommands (`accounts`, `export`, `import`) share: the key, the one-line error, the
/// owner-only atomic output file.
enum StoreCommandSupport {
  /// The sealing key from `--encryption-key-file`, else from `ADAL2MSAL_ENCRYPTION_KEY`, else none. A key
  /// file that its group or others may read is a warning, or with `strict` an error.
  static func sealing(keyFile: String?, strict: Bool = false) throws(CacheStoreError) -> SecretSealing? {
    guard let keyFile else { return try SecretSealing.fromEnvironment() }
    // Only a regular file's mode says who can read the key (a device is refused by `keyFile(at:)`).
    if OwnerOnlyFile.nonRegularKind(keyFile) == nil, let status = OwnerOnlyFile.status(keyFile), status.isOpenToOthers {
      let problem = "the key file is \(status.modeDescription): anyone who can read it can read the store's tokens"
      let remedy = "run chmod 600 \(keyFile)"
      if strict {
        throw CacheStoreError(
          .badKey, problem + " (refused with --strict)", remedy: remedy, at: SourceLocation(file: keyFile))
      }
      Terminal.standardError("adal2msal: warning: \(keyFile): \(problem); \(remedy)")
    }
    return try SecretSealing.keyFile(at: keyFile)
  }

  /// The store's write lock (`StoreWriteLock`), saying on standard error when the run waits for another.
  static func writeLock(_ store: String) throws -> StoreWriteLock {
    try StoreWriteLock(storePath: store) {
      Terminal.standardError(
        "adal2msal: waiting for another adal2msal run writing a store in the directory of \(store)")
    }
  }

  /// Prints `adal2msal: error: <what>, <file>, <what to do>` on standard error; the caller throws the result.
  static func fail(_ what: String, file: String, todo: String) -> ExitCode {
    Terminal.standardError("adal2msal: error: \(what), \(file), \(todo)")
    return ExitCode(1)
  }

  static func fail(_ error: CacheStoreError, file: String) -> ExitCode {
    let place = [error.location.file ?? file, error.location.keyPath.map { "at \($0)" }]
      .compactMap { $0 }.joined(separator: " ")
    return fail(error.message, file: place, todo: error.remedy)
  }

  static func fail(_ error: UnifiedCacheError, file: String) -> ExitCode {
    fail(
      error.message, file: error.location.description,
      todo: "give a unified-cache JSON file (MSAL.NET, Python, Java or Node layout)")
  }

  /// Writes `data` to `path` atomically with mode 0600 (see `writeOwnerOnly(to:_:)`).
  static func writeOwnerOnly(_ data: Data, to path: String) throws {
    try writeOwnerOnly(to: path) { write in try data.withUnsafeBytes(write) }
  }

  /// Writes what `produce` hands its `write` function, in order, to `path` atomically with mode 0600: a new
  /// owner-only temporary file in the same directory, flushed to disk, then renamed over the target. If
  /// anything fails, or SIGINT or SIGTERM arrives (`InterruptCleanup`), the temporary file is removed and the
  /// target is untouched.
  static func writeOwnerOnly(
    to path: String, _ produce: (_ write: (UnsafeRawBufferPointer) throws -> Void) throws -> Void
  ) throws {
    let url = URL(fileURLWithPath: path)
    let temporary = url.deletingLastPathComponent()
      .appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).tmp").path
    // Registered before it exists, so that no moment is left where an interrupt would leave it behind.
    let cleanup = InterruptCleanup.register([temporary])
    defer { InterruptCleanup.release(cleanup) }
    let descriptor = open(temporary, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { throw OutputError(errno) }
    var isOpen = true
    do {
      try produce { buffer in
        var offset = 0
        while offset < buffer.count, let base = buffer.baseAddress {
          let written = write(descriptor, base + offset, buffer.count - offset)
          if written < 0 {
            if errno == EINTR { continue }
            throw OutputError(errno)
          }
          offset += written
        }
      }
      if fsync(descriptor) != 0 { throw OutputError(errno) }
      isOpen = false
      if close(descriptor) != 0 { throw OutputError(errno) }
      if rename(temporary, path) != 0 { throw OutputError(errno) }
    } catch {
      if isOpen { close(descriptor) }
      unlink(temporary)
      throw error
    }
  }

  struct OutputError: Error, CustomStringConvertible {
    let code: Int32
    init(_ code: Int32) { self.code = code }
    var description: String { String(cString: strerror(code)) }
  }
}
