import Adal2MSAL

/// A dry run first (the full plan in a Markdown report, nothing written), then the run itself, refused with
/// nothing written if any item would not migrate for a reason other than policy.
func migrateCarefully(dump: String, store: String, report: String) async throws -> Bool {
  var options = MigrationRun.Options()
  options.migration = MigrationOptions(clientID: "my-app-client-id")
  options.dryRun = true
  options.report = .file(report)
  options.reportFormat = .markdown
  let preview = try await MigrationRun(adal: [dump], store: store, options: options).run()
  for user in preview.usersWithProblems {
    print("\(user.user): \(user.problems) not migrated (\(user.reasonCodes.joined(separator: ", ")))")
  }

  options.dryRun = false
  options.strict = true
  let outcome = try await MigrationRun(adal: [dump], store: store, options: options).run()
  return outcome.wasWritten
}
