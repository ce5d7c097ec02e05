import Foundation

/// Paths into the repository for tests: the bundled `Fixtures/` and golden files.
public enum Fixtures {
  /// The repository root, found from this file's location (tests run from the source tree).
  public static let repositoryRoot: URL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// `Fixtures/<relativePath>`.
  public static func url(_ relativePath: String) -> URL {
    repositoryRoot.appendingPathComponent("Fixtures").appendingPathComponent(relativePath)
  }

  /// The bytes of `Fixtures/<relativePath>`.
  public static func data(_ relativePath: String) throws -> Data {
    try Data(contentsOf: url(relativePath))
  }

  /// Every file below `Fixtures/<directory>`, sorted by path.
  public static func files(in directory: String, withExtension ext: String? = nil) throws -> [URL] {
    let root = url(directory)
    guard let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey])
    else { return [] }
    var found: [URL] = []
    for case let file as URL in enumerator {
      let isFile = (try? file.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) ?? false
      if isFile, ext == nil || file.pathExtension == ext { found.append(file) }
    }
    return found.sorted { $0.path < $1.path }
  }

  /// A fresh temporary directory, inside the test process's own one (`ScratchRoot`), which goes when the process
  /// exits: the stores and reports tests write hold (made-up) tokens, and thousands were left behind a run.
  public static func temporaryDirectory(_ name: String = "adal2msal-test") throws -> URL {
    let dir = ScratchRoot.url.appendingPathComponent("\(name)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    return dir
  }
}

/// The test process's temporary directory, removed at its exit (`atexit`). A test that crashes the process
/// leaves it, for a look at what it wrote.
enum ScratchRoot {
  static let url: URL = {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent(
      "adal2msal-tests-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)")
    atexit { ScratchRoot.remove() }
    return root
  }()

  /// Removes the directory, first making writable what tests made read-only (to see writes refused).
  static func remove() {
    let files = FileManager.default
    if let paths = files.enumerator(atPath: url.path) {
      for case let path as String in paths {
        try? files.setAttributes([.posixPermissions: 0o700], ofItemAtPath: url.appendingPathComponent(path).path)
      }
    }
    try? files.removeItem(at: url)
  }
}

/// The real cache files of many writers in `../shared/realworld/` (beside the clone, as CI has it), read in place.
public enum RealWorldCaches {
  public static let directory: URL = Fixtures.repositoryRoot.deletingLastPathComponent()
    .appendingPathComponent("shared/realworld")

  public static func url(_ name: String) -> URL { directory.appendingPathComponent(name) }
}
