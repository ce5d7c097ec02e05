import Adal2MSAL
import ArgumentParser
import Foundation

/// What the store subcommands (`accounts`, `export`, `import`) share: the key and the one-line error.
enum StoreCommandSupport {
  /// The sealing key from `--encryption-key-file`, else from `ADAL2MSAL_ENCRYPTION_KEY`, else none. A key
  /// file that its group or others may read is a warning, or with `strict` an error.
  static func sealing(keyFile: String?, strict: Bool = false) throws(CacheStoreError) -> SecretSealing? {
    guard let keyFile else { return try SecretSealing.fromEnvironment() }
    // Only a regular file's mode says who can read the key (a device is refused by `keyFile(at:)`).
    if OwnerOnlyFile.nonRegularKind(keyFile) == nil, let status = OwnerOnlyFile.status(keyFile), status.isOpenToOthers {
      let problem = "the key file is \(status.modeDescription): anyone who can read it can read the store's tokens"
      let remedy = "run chmod 600 \(keyFile)"
      if strict {
        throw CacheStoreError(
          .badKey, problem + " (refused with --strict)", remedy: remedy, at: SourceLocation(file: keyFile))
      }
      Terminal.standardError("adal2msal: warning: \(keyFile): \(problem); \(remedy)")
    }
    return try SecretSealing.keyFile(at: keyFile)
  }

  /// A store error as `commandFailure` prints it, placed at `file` (the store the command was given) when it
  /// names no file of its own; the caller throws the result.
  static func fail(_ error: CacheStoreError, file: String) -> ExitCode {
    var located = error
    if located.location.file == nil { located.location.file = file }
    return commandFailure(located)
  }

  /// An input that is no unified cache, in the one form of every error (`<file and place>: <what>; <what to
  /// do>`); the caller throws the result.
  static func fail(_ error: UnifiedCacheError) -> ExitCode {
    Terminal.standardError(
      "adal2msal: error: \(error.location): \(error.message); "
        + "give a unified-cache JSON file (MSAL.NET, Python, Java or Node layout)")
    return ExitStatus.failure
  }
}

extension CacheStoreError {
  /// The error with the command line's options where the library's remedy names what a pipeline gives instead
  /// (a key, a run that writes). A remedy its thrower chose is kept.
  var inCommandLineWords: CacheStoreError {
    guard remedy == reason.defaultRemedy else { return self }
    var worded = self
    switch reason {
    case .keyRequired:
      worded.remedy = "give its key with --encryption-key-file or \(SecretSealing.environmentVariable)"
    case .outdatedSchema: worded.remedy = "run adal2msal migrate or import on it (without --dry-run) to upgrade it"
    default: break
    }
    return worded
  }
}
