import Foundation

/// Golden-file comparison: `Tests/<Target>/Golden/<name>`. Set `RECORD_GOLDEN=1` to (re)write them; a
/// recording run reports a failure so that it never passes silently.
public enum Golden {
  public enum Outcome: Equatable {
    case matches
    case recorded(path: String)
    case differs(expected: String, actual: String, path: String)
  }

  /// Compares `actual` with the golden file `Tests/<testTarget>/Golden/<name>`.
  public static func compare(_ actual: String, testTarget: String, name: String) throws -> Outcome {
    let url = Fixtures.repositoryRoot.appendingPathComponent("Tests").appendingPathComponent(testTarget)
      .appendingPathComponent("Golden").appendingPathComponent(name)
    let record = ProcessInfo.processInfo.environment["RECORD_GOLDEN"] == "1"
    if record || !FileManager.default.fileExists(atPath: url.path) {
      try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try actual.write(to: url, atomically: true, encoding: .utf8)
      return .recorded(path: url.path)
    }
    let expected = try String(contentsOf: url, encoding: .utf8)
    return expected == actual ? .matches : .differs(expected: expected, actual: actual, path: url.path)
  }
}
