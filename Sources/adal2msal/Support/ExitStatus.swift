import ArgumentParser

/// The documented exit statuses (also in `adal2msal --help` and README.md).
enum ExitStatus {
  /// Success: everything migrated (or, for a dry run, would migrate) with nothing skipped.
  static let success = ExitCode(0)
  /// Failure: nothing was written (unreadable input, store error, or `--strict` with skipped items).
  static let failure = ExitCode(1)
  /// Success with skipped or conflicting items: the migration was written (or would be), see the report.
  static let successWithSkips = ExitCode(2)
  /// Usage error: a bad option or argument (ArgumentParser's EX_USAGE).
  static let usage = ExitCode.validationFailure

  /// The exit-status table, for help texts.
  static let helpText = """
    Exit status:
      0   success, nothing skipped
      1   failure, nothing written (bad input, store error,
          or --strict with skipped or conflicting items)
      2   success with skipped or conflicting items (see the report)
      64  usage error
    """
}
