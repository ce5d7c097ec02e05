import Foundation
import _Adal2MSALTestSupport

/// Running the built `adal2msal` (beside the test bundle, as `BuiltProducts` finds it) the way a user does, for
/// the end-to-end tests: which subcommands this build has, how each manifest command is spelled, and a bounded
/// run.
enum CLI {
  /// The binary `swift build` produced beside the tests that run (so that a build with other settings, such as
  /// `scripts/tsan.sh`'s, runs its own binary), else `.build/debug/adal2msal`, whose absence the run then names.
  static let binary =
    BuiltProducts.url("adal2msal") ?? Fixtures.repositoryRoot.appendingPathComponent(".build/debug/adal2msal")

  /// A run that takes longer than this is a hang: the process is killed and the test fails.
  static let hangTimeout: TimeInterval = 30

  /// How each command of Fixtures/bad/manifest.json (and of the leak and fault tables) is spelled on the
  /// command line: the subcommand, then the arguments for one input file and an output store. The integrator
  /// enables `migrate` by building it; nothing here changes.
  static func arguments(_ command: String, input: String, out: String) -> [String]? {
    switch command {
    case "inspect": ["inspect", input]
    case "import": ["import", input, "--out", out]
    case "migrate-adal": ["migrate", "--adal", input, "--out", out]
    case "migrate-msal": ["migrate", "--msal", input, "--out", out]
    default: nil
    }
  }

  /// The subcommand a manifest command runs (`migrate-adal` → `migrate`).
  static func subcommand(_ command: String) -> String {
    command.split(separator: "-").first.map(String.init) ?? command
  }

  /// Runs the binary with a hang timeout.
  static func run(
    _ arguments: [String], in directory: URL? = nil, environment: [String: String]? = nil
  ) throws -> ProcessRunner.Output {
    try ProcessRunner.run(
      binary, arguments: arguments, environment: environment, currentDirectory: directory, timeout: hangTimeout)
  }

  /// Runs the binary through `bash -c` (for `ulimit`), with the arguments quoted.
  static func runInShell(
    prefix: String, _ arguments: [String], in directory: URL? = nil
  ) throws -> ProcessRunner.Output {
    let quoted = ([binary.path] + arguments).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
    return try ProcessRunner.run(
      URL(fileURLWithPath: "/bin/bash"), arguments: ["-c", prefix + "; exec " + quoted.joined(separator: " ")],
      currentDirectory: directory, timeout: hangTimeout)
  }

  /// What is wrong with a failing run's output, against the error contract: status 1, nothing on standard
  /// output, exactly one line on standard error starting `adal2msal: error:` that contains every `expected`
  /// substring, no signal, no hang. Empty when the run kept the contract.
  static func contractViolations(_ output: ProcessRunner.Output, expected: [String]) -> [String] {
    var problems: [String] = []
    if output.timedOut { problems.append("hung: killed after \(Int(hangTimeout)) s") }
    if output.terminatedBySignal { problems.append("crashed with signal \(output.exitCode)") }
    if output.exitCode != 1 { problems.append("exit status \(output.exitCode), expected 1") }
    if !output.stdout.isEmpty { problems.append("printed on standard output: \(output.stdout.prefix(200))") }
    let lines = output.stderr.split(separator: "\n", omittingEmptySubsequences: false)
    let body = output.stderr.hasSuffix("\n") ? lines.dropLast() : lines[...]
    if body.count != 1 {
      problems.append("\(body.count) lines on standard error, expected 1: \(output.stderr.prefix(400))")
    }
    if !output.stderr.hasPrefix("adal2msal: error: ") {
      problems.append("standard error does not start with `adal2msal: error: `: \(output.stderr.prefix(200))")
    }
    for substring in expected where !output.stderr.contains(substring) {
      problems.append("the error does not contain \"\(substring)\": \(output.stderr.prefix(400))")
    }
    return problems
  }
}
