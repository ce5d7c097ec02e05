import ArgumentParser
import Foundation

/// What the benchmarks that spawn `adal2msal migrate` share: where inputs are kept, and which binary runs.
struct EndToEndBenchOptions: ParsableArguments {
  @Option(help: "Where generated inputs are kept between runs (default: a folder in the temporary directory).")
  var workDir: String?

  @Option(help: "The adal2msal binary (default: the one next to this executable).")
  var migrate: String?

  /// The work directory, a fresh scratch directory inside it (the caller removes it), and the checked binary.
  func prepare() throws -> (work: URL, scratch: URL, binary: String) {
    let work = URL(
      fileURLWithPath: workDir
        ?? FileManager.default.temporaryDirectory.appendingPathComponent("adal2msal-bench-inputs").path)
    let scratch = work.appendingPathComponent("scratch-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    let binary = migrate ?? BenchChild.migrateBinary
    guard FileManager.default.isExecutableFile(atPath: binary) else {
      try? FileManager.default.removeItem(at: scratch)
      throw ValidationError(
        "no adal2msal at \(binary): build it (bash scripts/release/build.sh --product adal2msal) or pass --migrate")
    }
    return (work, scratch, binary)
  }

  /// How `binary` has the Swift runtime, for the figures' header: a binary that loads it names `libswiftCore` (as
  /// a needed library on Linux, a load command on macOS); one built with `--static-swift-stdlib` never does.
  static func swiftRuntime(of binary: String) -> String {
    guard let bytes = try? Data(contentsOf: URL(fileURLWithPath: binary), options: .alwaysMapped) else {
      return "unknown (the binary cannot be read)"
    }
    return bytes.range(of: Data("libswiftCore".utf8)) == nil
      ? "linked in (--static-swift-stdlib)" : "shared libraries"
  }
}
