import Adal2MSAL
import ArgumentParser
import Foundation

extension Adal2MSALCommand {
  struct Export: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Write a store as unified-cache JSON that the MSAL libraries load.",
      discussion: """
        Writes every account, credential and app metadata entry, with the fields and top-level sections this \
        tool does not model, in the MSAL.NET / Python layout. The output holds tokens in clear: a file is \
        created with mode 0600 and replaced atomically.

        Example:
          adal2msal export cache.sqlite --output msal_cache.json
        """)

    enum ExportFormat: String, ExpressibleByArgument, CaseIterable {
      case msalJSON = "msal-json"
    }

    @Argument(help: "The SQLite store (written by migrate or import).")
    var cache: String

    @Option(help: "Output format: msal-json (the unified cache JSON).")
    var format: ExportFormat = .msalJSON

    @Option(help: "Write to this file (mode 0600, atomically) instead of standard output; `-` is standard output.")
    var output: String?

    @Option(help: "The key of an encrypted store: 32 raw bytes, 64 hex digits or base64 (or set ADAL2MSAL_ENCRYPTION_KEY).")
    var encryptionKeyFile: String?

    func run() async throws {
      try await runReportingFailures { try checkOutputs() }
      let data: Data
      do {
        let sealing = try StoreCommandSupport.sealing(keyFile: encryptionKeyFile)
        let store = try CacheStore.open(path: cache, options: .reading(sealing: sealing))
        data = try store.exportJSON()
      } catch {
        throw StoreCommandSupport.fail(error, file: cache)
      }
      guard let output, output != "-" else {
        FileHandle.standardOutput.write(data)
        return
      }
      do {
        try StoreCommandSupport.writeOwnerOnly(data, to: output)
      } catch {
        throw StoreCommandSupport.fail(
          "cannot write the export (\(error))", file: output, todo: "check that the directory exists and is writable")
      }
    }
  }
}
