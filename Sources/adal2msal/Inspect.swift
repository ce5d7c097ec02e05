import Adal2MSAL
import ArgumentParser

extension Adal2MSALCommand {
  struct Inspect: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Show what a file is and what it holds.")

    @Argument(help: "The file to inspect.")
    var file: String

    func run() async throws {
      throw ValidationError("inspect is not available yet")
    }
  }
}
