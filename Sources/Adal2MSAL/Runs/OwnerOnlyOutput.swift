import Adal2MSALSupport
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Files that hold tokens or their fingerprints (exports, reports, Azure CLI files): created owner-only (mode
/// 0600) and replaced atomically, so that a reader sees the old file or the whole new one, never a part.
public enum OwnerOnlyOutput {
  /// Writes `data` to `path` atomically with mode 0600 (see `write(to:_:)`).
  public static func write(_ data: Data, to path: String) throws {
    try write(to: path) { write in try data.withUnsafeBytes(write) }
  }

  /// Writes what `produce` hands its `write` function, in order, to `path` atomically with mode 0600: a new
  /// owner-only temporary file in the same directory, flushed to disk, then renamed over the target. If
  /// anything fails, or SIGINT, SIGTERM or SIGHUP arrives (`InterruptCleanup`), the temporary file is removed and the
  /// target is untouched.
  public static func write(
    to path: String, _ produce: (_ write: (UnsafeRawBufferPointer) throws -> Void) throws -> Void
  ) throws {
    let staged = Staged(path)
    do {
      try staged.write(produce)
      try staged.publish()
    } catch {
      staged.discard()
      throw error
    }
  }

  /// An owner-only temporary file beside `path`, written whole and flushed to disk by `write`, renamed over
  /// `path` by `publish` or removed by `discard`: for an output that must appear only once something else
  /// (a store's commit) has succeeded. It is removed if SIGINT, SIGTERM or SIGHUP arrives before either.
  final class Staged: Sendable {
    let path: String
    let temporary: String
    private let cleanup: InterruptCleanup.Registration

    init(_ path: String) {
      let url = URL(fileURLWithPath: path)
      self.path = path
      temporary =
        url.deletingLastPathComponent()
        .appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).tmp").path
      // Registered before it exists, so that no moment is left where an interrupt would leave it behind.
      cleanup = InterruptCleanup.register([temporary])
    }

    /// Creates the temporary file (it must not exist) with what `produce` hands its `write` function, and
    /// flushes it to disk: each part is sent on its way as it is written (`Writeback`) and made durable a few
    /// megabytes at a time on another thread (`FlushAhead`), the `fsync` at the end waits for the rest. On failure
    /// the file is removed.
    func write(_ produce: (_ write: (UnsafeRawBufferPointer) throws -> Void) throws -> Void) throws {
      let descriptor = open(temporary, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
      guard descriptor >= 0 else { throw SystemError(errno) }
      var isOpen = true
      let flushes = FlushAhead(descriptor)
      do {
        var fileOffset = 0
        try produce { buffer in
          if let code = DescriptorWrite.all(buffer, to: descriptor) { throw SystemError(code) }
          Writeback.start(descriptor, offset: fileOffset, count: buffer.count)
          fileOffset += buffer.count
          do throws(SyncFailure) { try flushes.wrote(buffer.count) } catch { throw SystemError(error.code) }
        }
        do throws(SyncFailure) { try flushes.finish() } catch { throw SystemError(error.code) }
        if fsync(descriptor) != 0 { throw SystemError(errno) }
        isOpen = false
        if close(descriptor) != 0 { throw SystemError(errno) }
      } catch {
        try? flushes.finish()  // its flush holds the descriptor until it returns
        if isOpen { close(descriptor) }
        unlink(temporary)
        throw error
      }
    }

    /// Renames the written file over `path`.
    func publish() throws {
      defer { InterruptCleanup.release(cleanup) }
      if rename(temporary, path) != 0 {
        let error = SystemError(errno)
        unlink(temporary)
        throw error
      }
    }

    /// Removes the temporary file, whatever it holds; `path` is left as it was.
    func discard() {
      unlink(temporary)
      InterruptCleanup.release(cleanup)
    }
  }

  /// The most a buffered write waits for.
  static let bufferSize = 1 << 20

  /// `produce`'s parts gathered into writes of up to `bufferSize` bytes: a report's user section is a few
  /// hundred bytes, and a write of each would be a system call each.
  public static func buffered(
    _ produce: (_ write: (UnsafeRawBufferPointer) throws -> Void) throws -> Void,
    into write: (UnsafeRawBufferPointer) throws -> Void
  ) throws {
    var pending: [UInt8] = []
    pending.reserveCapacity(bufferSize)
    // `write` is only called during `produce`, never kept.
    try withoutActuallyEscaping(write) { write in
      try produce { part in
        if pending.count + part.count > bufferSize, !pending.isEmpty {
          try pending.withUnsafeBytes(write)
          pending.removeAll(keepingCapacity: true)
        }
        if part.count >= bufferSize { try write(part) } else { pending.append(contentsOf: part) }
      }
      if !pending.isEmpty { try pending.withUnsafeBytes(write) }
    }
  }

  /// A failed system call, by its `errno` text.
  public struct SystemError: Error, LocalizedError, CustomStringConvertible, Sendable, Hashable {
    public let code: Int32
    init(_ code: Int32) { self.code = code }
    public var description: String { String(cString: strerror(code)) }
    public var errorDescription: String? { description }
  }
}

/// A run's output that could not be written (a report, an export, an Azure CLI file): what, where and what to
/// do, in the one-line form the command line prints (`<file>: <what>; <what to do>`).
public struct RunOutputError: Error, LocalizedError, CustomStringConvertible, Sendable, Hashable {
  /// What failed, with the system's reason.
  public var what: String
  /// The file it was written to.
  public var file: String
  /// What to do about it.
  public var remedy: String

  public init(_ what: String, file: String, remedy: String) {
    self.what = what
    self.file = file
    self.remedy = remedy
  }

  public var description: String { "\(file): \(what); \(remedy)" }
  public var errorDescription: String? { description }
}
