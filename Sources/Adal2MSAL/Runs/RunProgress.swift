import Adal2MSALSupport
import Foundation

/// Where a run is, for a progress display: the stage, and how far it got in the stage's unit.
///
/// A migration reads its inputs (`reading`: files and bytes), plans them (`planning`: ADAL items), writes the
/// store (`writing`: rows) and its report (`reporting`); a run planned in parts reads, plans and writes each
/// part in turn. Handlers are called from any thread, often: keep them cheap.
public struct RunProgress: Sendable, Hashable {
  /// What the run is doing.
  public enum Stage: String, Sendable, Hashable, CaseIterable {
    /// Another adal2msal run writes a store in the same directory: this one waits for it.
    case waiting
    /// Reading and decoding the input files (`done`/`total` are bytes, `files`/`totalFiles` files).
    case reading
    /// Mapping the ADAL items and planning them against the store (`done`/`total` are items).
    case planning
    /// Writing the plan's rows to the store (`done` rows written, `total` rows planned so far).
    case writing
    /// Writing the report.
    case reporting
  }

  public var stage: Stage
  /// Units done in this stage: bytes when reading, items when planning, rows when writing.
  public var done: Int
  /// Units in all, when known.
  public var total: Int?
  /// Files read, when reading.
  public var files = 0
  /// Files to read, when reading.
  public var totalFiles = 0

  public init(stage: Stage, done: Int = 0, total: Int? = nil, files: Int = 0, totalFiles: Int = 0) {
    self.stage = stage
    self.done = done
    self.total = total
    self.files = files
    self.totalFiles = totalFiles
  }
}

/// Receives a run's progress (`RunProgress`), from any thread.
public typealias RunProgressHandler = @Sendable (RunProgress) -> Void

/// Counts the bytes and files a run's readers finish, on several cores at once, and reports each file.
final class ReadingProgress: @unchecked Sendable {
  private let lock = NSLock()
  private let sizes: [String: Int]
  private let handler: RunProgressHandler?
  private var bytes = 0
  private var files = 0
  private let totalBytes: Int

  /// The sizes of the files `paths` expands to (directories listed, `runFiles` passed over), read with `stat`.
  init(paths: [String], passingOver runFiles: [String] = [], handler: RunProgressHandler?) {
    var sizes: [String: Int] = [:]
    if handler != nil, let expanded = try? InputFile.expand(paths, passingOver: runFiles) {
      for path in expanded {
        sizes[path] = InputFile.size(of: path)
      }
    }
    self.sizes = sizes
    self.handler = handler
    totalBytes = sizes.values.reduce(0, +)
  }

  /// Reports the start of the stage.
  func start() {
    handler?(RunProgress(stage: .reading, done: 0, total: totalBytes, files: 0, totalFiles: sizes.count))
  }

  /// Notes a file read (or given up on).
  func finished(_ path: String) {
    guard let handler else { return }
    let progress = lock.withLock {
      bytes += sizes[path] ?? 0
      files += 1
      return RunProgress(stage: .reading, done: bytes, total: totalBytes, files: files, totalFiles: sizes.count)
    }
    handler(progress)
  }
}
