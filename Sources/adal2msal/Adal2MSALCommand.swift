import Adal2MSAL
import ArgumentParser

@main
struct Adal2MSALCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "adal2msal",
    abstract: "Migrate ADAL token caches into the MSAL unified cache, offline, with a dry run and a diff report.",
    version: ToolVersion.current,
    subcommands: [Migrate.self, Inspect.self, Accounts.self, Export.self, Import.self]
  )
}
