import Foundation

/// Reading an input file with the size limit checked before any byte is read: the one way every stage and
/// subcommand loads its inputs.
package enum InputFile {
  /// Reads the whole file. Throws `InputFileError` naming the file when it is missing, a directory, larger
  /// than `limits.maxInputBytes`, or unreadable.
  package static func read(_ path: String, limits: InputLimits = .default) throws -> Data {
    try readReleasable(path, limits: limits).data
  }

  /// `read`, with the pages of the bytes that a reader may give back as it consumes them (`InputPages`): nil
  /// when the bytes could not be read into memory of their own (they were then read as `read` did before), or
  /// when the file holds fewer than `minimumBytes` (read into the heap: a mapping of its own, made and unmapped
  /// for each of a fleet's small dumps, flushed every core's cached address translations each time).
  package static func readReleasable(_ path: String, limits: InputLimits = .default, pagesFrom minimumBytes: Int = 0)
    throws -> (data: Data, pages: InputPages?)
  {
    var status = stat()
    guard stat(path, &status) == 0 else { throw statFailure(path, code: errno) }
    guard status.st_mode & S_IFMT != S_IFDIR else { throw InputFileError(path: path, problem: .isDirectory) }
    // A FIFO or a device (/dev/zero) may never end, and opening a FIFO waits for a writer: refused unopened.
    if let kind = OwnerOnlyFile.nonRegularKind(path) { throw InputFileError(path: path, problem: .notRegular(kind)) }
    let size = size(of: path)
    guard size <= limits.maxInputBytes else {
      throw InputFileError(path: path, problem: .tooLarge(size: size, limit: limits.maxInputBytes))
    }
    try checkOpening(path, size: size)
    let read: (data: Data, pages: InputPages?)
    if let mapped = MappedInput.read(path, pagesFrom: minimumBytes) {
      read = (mapped.data, mapped.pages)
    } else if size == 0, let bytes = readUnsized(path, limit: limits.maxInputBytes) {
      guard bytes.count <= limits.maxInputBytes else {
        throw InputFileError(path: path, problem: .tooLargeUnsized(limit: limits.maxInputBytes))
      }
      read = (bytes, nil)
    } else {
      // Whatever kept the file from being read above: the system's error when it cannot be opened, else as
      // Foundation says it.
      let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
      guard descriptor >= 0 else {
        throw InputFileError(path: path, problem: .unreadable(reason: FileNameBytes.systemError(errno)))
      }
      close(descriptor)
      do {
        read = (try Data(contentsOf: URL(fileURLWithPath: path), options: .mappedIfSafe), nil)
      } catch {
        throw InputFileError(path: path, problem: .unreadable(reason: (error as NSError).localizedDescription))
      }
    }
    // The file may have grown between the check and the read.
    guard read.data.count <= limits.maxInputBytes else {
      throw InputFileError(path: path, problem: .tooLarge(size: read.data.count, limit: limits.maxInputBytes))
    }
    return read
  }

  /// Why `stat` of the input `path` failed with `code`: missing (`ENOENT`), named by a directory walk under the
  /// escaped name of a file whose name is not UTF-8 (`FileNameBytes`), or the system's own error (a loop of
  /// symbolic links, a path too long, a permission denied), never "no such file" for those.
  static func statFailure(_ path: String, code: Int32) -> InputFileError {
    guard code == ENOENT else {
      return InputFileError(path: path, problem: .unreadable(reason: FileNameBytes.systemError(code)))
    }
    if let kind = FileNameBytes.undecodableEntry(path) {
      return InputFileError(path: path, problem: .nameNotUTF8(kind: kind))
    }
    return InputFileError(path: path, problem: .missing)
  }

  /// Reads a file whose size says 0 to its end, or to one byte past `limit` (which the caller refuses): a /proc or
  /// /sys file holds any number of bytes, and Foundation's `Data(contentsOf:)` returns only its first read (3,787
  /// of /proc/self/smaps's 78,780 bytes). Opened non-blocking, as `MappedInput` opens, so that a file that would
  /// wait for data is unreadable rather than a hang. Nil when it cannot be opened or read.
  private static func readUnsized(_ path: String, limit: Int) -> Data? {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    guard descriptor >= 0 else { return nil }
    let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
    var bytes = Data()
    while bytes.count <= limit {
      let chunk: Data?
      do { chunk = try handle.read(upToCount: min(1 << 20, limit + 1 - bytes.count)) } catch { return nil }
      // The end of the file reads as nil or as no bytes.
      guard let chunk, !chunk.isEmpty else { break }
      bytes.append(chunk)
    }
    return bytes
  }

  /// How many leading bytes `checkOpening` reads.
  package static let openingBytes = 4096

  /// Refuses, from its first bytes, a file that no reader accepts whatever follows: one that opens with
  /// `openingBytes` zero bytes (or is zero bytes throughout), as a disk image, a sparse file or a copy of
  /// /dev/zero does. Every input format starts with a header or text (`bplist`, `<?xml`, `{`, `[`, a
  /// byte-order mark), so such a file is not a cache, and reading it whole (a gigabyte costs gigabytes) is
  /// not needed to say so.
  static func checkOpening(_ path: String, size: Int) throws {
    guard size > 0, let handle = FileHandle(forReadingAtPath: path) else { return }
    defer { try? handle.close() }
    let opening = (try? handle.read(upToCount: openingBytes)) ?? Data()
    if !opening.isEmpty, opening.allSatisfy({ $0 == 0 }) {
      throw InputFileError(path: path, problem: .zeroFilled(count: opening.count))
    }
  }

  /// Whether the existing file `path` is one of the files `inputs` stand for, a directory standing for the files
  /// a run reads of it (`expandMarkingDirectories`): the same file, through links too.
  package static func isAmong(_ path: String, inputs: [String]) -> Bool {
    guard let target = FileIdentity(path), case .existing = target else { return false }
    let files = (try? expandMarkingDirectories(inputs).entries.map(\.path)) ?? inputs
    return files.contains { FileIdentity($0) == target }
  }

  /// The files a run reads of a directory (`InputDirectory`): in it and in its subdirectories, not hidden,
  /// sorted by path, so that runs over a directory are deterministic; `runFiles` passed over.
  package static func files(inDirectory path: String, passingOver runFiles: [String] = []) throws -> [String] {
    try InputDirectory(listing: path, passingOver: runFiles).files
  }

  /// `expand`, each path marked with whether it came from a directory (a fleet: a bad file there is skipped,
  /// not the end of the run), and what the run says of its inputs: the directories' diagnostics
  /// (`InputDirectory.diagnostics`) and a warning for each file given again (`repeatedFileCode`).
  ///
  /// A file is read once, however often it is given (by name, through a directory, through a link): it is
  /// listed where it was first given, and counted as named directly if it was named directly anywhere.
  package static func expandMarkingDirectories(_ paths: [String], passingOver runFiles: [String] = []) throws -> (
    entries: [(path: String, inDirectory: Bool)], diagnostics: [Diagnostic]
  ) {
    var entries: [(path: String, inDirectory: Bool)] = []
    var diagnostics: [Diagnostic] = []
    var positions: [FileIdentity: Int] = [:]
    func add(_ path: String, inDirectory: Bool) {
      guard let identity = FileIdentity(path), case .existing = identity else {
        entries.append((path, inDirectory))  // a missing file is named by its reader
        return
      }
      guard let first = positions[identity] else {
        positions[identity] = entries.count
        entries.append((path, inDirectory))
        return
      }
      entries[first].inDirectory = entries[first].inDirectory && inDirectory
      let given = entries[first].path
      let message = given == path ? "given again: read once" : "the same file as \(given), given before: read once"
      diagnostics.append(Diagnostic(.warning, code: repeatedFileCode, message, at: SourceLocation(file: path)))
    }
    for path in paths {
      guard FileIdentity.isDirectory(path) else {
        add(path, inDirectory: false)
        continue
      }
      let directory = try InputDirectory(listing: path, passingOver: runFiles)
      for file in directory.files { add(file, inDirectory: true) }
      diagnostics += directory.diagnostics
    }
    return (entries, diagnostics)
  }

  /// The code of the warning that names a file given again.
  package static let repeatedFileCode = "input.repeated-file"

  /// Paths as given, with every directory replaced by its files (`InputDirectory`); files keep their given order.
  package static func expand(_ paths: [String], passingOver runFiles: [String] = []) throws -> [String] {
    try expandMarkingDirectories(paths, passingOver: runFiles).entries.map(\.path)
  }

  /// The size the system gives for `path` (of the file a link names), without opening it; 0 when it gives none.
  /// By `stat`: `FileManager.attributesOfItem` also looked up the owner's and group's names (3% of a run of many
  /// small dumps).
  package static func size(of path: String) -> Int {
    var status = stat()
    guard stat(path, &status) == 0 else { return 0 }
    return Int(status.st_size)
  }

  /// The bytes of the files `expand` gives, by their sizes now; a path that cannot be listed or sized counts
  /// nothing (the run that reads it says why). For settings made before a run (`AllocatorTuning.fitTopPad`).
  package static func totalBytes(of paths: [String]) -> Int {
    paths.flatMap { (try? expand([$0])) ?? [] }.reduce(0) { $0 + size(of: $1) }
  }
}

/// An input file that cannot be used at all.
public struct InputFileError: Error, LocalizedError, CustomStringConvertible, Sendable, Hashable {
  /// Why the file cannot be used.
  public enum Problem: Sendable, Hashable {
    case missing
    case isDirectory
    case tooLarge(size: Int, limit: Int)
    /// A file whose size the system does not give (a /proc file) held more than `limit` bytes when read.
    case tooLargeUnsized(limit: Int)
    case unreadable(reason: String)
    /// A FIFO, a device or a socket (`kind` says which).
    case notRegular(String)
    /// The first `count` bytes are all zero: not any input format.
    case zeroFilled(count: Int)
    /// The name is not UTF-8 (`path` shows each byte that is not as `\xFF`): `kind` says what is there ("a
    /// file", "a directory"…).
    case nameNotUTF8(kind: String)
  }

  public var path: String
  public var problem: Problem

  public init(path: String, problem: Problem) {
    self.path = path
    self.problem = problem
  }

  public var description: String {
    switch problem {
    case .missing: "\(path): no such file"
    case .isDirectory: "\(path): is a directory, expected a file"
    case .tooLarge(let size, let limit):
      "\(path): the file is \(size) bytes, larger than the input limit of \(limit) bytes"
    case .tooLargeUnsized(let limit):
      "\(path): the file holds more than the input limit of \(limit) bytes (the system gives no size for it)"
    case .unreadable(let reason): "\(path): cannot read the file: \(reason)"
    case .notRegular(let kind):
      "\(path): is \(kind), not a regular file; adal2msal reads only regular files (copy the input to a file first)"
    case .zeroFilled(let count):
      "\(path): the first \(count) bytes are all zero, which no keychain dump, ADAL blob, archive or unified-cache "
        + "JSON is; give the cache file itself"
    case .nameNotUTF8(let kind):
      "\(path): not read: \(kind) whose name is not UTF-8 (each byte that is not is shown as \\xHH); adal2msal "
        + "reads only UTF-8 paths: rename it to read it"
    }
  }

  public var errorDescription: String? { description }
}
