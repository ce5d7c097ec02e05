import Adal2MSAL

/// A run whose report would replace one of its own files is refused before anything is read or written, and
/// the error names both files.
func migrateWithReport(msal: [String], store: String, report: String) async throws -> String {
  var options = MigrationRun.Options()
  options.report = .file(report)
  do {
    return try await MigrationRun(msal: msal, store: store, options: options).run().verdict.summary
  } catch let refused as OutputPathError {
    // "the report cache.json is the same file as the MSAL input cache.json: writing it would destroy that file; ..."
    return "refused: \(refused.description)"
  }
}
