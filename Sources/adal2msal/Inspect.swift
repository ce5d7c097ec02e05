import Adal2MSAL
import ArgumentParser
import Foundation

extension Adal2MSALCommand {
  struct Inspect: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Show what a file is and what it holds.",
      discussion: """
        Recognises binary and XML property lists and NSKeyedArchiver archives (with their root class). \
        Tokens and secrets are shown as sha256 fingerprints unless --show-secrets is given.
        """)

    enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
      case text, json
    }

    @Argument(help: "The file to inspect.")
    var file: String

    @Option(help: "Output format: text or json.")
    var format: OutputFormat = .text

    @Flag(help: "Print tokens and secrets instead of their fingerprints.")
    var showSecrets = false

    func run() async throws {
      let inspection: PropertyListInspection
      do {
        let limits = InputLimits.default
        let data = try readInput(limit: limits.maxInputBytes)
        inspection = try PropertyListInspection.inspect(data, file: file, limits: limits)
      } catch let error as PropertyListError {
        throw fail(error.messageWithPlace)
      } catch {
        throw fail(error.localizedDescription)
      }
      switch format {
      case .text: print(PropertyListRendering.text(inspection, showSecrets: showSecrets), terminator: "")
      case .json: print(PropertyListRendering.json(inspection, showSecrets: showSecrets), terminator: "")
      }
    }

    private func readInput(limit: Int) throws -> Data {
      let url = URL(fileURLWithPath: file)
      let size = try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int ?? 0
      guard size <= limit else { throw InspectError("file is \(size) bytes, larger than the limit of \(limit)") }
      return try Data(contentsOf: url, options: .mappedIfSafe)
    }

    /// Prints the one-line error; the caller throws the returned exit status 1.
    private func fail(_ message: String) -> ExitCode {
      FileHandle.standardError.write(Data("adal2msal: error: \(file): \(message)\n".utf8))
      return ExitCode(1)
    }
  }
}

private struct InspectError: LocalizedError {
  var message: String
  init(_ message: String) { self.message = message }
  var errorDescription: String? { message }
}
