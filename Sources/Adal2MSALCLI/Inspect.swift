import Adal2MSAL
import ArgumentParser
import Foundation

extension Adal2MSALCommand {
  struct Inspect: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Show what a file is and what it holds.",
      discussion: """
        Recognises, by content: ADAL keychain dumps (plist or JSON), macOS ADAL blobs and archived ADAL items \
        (one line per item: kind, user, client, authority, resource, expiry, token fingerprints); MSAL \
        unified-cache JSON (one line per entity); any other binary or XML property list or NSKeyedArchiver \
        archive (its decoded tree). Tokens are shown as sha256 fingerprints unless --show-secrets is given.

        Examples:
          adal2msal inspect device-keychain.plist
          adal2msal inspect msal_cache.json --format json
        """)

    @Argument(help: "The file to inspect.", transform: PathArgument.nonEmpty)
    var file: String

    @Option(help: "Output format: text or json.")
    var format: Inspection.Format = .text

    @Flag(
      help:
        "Print tokens and secrets instead of their fingerprints, and, with --format json, the values of fields this tool does not model."
    )
    var showSecrets = false

    func run() async throws {
      try await runReportingFailures {
        var inspection = Inspection(file: file, revealSecrets: showSecrets)
        inspection.fileNames = fileNames
        let output = try inspection.render(format)
        // The one place text output is made safe for a terminal (JSON escapes control characters itself).
        try Terminal.standardOutput(format == .text ? TerminalText.escaped(output) : output, what: "the inspection")
      }
    }
  }
}

extension Inspection.Format: ExpressibleByArgument {}
