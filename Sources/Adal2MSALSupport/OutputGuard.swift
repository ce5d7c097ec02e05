import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Checks, before anything is written, that no output of a run destroys one of the run's own files.
///
/// Every file a run reads (inputs, the store, the key file) is given with `reading`, every file it writes
/// (a report, an export, the store) with `writing`; `check()` then refuses an output that is the same file as
/// any other of them (device and inode after following links, so hard links and symlinks count; two new paths
/// are compared by their resolved directory and name) and an output that exists but is not a regular file
/// (a directory, a device such as `/dev/null`, a FIFO, a socket): a run renames its output into place, which
/// would replace the device or the other file. An output named `-` is refused: a run takes standard output as
/// no path (`ReportDestination.stream`, `ExportRun.output` nil), never as a file named `-`.
package struct OutputGuard: Sendable {
  private var reads: [RunFile] = []
  private var writes: [RunFile] = []
  /// The outputs that are the run's store, which may be a database already.
  private var stores: [String] = []

  package init() {}

  /// A file the run reads. A directory stands for the files in it, `runFiles` passed over (as the readers expand
  /// it).
  package mutating func reading(_ path: String?, as role: String, passingOver runFiles: [String] = []) {
    guard let path else { return }
    if FileIdentity.isDirectory(path) {
      for file in (try? InputFile.files(inDirectory: path, passingOver: runFiles)) ?? [] {
        reads.append(RunFile(role: role, path: file))
      }
    } else {
      reads.append(RunFile(role: role, path: path))
    }
  }

  /// A file the run writes (a run given standard output for an output has no path for it).
  package mutating func writing(_ path: String?, as role: String) {
    guard let path else { return }
    writes.append(RunFile(role: role, path: path))
  }

  /// A SQLite store the run writes: the file and its side files (`-wal`, `-shm`, `-journal`), which no other
  /// output may be either. `storeName` names the store in its side files' roles (`the --out store`).
  package mutating func writingStore(_ path: String, as role: String, storeName: String) {
    writing(path, as: role)
    stores.append(path)
    readingSideFiles(of: path, storeName: storeName)
  }

  /// A SQLite store the run only reads: the file and its side files, which no output may be.
  package mutating func readingStore(_ path: String, as role: String) {
    reads.append(RunFile(role: role, path: path))
    readingSideFiles(of: path, storeName: role)
  }

  private mutating func readingSideFiles(of store: String, storeName: String) {
    for suffix in StoreFileMarker.sideFileSuffixes {
      reads.append(RunFile(role: "\(storeName)'s \(suffix) file", path: store + suffix))
    }
  }

  /// Throws `OutputPathError` for the first output that is not a regular file or a new path, or that is the
  /// same file as another file of the run.
  package func check() throws(OutputPathError) {
    var seen: [(entry: RunFile, identity: FileIdentity)] = []
    for read in reads {
      if let identity = FileIdentity(read.path) { seen.append((read, identity)) }
    }
    for output in writes {
      if output.path == "-" { throw OutputPathError(output, .standardOutput) }
      if let kind = FileIdentity.nonRegularKind(output.path) { throw OutputPathError(output, .notRegular(kind)) }
      let identity = FileIdentity(output.path)
      if let identity, let clash = seen.first(where: { $0.identity == identity }) {
        throw OutputPathError(output, .sameFile(as: clash.entry))
      }
      // A report or an export replaces its file: over another store (or another application's database), a
      // mistyped path destroyed it.
      if !stores.contains(output.path), StoreFileMarker.holdsSQLite(output.path) {
        throw OutputPathError(output, .database)
      }
      guard let identity else { continue }
      seen.append((output, identity))
    }
  }
}

/// Which file a path is: device and inode for an existing file, the resolved directory and name for a new one.
package enum FileIdentity: Hashable, Sendable {
  case existing(device: UInt64, inode: UInt64)
  case new(String)

  package init?(_ path: String) {
    var info = stat()
    if stat(path, &info) == 0 {
      self = .existing(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
      return
    }
    let url = URL(fileURLWithPath: path)
    let directory = url.deletingLastPathComponent().path
    guard let resolved = realpath(directory, nil) else { return nil }
    defer { free(resolved) }
    self = .new(String(cString: resolved) + "/" + url.lastPathComponent)
  }

  /// Whether `path` names a directory (after following links).
  static func isDirectory(_ path: String) -> Bool {
    var info = stat()
    return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
  }

  /// Whether `path` is a symbolic link (not followed).
  static func isLink(_ path: String) -> Bool {
    var info = stat()
    return lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFLNK
  }

  /// What an existing path is when it is not a regular file (after following links); nil for a regular or
  /// missing file.
  static func nonRegularKind(_ path: String) -> String? {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    switch info.st_mode & S_IFMT {
    case S_IFREG: return nil
    case S_IFDIR: return "a directory"
    case S_IFCHR: return "a character device"
    case S_IFBLK: return "a block device"
    case S_IFIFO: return "a FIFO (named pipe)"
    case S_IFSOCK: return "a socket"
    default: return "not a regular file"
    }
  }
}

/// One file of a run: what the run calls it (`--report`, `the ADAL input`) and its path.
public struct RunFile: Sendable, Hashable {
  public var role: String
  public var path: String

  public init(role: String, path: String) {
    self.role = role
    self.path = path
  }
}

/// An output path that a run refuses before it reads or writes anything.
public struct OutputPathError: Error, LocalizedError, CustomStringConvertible, Sendable, Hashable {
  /// Why the output is refused.
  public enum Problem: Sendable, Hashable {
    /// The output is the same file as another file of the run (an input, the store, the key, another output).
    case sameFile(as: RunFile)
    /// The output exists and is a directory, a device, a FIFO or a socket.
    case notRegular(String)
    /// `-` for an output that cannot be standard output (a store).
    case standardOutput
    /// A report or an export whose path is an SQLite database: an adal2msal store or another application's.
    case database
  }

  /// The refused output.
  public var output: RunFile
  public var problem: Problem

  package init(_ output: RunFile, _ problem: Problem) {
    self.output = output
    self.problem = problem
  }

  public var description: String {
    let name = "\(output.role) \(output.path)"
    switch problem {
    case .sameFile(let other):
      return "\(name) is the same file as \(other.role) \(other.path): writing it would destroy that file; "
        + "nothing was written; give another path"
    case .notRegular(let kind):
      return "\(name) is \(kind), not a regular file: nothing was written; give the path of a new or regular file"
    case .standardOutput:
      return "\(name): this output cannot be standard output; nothing was written; give a file path"
    case .database:
      return "\(name) is an SQLite database (an adal2msal store or another application's): writing it would "
        + "destroy it; nothing was written; give another path"
    }
  }

  public var errorDescription: String? { description }
}
