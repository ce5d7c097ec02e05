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
  /// The bytes read by one worker at a time: large enough that a read is mostly copying, small enough that the
  /// cores share the file evenly.
  static let chunkBytes = 8 << 20

  /// The file's bytes (as many as its size when opened; fewer if it shrank meanwhile) and their pages, or for a
  /// file of fewer than `minimumBytes`, its bytes read into the heap and no pages; nil when the file cannot be
  /// opened or read, is not a regular file once opened, its size is zero, or memory cannot be had.
  static func read(_ path: String, pagesFrom minimumBytes: Int = 0) -> (data: Data, pages: InputPages?)? {
    // Non-blocking, as Foundation opens it: a FIFO put in the file's place since it was checked does not wait.
    let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
    let size = Int(status.st_size)
    // A size of zero may be a file whose size the system does not know (/proc): `InputFile` reads it to its end.
    guard size > 0 else { return nil }
    if size < minimumBytes {
      guard let base = malloc(size) else { return nil }
      guard let count = readChunks(descriptor, size: size, into: base) else {
        free(base)
        return nil
      }
      return (Data(bytesNoCopy: base, count: count, deallocator: .free), nil)
    }
    let pageSize = Int(getpagesize())
    let length = (size + pageSize - 1) / pageSize * pageSize
    guard let base = mmap(nil, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
      base != MAP_FAILED
    else { return nil }
    // Not advised for huge pages: where a VM's balloon reports free memory to its host, it reports free blocks of
    // 2 MiB, which the host must give back at their first touch; a 40k-item run after the machine sat idle spent
    // 0.3 s more of system time in huge pages than in pages of 4 KiB, and run after run the two took the same time
    // (docs/benchmarks.md, "Huge pages for the input").
    guard let count = readChunks(descriptor, size: size, into: base) else {
      munmap(base, length)
      return nil
    }
    let data = Data(bytesNoCopy: base, count: count, deallocator: .custom { _, _ in munmap(base, length) })
    return (data, InputPages(data, base: base))
  }

  /// Reads the file's first `size` bytes into `base`, `chunkBytes` at a time on every core: copying a large
  /// dump from the page cache, and the page faults of the memory it goes to, kept one core busy while the
  /// other waited (0.17 s of a 40k-item dry run). Returns how many bytes were read from the start on (fewer
  /// than `size` when the file shrank), or nil on an error.
  private static func readChunks(_ descriptor: Int32, size: Int, into base: UnsafeMutableRawPointer) -> Int? {
    let chunks = (size + chunkBytes - 1) / chunkBytes
    let got = UnsafeMutableBufferPointer<Int>.allocate(capacity: chunks)
    defer { got.deallocate() }
    // Each worker writes only its own chunk's bytes and slot.
    nonisolated(unsafe) let (slots, target) = (got.baseAddress!, base)
    // One chunk (most files) is read here: handed to `concurrentPerform`, it woke the other cores for nothing.
    let readChunk: @Sendable (Int) -> Void = { chunk in
      let start = chunk * chunkBytes
      let end = min(size, start + chunkBytes)
      var done = 0
      while start + done < end {
        let result = pread(descriptor, target + start + done, end - start - done, off_t(start + done))
        if result > 0 {
          done += result
        } else if result == 0 {
          break
        } else if errno != EINTR {
          done = -1
          break
        }
      }
      slots[chunk] = done
    }
    if chunks == 1 { readChunk(0) } else { DispatchQueue.concurrentPerform(iterations: chunks, execute: readChunk) }
    var count = 0
    for chunk in 0..<chunks {
      guard got[chunk] >= 0 else { return nil }
      count += got[chunk]
      // A short chunk is where the file ended: what later chunks read lies past it.
      if got[chunk] < min(size, (chunk + 1) * chunkBytes) - chunk * chunkBytes { break }
    }
    return count
  }
}
