// Reports on glibc's allocator in a process of its own, where no test running beside it has used its heaps. With
// `--tuned` the command's allocator settings (`AllocatorTuning`) are made first, and with `--fit-to BYTES` the top
// pad a migration of that many input bytes sets (`AllocatorTuning.fitTopPad`). Prints one number:
// - by default, the usable size of a 1 MiB block allocated after an 8 MiB block was freed (whether glibc maps a
//   block separately depends on its heaps' free space);
// - with `--new-heap`, how many bytes of the heap a new thread's first small block comes from are writable
//   (glibc makes a thread's heap writable as it grows, by at least its top pad).
import Adal2MSALSupport

#if canImport(Glibc)
  import CMalloc
  import Foundation
  import Glibc

  if CommandLine.arguments.contains("--tuned"), !AllocatorTuning.apply(environment: [:]) {
    fatalError("mallopt refused a setting")
  }
  if let flag = CommandLine.arguments.firstIndex(of: "--fit-to"), CommandLine.arguments.indices.contains(flag + 1) {
    guard let inputBytes = Int(CommandLine.arguments[flag + 1]),
      AllocatorTuning.fitTopPad(toInputBytes: inputBytes, environment: [:])
    else { fatalError("--fit-to takes a byte count, and mallopt must take the pad") }
  }

  /// The length of the mapping in /proc/self/maps that holds `address`.
  func mappingLength(holding address: UInt) -> UInt? {
    guard let maps = try? String(contentsOfFile: "/proc/self/maps", encoding: .utf8) else { return nil }
    for line in maps.split(separator: "\n") {
      let bounds = line.prefix { $0 != " " }.split(separator: "-").compactMap { UInt($0, radix: 16) }
      if bounds.count == 2, bounds[0] <= address, address < bounds[1] { return bounds[1] - bounds[0] }
    }
    return nil
  }

  if CommandLine.arguments.contains("--new-heap") {
    // The main thread allocates from glibc's main arena; the first thread started gets a heap of its own.
    nonisolated(unsafe) var address: UInt = 0
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
      address = UInt(bitPattern: malloc(64))
      done.signal()
    }
    thread.start()
    done.wait()
    guard let length = mappingLength(holding: address) else { fatalError("no mapping holds the block") }
    print(length)
  } else {
    let megabyte = 1 << 20
    // By glibc's default, freeing this mapped block raises the size it maps separately to the block's.
    free(malloc(8 * megabyte))
    guard let block = malloc(megabyte) else { fatalError("out of memory") }
    print(malloc_usable_size(block))
    free(block)
  }
#else
  print("no glibc")
#endif
