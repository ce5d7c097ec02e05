import Adal2MSAL
import ArgumentParser
import Foundation

/// Prints the one-line error every subcommand uses, `adal2msal: error: <what>`, and returns the failure
/// status to throw. Messages come from the library's errors, which carry the file and the place and never a
/// secret; a hint says what to do.
func commandFailure(_ error: any Error, hint: String? = nil) -> ExitCode {
  let message: String
  if let store = error as? CacheStoreError {
    message = store.inCommandLineWords.description
  } else if let localized = error as? LocalizedError, let description = localized.errorDescription {
    message = description
  } else {
    message = String(describing: error)
  }
  var line = "adal2msal: error: " + message.replacingOccurrences(of: "\n", with: " ")
  if let hint { line += " (\(hint))" }
  Terminal.standardError(line)
  return ExitStatus.failure
}

/// Runs `body`; any error becomes the one-line message and exit status 1. ArgumentParser's own exits
/// (help, usage errors, explicit exit codes) pass through.
func runReportingFailures<T>(hint: String? = nil, _ body: () async throws -> T) async throws -> T {
  do {
    return try await body()
  } catch let exit as ExitCode {
    throw exit
  } catch let error as CleanExit {
    throw error
  } catch let error as ValidationError {
    throw error
  } catch {
    throw commandFailure(error, hint: hint)
  }
}
