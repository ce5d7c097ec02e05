// Prints the usable size of a 1 MiB block allocated after an 8 MiB block was freed, in a process of its own:
// whether glibc maps a block separately depends on its heaps' free space, which a test process shares with every
// test running beside it. With `--tuned` the command's allocator setting (`AllocatorTuning`) is made first.
import Adal2MSALSupport

#if canImport(Glibc)
  import CMalloc
  import Glibc

  if CommandLine.arguments.contains("--tuned"), !AllocatorTuning.apply(environment: [:]) {
    fatalError("mallopt refused the threshold")
  }
  let megabyte = 1 << 20
  // By glibc's default, freeing this mapped block raises the size it maps separately to the block's.
  free(malloc(8 * megabyte))
  guard let block = malloc(megabyte) else { fatalError("out of memory") }
  print(malloc_usable_size(block))
  free(block)
#else
  print("no glibc")
#endif
