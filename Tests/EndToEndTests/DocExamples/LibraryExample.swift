import Adal2MSAL

/// Migrates an ADAL keychain dump into a store, loads an MSAL cache into it, and writes the store for MSAL
/// Python: what `adal2msal migrate`, `import` and `export` do, in three calls.
func migrateImportAndExport(dump: String, msalCache: String, store: String, export: String) async throws {
  let migration = try await MigrationRun(adal: [dump], store: store).run()
  print(migration.result, migration.verdict.summary)  // complete, partial or failed, and the counts

  let imported = try ImportRun(files: [msalCache], store: store).run()
  print("imported: \(imported.added) added, \(imported.updated) updated, \(imported.unchanged) unchanged")

  let exported = try ExportRun(store: store, library: .python, output: export).run()
  for diagnostic in exported.diagnostics { print(diagnostic) }  // entries MSAL Python keys alike, if any
}
