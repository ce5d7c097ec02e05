#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writing a file descriptor whole: the one `write(2)` loop of an output written front to back (a staged report
/// or export, standard output and standard error).
package enum DescriptorWrite {
  /// Writes every byte of `bytes` to `descriptor`, again after a signal: nil, or the system's error number.
  package static func all(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) -> Int32? {
    var offset = 0
    while offset < bytes.count, let base = bytes.baseAddress {
      let written = write(descriptor, base + offset, bytes.count - offset)
      if written < 0 {
        if errno == EINTR { continue }
        return errno
      }
      offset += written
    }
    return nil
  }
}
