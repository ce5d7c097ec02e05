import ArgumentParser

/// The documented exit statuses (also in `adal2msal --help` and README.md).
enum ExitStatus {
  /// Success: every item migrated, unchanged, merged or skipped by policy (guest, tombstone, expired access
  /// token, wipe marker, other apps' keychain items, `--skip-access-tokens`).
  static let success = ExitCode(0)
  /// Failure, nothing written: an unusable or unsupported input, a store error, inputs with errors that gave
  /// nothing usable, or `--strict` with anything not migrated for a reason other than policy.
  static let failure = ExitCode(1)
  /// Partial: written (or would be), but some items or files could not be read or modelled (counted and named
  /// in the report), an output written after the store committed failed or was stopped by a signal (named on
  /// standard error), or an export (or Azure CLI's token cache) left out entries the library keys like others
  /// (named). Before the commit, SIGHUP, SIGINT and SIGTERM exit with 128 + the signal (`InterruptCleanup`).
  static let partial = ExitCode(2)
  /// Usage error: a bad option or argument (ArgumentParser's EX_USAGE).
  static let usage = ExitCode.validationFailure

  /// The exit-status table, for help texts.
  static let helpText = """
    Exit status:
      0   every item migrated, unchanged, merged or skipped by policy
          (guest, tombstone, expired access token, wipe marker)
      1   failure, nothing written (unusable or unsupported input, store
          error, nothing usable from inputs with errors, or --strict with
          an item not migrated for a reason other than policy)
      2   written, but items or files that could not be read or modelled
          were skipped (counted and named in the report), or an output
          written after the store (the report, Azure CLI's files, import's
          JSON summary) failed or was stopped by SIGHUP, SIGINT or SIGTERM
          (named on standard error), or an export or Azure CLI's token cache
          left out entries the library keys like others (named on standard
          error)
      64  usage error
      129, 130, 143
          stopped by SIGHUP, SIGINT or SIGTERM before the store committed:
          temporary files removed, nothing written
    """
}
