import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Bytes set aside for later (a report assembled in plan order from parts made in another order): kept in
/// memory up to `memoryLimit`, then in a temporary file, created with mode 0600 and unlinked at once, so it
/// never outlives the process, even one that is killed. Closed when the value goes.
package final class SpillFile {
  /// The directory the file is made in, once the bytes outgrow memory.
  package let directory: String
  private let memoryLimit: Int
  private var memory: [UInt8] = []
  private var file: (path: String, descriptor: Int32)?
  /// Bytes appended so far: the offset of the next append.
  package private(set) var size = 0

  /// - Parameter memoryLimit: how many bytes stay in memory before the file is made (small runs never make it).
  package init(directory: String = NSTemporaryDirectory(), memoryLimit: Int = 16 << 20) {
    self.directory = directory
    self.memoryLimit = memoryLimit
  }

  deinit { if let file { close(file.descriptor) } }

  /// Appends `bytes`; returns the offset they start at.
  @discardableResult
  package func append(_ bytes: [UInt8]) throws(SpillFileError) -> Int {
    let offset = size
    if file == nil, memory.count + bytes.count <= memoryLimit {
      memory += bytes
    } else {
      if file == nil {
        try openFile()
        try write(memory, at: 0)
        memory = []
      }
      try write(bytes, at: offset)
    }
    size += bytes.count
    return offset
  }

  /// The `count` bytes at `offset`.
  package func read(at offset: Int, count: Int) throws(SpillFileError) -> [UInt8] {
    guard count > 0 else { return [] }
    guard let file else { return Array(memory[offset..<offset + count]) }
    var bytes = [UInt8](repeating: 0, count: count)
    var done = 0
    while done < count {
      let result = bytes.withUnsafeMutableBytes { buffer in
        pread(file.descriptor, buffer.baseAddress! + done, count - done, off_t(offset + done))
      }
      if result < 0, errno == EINTR { continue }
      guard result > 0 else {
        throw SpillFileError(path: file.path, operation: "read", errno: result < 0 ? errno : EIO)
      }
      done += result
    }
    return bytes
  }

  private func openFile() throws(SpillFileError) {
    let path = (directory as NSString).appendingPathComponent("adal2msal-spill-\(UUID().uuidString)")
    let descriptor = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { throw SpillFileError(path: path, operation: "create", errno: errno) }
    unlink(path)
    file = (path, descriptor)
  }

  private func write(_ bytes: [UInt8], at offset: Int) throws(SpillFileError) {
    guard let file else { return }
    var written = 0
    while written < bytes.count {
      let result = bytes.withUnsafeBytes { buffer in
        pwrite(file.descriptor, buffer.baseAddress! + written, buffer.count - written, off_t(offset + written))
      }
      if result < 0 {
        if errno == EINTR { continue }
        throw SpillFileError(path: file.path, operation: "write", errno: errno)
      }
      written += result
    }
  }
}

/// A temporary file that could not be created, written or read back (a full disk, most often).
public struct SpillFileError: Error, LocalizedError, Sendable, Hashable {
  public var path: String
  public var operation: String
  public var errno: Int32

  public var errorDescription: String? {
    "cannot \(operation) the temporary file \(path), where the report is put together (\(String(cString: strerror(errno))))"
  }
}
