import Foundation
import Testing
import _Adal2MSALTestSupport

/// What a new user meets first: the help of every subcommand, and the committed completion scripts.
@Suite struct HelpAndCompletionTests {
  static let subcommands = ["migrate", "inspect", "accounts", "export", "import"]

  func adal2msal(_ arguments: [String]) throws -> ProcessRunner.Output {
    let binary = try #require(BuiltProducts.url("adal2msal"), "adal2msal not built: run swift build --build-tests")
    return try ProcessRunner.run(binary, arguments: arguments)
  }

  @Test func theRootHelpListsEverySubcommandAndTheExitStatuses() throws {
    let help = try adal2msal(["--help"])
    #expect(help.exitCode == 0)
    for name in Self.subcommands { #expect(help.stdout.contains("  \(name) "), "\(name) missing") }
    for status in ["0   every item migrated", "1   failure, nothing written", "2   written, but", "64  usage error"] {
      #expect(help.stdout.contains(status), "exit status line '\(status)' missing")
    }
  }

  /// An empty path (`--out "$STORE"` with the variable unset) is a usage error naming the option, for every path
  /// a command takes: read as a path, it failed later with an empty name (": no such file"), and `--azure-cli-dir
  /// ""` said "--azure-cli-dir  is not a directory".
  @Test(arguments: [
    (["inspect", ""], "'<file>'"),
    (["accounts", ""], "'<cache>'"),
    (["accounts", "s.sqlite", "--encryption-key-file", ""], "'--encryption-key-file <encryption-key-file>'"),
    (["export", ""], "'<cache>'"),
    (["export", "s.sqlite", "--output", ""], "'--output <output>'"),
    (["import", "a.json", "", "--out", "s.sqlite"], "'<files>'"),
    (["import", "a.json", "--out", ""], "'--out <out>'"),
    (["migrate", "--adal", "a.plist", "", "--dry-run"], "'--adal <file-or-directory>'"),
    (["migrate", "--msal", "", "--dry-run"], "'--msal <file-or-directory>'"),
    (["migrate", "--adal", "a.plist", "--out", ""], "'--out <cache.sqlite>'"),
    (["migrate", "--adal", "a.plist", "--dry-run", "--report", ""], "'--report <file>'"),
    (["migrate", "--adal", "a.plist", "--out", "s.sqlite", "--azure-cli-dir", ""], "'--azure-cli-dir <dir>'"),
    (
      ["migrate", "--adal", "a.plist", "--out", "s.sqlite", "--encryption-key-file", ""],
      "'--encryption-key-file <file>'"
    ),
  ])
  func anEmptyPathIsAUsageError(arguments: [String], option: String) throws {
    let run = try adal2msal(arguments)
    #expect(run.exitCode == 64, "\(run.stderr)")
    #expect(run.stderr.hasPrefix("Error: The value '' is invalid for \(option): the path is empty\n"), "\(run.stderr)")
  }

  @Test func aMistypedSubcommandGetsTheOneMeant() throws {
    let typo = try adal2msal(["migrat", "--adal", "x"])
    #expect(typo.exitCode == 64)
    #expect(typo.stderr.contains("Did you mean 'migrate'?"), "\(typo.stderr)")
    let far = try adal2msal(["frobnicate"])
    #expect(far.exitCode == 64 && !far.stderr.contains("Did you mean"), "\(far.stderr)")
  }

  @Test(arguments: subcommands)
  func everySubcommandHasAnOverviewAnExampleAndHelpForEveryOption(_ name: String) throws {
    let help = try adal2msal(["help", name])
    #expect(help.exitCode == 0)
    #expect(help.stdout.hasPrefix("OVERVIEW: "))
    #expect(help.stdout.contains("Example"), "no example in `\(name) --help`")
    #expect(help.stdout.contains("adal2msal \(name) "), "the example does not show the command")
    // Each option line in OPTIONS is followed by its help text on the same or the next line.
    let options = help.stdout.components(separatedBy: "OPTIONS:").last ?? ""
    let lines = options.split(separator: "\n", omittingEmptySubsequences: false)
    for (index, line) in lines.enumerated() where line.hasPrefix("  -") {
      let sameLine = line.trimmingCharacters(in: .whitespaces).contains("  ")
      let nextLine = index + 1 < lines.count && lines[index + 1].hasPrefix("        ")
      #expect(sameLine || nextLine, "option without help in \(name): \(line)")
    }
  }

  @Test(arguments: [("bash", "adal2msal.bash"), ("zsh", "_adal2msal"), ("fish", "adal2msal.fish")])
  func theCommittedCompletionScriptsMatchTheBinary(_ shell: String, _ file: String) throws {
    let generated = try adal2msal(["--generate-completion-script", shell])
    #expect(generated.exitCode == 0)
    let committed = try String(
      contentsOf: Fixtures.repositoryRoot.appendingPathComponent("docs/completions/\(file)"), encoding: .utf8)
    #expect(generated.stdout == committed, "docs/completions/\(file) is stale: run scripts/generate-docs.sh")
  }

  @Test func theManPageCoversEverySubcommand() throws {
    let page = try String(
      contentsOf: Fixtures.repositoryRoot.appendingPathComponent("docs/man/adal2msal.1"), encoding: .utf8)
    for name in Self.subcommands { #expect(page.contains(".It Em \(name)"), "\(name) missing from the man page") }
  }
}
