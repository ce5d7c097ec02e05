import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads a regular file into an anonymous mapping of its own, whose pages `InputPages` can give back one by
/// one (memory from malloc cannot be given back in part). The bytes are copied in, not mapped from the file:
/// a file that changes or shrinks after the read does not change them.
enum MappedInput {
  #if canImport(Glibc)
    private static let readBytes = Glibc.read
  #elseif canImport(Darwin)
    private static let readBytes = Darwin.read
  #endif

  /// The file's bytes (as many as its size when opened; fewer if it shrank meanwhile) and their pages; nil
  /// when the file cannot be opened or read, is not a regular file once opened, its size is zero, or memory
  /// cannot be mapped.
  static func read(_ path: String) -> (data: Data, pages: InputPages)? {
    // Non-blocking, as Foundation opens it: a FIFO put in the file's place since it was checked does not wait.
    let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
    let size = Int(status.st_size)
    // A size of zero may be a file whose size the system does not know (/proc): read as Foundation reads it.
    guard size > 0 else { return nil }
    let pageSize = Int(getpagesize())
    let length = (size + pageSize - 1) / pageSize * pageSize
    guard let base = mmap(nil, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
      base != MAP_FAILED
    else { return nil }
    var count = 0
    while count < size {
      let got = readBytes(descriptor, base + count, size - count)
      if got > 0 {
        count += got
      } else if got == 0 {
        break
      } else if errno != EINTR {
        munmap(base, length)
        return nil
      }
    }
    let data = Data(bytesNoCopy: base, count: count, deallocator: .custom { _, _ in munmap(base, length) })
    return (data, InputPages(data, base: base))
  }
}
