import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A temporary file that large intermediate output goes to instead of memory (a report assembled in plan order
/// from parts made in another order). Created with mode 0600 in the temporary directory and unlinked at once,
/// so it never outlives the process, even one that is killed; closed when the value goes.
public final class SpillFile {
  /// The path it was created at (for error messages; the name is gone from the directory).
  public let path: String
  private let descriptor: Int32
  /// Bytes written so far: the offset of the next write.
  public private(set) var size = 0

  public init(directory: String = NSTemporaryDirectory()) throws(SpillFileError) {
    let path = (directory as NSString).appendingPathComponent("adal2msal-spill-\(UUID().uuidString)")
    let descriptor = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { throw SpillFileError(path: path, operation: "create", errno: errno) }
    unlink(path)
    self.path = path
    self.descriptor = descriptor
  }

  deinit { close(descriptor) }

  /// Appends `bytes`; returns the offset they start at.
  @discardableResult
  public func append(_ bytes: [UInt8]) throws(SpillFileError) -> Int {
    let offset = size
    var written = 0
    while written < bytes.count {
      let result = bytes.withUnsafeBytes { buffer in
        pwrite(descriptor, buffer.baseAddress! + written, buffer.count - written, off_t(offset + written))
      }
      if result < 0 {
        if errno == EINTR { continue }
        throw SpillFileError(path: path, operation: "write", errno: errno)
      }
      written += result
    }
    size += bytes.count
    return offset
  }

  /// The `count` bytes at `offset`.
  public func read(at offset: Int, count: Int) throws(SpillFileError) -> [UInt8] {
    guard count > 0 else { return [] }
    var bytes = [UInt8](repeating: 0, count: count)
    var done = 0
    while done < count {
      let result = bytes.withUnsafeMutableBytes { buffer in
        pread(descriptor, buffer.baseAddress! + done, count - done, off_t(offset + done))
      }
      if result < 0, errno == EINTR { continue }
      guard result > 0 else {
        throw SpillFileError(path: path, operation: "read", errno: result < 0 ? errno : EIO)
      }
      done += result
    }
    return bytes
  }
}

/// A temporary file that could not be created, written or read back (a full disk, most often).
public struct SpillFileError: Error, LocalizedError, Sendable, Hashable {
  public var path: String
  public var operation: String
  public var errno: Int32

  public var errorDescription: String? {
    "cannot \(operation) the temporary file \(path) (\(String(cString: strerror(errno))))"
  }
}
