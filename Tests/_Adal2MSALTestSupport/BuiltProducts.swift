import Foundation

/// The package's built executables, for tests that run them as a user would.
public enum BuiltProducts {
  /// The executable `name` (`adal2msal`, `adal2msal-bench`): next to the running test bundle in
  /// `.build/<triple>/<config>/`, else `.build/debug/`.
  public static func url(_ name: String) -> URL? {
    let candidates = [
      URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(name),
      Fixtures.repositoryRoot.appendingPathComponent(".build/debug/\(name)"),
    ]
    return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
  }

  /// The MSAL Python oracle's interpreter: `ADAL2MSAL_PYTHON`, else `.venv-oracle/bin/python` (made by
  /// `scripts/bootstrap.sh --test-oracles`).
  public static var oraclePython: URL {
    if let path = ProcessInfo.processInfo.environment["ADAL2MSAL_PYTHON"], !path.isEmpty {
      return URL(fileURLWithPath: path)
    }
    return Fixtures.repositoryRoot.appendingPathComponent(".venv-oracle/bin/python")
  }
}
