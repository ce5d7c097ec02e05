import Adal2MSAL
import ArgumentParser
import Foundation

extension Adal2MSALCommand {
  struct Accounts: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "List the accounts of a store, or find one by username or home account id.",
      discussion: """
        Looks accounts up as MSAL's accountForUsername / accountForIdentifier do: the username trimmed and \
        case-insensitive (with --environment, any host of the same cloud matches, e.g. login.microsoftonline.com \
        finds login.windows.net), the home account id case-insensitive. Exits with status 1 when a --username or \
        --identifier lookup matches nothing; a listing, with or without --environment, exits 0.

        Example:
          adal2msal accounts cache.sqlite --username alice@contoso.com --environment login.microsoftonline.com
        """)

    enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
      case text, json
    }

    @Argument(help: "The SQLite store (written by migrate or import).", transform: PathArgument.nonEmpty)
    var cache: String

    @Option(help: "Only the accounts with this username (UPN), trimmed and case-insensitive.")
    var username: String?

    @Option(help: "Only the accounts with this home_account_id (<uid>.<utid>), case-insensitive.")
    var identifier: String?

    @Option(help: "Only accounts in the cloud of this host (any alias of it), e.g. login.microsoftonline.com.")
    var environment: String?

    @Option(help: "Output format: text (an aligned table) or json (an array of MSAL account objects).")
    var format: OutputFormat = .text

    @Flag(
      help:
        "With --format json, print the values of account fields this tool does not model (shown by name and size otherwise; the text table lists none)."
    )
    var showSecrets = false

    @Option(
      help: "The key of an encrypted store: 32 raw bytes, 64 hex digits or base64 (or set ADAL2MSAL_ENCRYPTION_KEY).",
      transform: PathArgument.nonEmpty)
    var encryptionKeyFile: String?

    func validate() throws {
      if username != nil && identifier != nil {
        throw ValidationError("give --username or --identifier, not both")
      }
      // An unset variable (`--username "$USER_NAME"`) would look up nothing, or narrow the listing to nothing; a
      // value of spaces is empty once trimmed, as the lookup trims it.
      for (option, value) in [("--username", username), ("--identifier", identifier), ("--environment", environment)]
      where value?.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty == true {
        throw ValidationError("\(option) is empty: give the value to look for")
      }
      // An authority URL matched no account's host, and said nothing.
      if let environment, environment.contains(where: { "/:".contains($0) }) {
        let host = URL(string: environment)?.host.map { ": give \($0)" } ?? ""
        throw ValidationError("--environment takes a host, not a URL\(host)")
      }
    }

    func run() async throws {
      var found: [UnifiedAccount]
      do {
        let sealing = try StoreCommandSupport.sealing(keyFile: encryptionKeyFile)
        let store = try CacheStore.open(path: cache, options: .reading(sealing: sealing))
        if let username {
          found = try store.accountsForUsername(username, environment: environment)
        } else if let identifier {
          found = try store.accountsForIdentifier(identifier)
        } else {
          found = try store.allAccounts()
        }
      } catch {
        throw StoreCommandSupport.fail(error, file: cache)
      }
      if let environment, username == nil {
        found = found.filter { EnvironmentAliases.areAliases($0.environment, environment) }
      }
      if found.isEmpty, let wanted = username ?? identifier {
        let what = username != nil ? "username" : "identifier"
        let cloud = environment.map { " (in the cloud of \($0))" } ?? ""
        Terminal.standardError("adal2msal: error: \(cache): no account for \(what) \(wanted)\(cloud)")
        throw ExitStatus.failure
      }
      let listing: String
      switch format {
      case .json:
        let shown = showSecrets ? found : found.map(UnknownValues.withholding)
        listing = JSONText.pretty(.array(shown.map { .object(UnifiedEntityJSON.object(for: $0)) })) + "\n"
      case .text:
        listing = Self.table(found)
      }
      do {
        try Terminal.standardOutput(listing, what: "the accounts")
      } catch {
        throw commandFailure(error)
      }
    }

    /// An aligned table, one account per line, with a header.
    static func table(_ accounts: [UnifiedAccount]) -> String {
      let header = ["USERNAME", "HOME_ACCOUNT_ID", "ENVIRONMENT", "REALM", "AUTHORITY_TYPE", "LOCAL_ACCOUNT_ID"]
      let cells = accounts.map {
        [
          $0.username ?? "-", $0.homeAccountID, $0.environment, $0.realm, $0.authorityType ?? "-",
          $0.localAccountID ?? "-",
        ]
      }
      // Cells come from the store, which came from input files: escaped before widths are measured.
      let rows = cells.map { $0.map { TerminalText.escaped($0, keepingNewlines: false) } }
      var widths = header.map(\.count)
      for row in rows { for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) } }
      return ([header] + rows).map { row in
        row.enumerated().map { index, cell in
          index == row.count - 1 ? cell : cell.padding(toLength: widths[index], withPad: " ", startingAt: 0)
        }.joined(separator: "  ") + "\n"
      }.joined()
    }
  }
}
