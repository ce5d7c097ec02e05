import Adal2MSAL
import ArgumentParser
import Foundation

@main
struct Adal2MSALCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "adal2msal",
    abstract: "Migrate ADAL token caches into the MSAL unified cache, offline, with a dry run and a diff report.",
    discussion: """
      Reads ADAL caches (iOS keychain dumps, macOS ADAL blobs, archived items, Azure CLI / ADAL Python, ADAL Node \
      and ADAL.NET v3 caches) and MSAL unified-cache JSON (also MSAL.NET v2 dictionary caches), \
      plans each token into the MSAL unified cache without a network call, shows the plan as a diff report, \
      and writes it to a SQLite store in one transaction. Tokens are only ever shown as sha256 fingerprints.

      Start with: adal2msal migrate --adal DUMP --dry-run

      \(ExitStatus.helpText)
      """,
    version: ToolVersion.current,
    subcommands: [Migrate.self, Inspect.self, Accounts.self, Export.self, Import.self]
  )

  /// ArgumentParser's entry point, after a mistyped subcommand has been answered with the one meant.
  static func main() async {
    Terminal.reserveClosedStreams()
    AllocatorTuning.apply(environment: ProcessInfo.processInfo.environment)
    if let message = ArgumentBytes.refusal(ArgumentBytes.given) {
      Terminal.standardError(message)
      exit(withError: ExitStatus.failure)
    }
    if let message = SubcommandSuggestion.message(for: Array(CommandLine.arguments.dropFirst())) {
      for line in message.split(separator: "\n") { Terminal.standardError(String(line)) }
      exit(withError: ExitStatus.usage)
    }
    do {
      var command = try parseAsRoot()
      if var asynchronous = command as? AsyncParsableCommand {
        try await asynchronous.run()
      } else {
        try command.run()
      }
    } catch {
      exit(withError: ArgumentParserOutput.checked(error, arguments: Array(CommandLine.arguments.dropFirst())))
    }
  }
}

/// ArgumentParser prints help, the version and completion scripts itself and exits 0 whether or not the text was
/// written: a completion script generated onto a full disk would be an empty file and a success. These go through
/// `Terminal.standardOutput`, as every other output does, and a failed write is the one-line error and status 1.
enum ArgumentParserOutput {
  /// What ArgumentParser would have printed, written here: the error to exit with (`ExitStatus.success` once the
  /// text is written; ArgumentParser's own errors, which it prints to standard error, unchanged).
  static func checked(_ error: any Error, arguments: [String]) -> any Error {
    guard Adal2MSALCommand.exitCode(for: error) == .success else { return error }
    let text = Adal2MSALCommand.fullMessage(for: error)
    guard !text.isEmpty else { return error }
    do {
      try Terminal.standardOutput(text + "\n", what: what(arguments))
      return ExitStatus.success
    } catch {
      return commandFailure(error)
    }
  }

  /// The name of the text the arguments ask for, for the error.
  static func what(_ arguments: [String]) -> String {
    func given(_ option: String) -> Bool { arguments.contains { $0 == option || $0.hasPrefix(option + "=") } }
    if given("--generate-completion-script") { return "the completion script" }
    if given("--version") { return "the version" }
    if given("--experimental-dump-help") { return "the help's description" }
    return "the help"
  }
}

/// `adal2msal migrat`: ArgumentParser says only "Unexpected argument"; this names the subcommand meant.
enum SubcommandSuggestion {
  static var names: [String] {
    Adal2MSALCommand.configuration.subcommands.map { $0._commandName } + ["help"]
  }

  /// The usage error for a first argument that is no subcommand but close to one (at most two edits); nil for
  /// anything else, which ArgumentParser answers.
  static func message(for arguments: [String]) -> String? {
    guard let first = arguments.first, !first.hasPrefix("-"), !names.contains(first) else { return nil }
    let nearest = names.map { ($0, distance(first.lowercased(), $0)) }.min { $0.1 < $1.1 }
    guard let (name, edits) = nearest, edits <= 2 else { return nil }
    return "Error: Unknown subcommand '\(first)'. Did you mean '\(name)'?\n"
      + "Usage: adal2msal <subcommand>\n  See 'adal2msal --help' for more information."
  }

  /// The Levenshtein distance.
  static func distance(_ a: String, _ b: String) -> Int {
    let a = Array(a)
    let b = Array(b)
    var previous = Array(0...b.count)
    for (i, x) in a.enumerated() {
      var current = [i + 1]
      for (j, y) in b.enumerated() {
        current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
      }
      previous = current
    }
    return previous[b.count]
  }
}
