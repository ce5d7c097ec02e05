import Adal2MSAL
import ArgumentParser

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

      Start with: adal2msal migrate --adal DUMP --out cache.sqlite --dry-run

      \(ExitStatus.helpText)
      """,
    version: ToolVersion.current,
    subcommands: [Migrate.self, Inspect.self, Accounts.self, Export.self, Import.self]
  )
}
