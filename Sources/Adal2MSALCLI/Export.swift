import Adal2MSAL
import ArgumentParser
import Foundation

extension Adal2MSALCommand {
  struct Export: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Write a store as the cache an MSAL library loads.",
      discussion: """
        Writes every account, credential and app metadata entry, with the fields and top-level sections this \
        tool does not model. With --for, every entry gets exactly the key and field spellings that library \
        computes, so that its refresh replaces the refresh token and its sign-out removes every entry of the \
        user; entries that library keys alike are named on standard error (for MSAL Python, an app's refresh \
        token and the family refresh token of the same client, whatever their targets: the family token is kept, \
        and when the two are different tokens the export is partial, exit status 2); so is an access token \
        without expires_on, which MSAL Python, Java and Node cannot load and MSAL ObjC would serve as never \
        expiring: left out, exit status 2. MSAL Node keys \
        a user's Accounts in several tenants alike but keeps them as one: --for node writes the home tenant's with \
        tenantProfiles listing every tenant, nothing left out. For MSAL.NET, Java, Node and ObjC every entry goes \
        under its cloud's cache host (login.windows.net for the public cloud; ADFS and B2C hosts kept), where \
        those libraries write a refresh's tokens; of two entries that then share a key, the one already there is \
        kept. For MSAL.NET, an app's refresh token that is its family refresh token is written once, as the \
        family token. Without --for, \
        entries keep the keys and spellings they were imported with, and entities migrated from ADAL get the \
        MSAL.NET / Java keys. --for objc writes MSAL ObjC keychain items as JSON for a device-side importer \
        (docs/objc-keychain-import.md). The output holds tokens in clear: a file is created with mode 0600 and \
        replaced atomically.

        Example:
          adal2msal export cache.sqlite --for python --output msal_token_cache.json
        """)

    enum ExportFormat: String, ExpressibleByArgument, CaseIterable {
      case msalJSON = "msal-json"
    }

    @Argument(help: "The SQLite store (written by migrate or import).", transform: PathArgument.nonEmpty)
    var cache: String

    @Option(help: "Output format: msal-json (the unified cache JSON).")
    var format: ExportFormat = .msalJSON

    @Option(
      name: .customLong("for"),
      help: ArgumentHelp(
        "The MSAL library that will load the export: dotnet, python, java, node, go or objc.",
        discussion: "Without it, entries keep the keys and spellings they were imported with.",
        valueName: "library"))
    var library: MSALLibrary?

    @Option(
      help: "Write to this file (mode 0600, atomically) instead of standard output; `-` is standard output.",
      transform: PathArgument.nonEmpty)
    var output: String?

    @Option(
      help: "The key of an encrypted store: 32 raw bytes, 64 hex digits or base64 (or set ADAL2MSAL_ENCRYPTION_KEY).",
      transform: PathArgument.nonEmpty)
    var encryptionKeyFile: String?

    func run() async throws {
      let written = output.flatMap { $0 == "-" ? nil : $0 }
      let exported: CacheExport
      do {
        let sealing = try StoreCommandSupport.sealing(keyFile: encryptionKeyFile)
        var export = ExportRun(store: cache, library: library, output: written, sealing: sealing)
        export.fileNames = fileNames
        exported = try export.run()
      } catch let error as CacheStoreError {
        throw StoreCommandSupport.fail(error, file: cache)
      } catch {
        throw commandFailure(error)
      }
      DiagnosticLines.print(exported.diagnostics)
      if written == nil {
        do {
          try Terminal.standardOutput(exported.data, what: "the export")
        } catch {
          throw commandFailure(error)
        }
      }
      if exported.entriesLeftOut > 0 {
        DiagnosticLines.printLeftOut(exported.entriesLeftOut, of: "the export")
        throw ExitStatus.partial
      }
    }
  }
}
