import Adal2MSALSupport
import Foundation

/// What a run calls its files when it refuses an output (`OutputPathError`): the library's words by default;
/// `adal2msal` gives its options' names, and the key file it read, which a run never sees.
package struct RunFileNames: Sendable {
  package var adalInput = "the ADAL input"
  package var msalInput = "the MSAL input"
  /// The store as an output, and as a file of the run that another output may not be.
  package var storeOutput = "the store"
  package var store = "the store"
  package var report = "the report"
  package var export = "the export"
  /// Files the run reads that the library is not given (the command line's key file).
  package var otherReads: [RunFile] = []

  package init() {}
}

// Each run checks its files first thing in `run()`, before any input is read or any output is opened, so that
// a refused run writes nothing: the command line and a pipeline get the same check.

extension MigrationRun {
  /// The inputs, the store, the report and Azure CLI's files of this run.
  func checkFiles() throws {
    if let directory = options.azureCLIDirectory {
      try AzureCLIFiles(directory: directory).validate(msalInputs: msal, dryRun: options.dryRun || store == nil)
    }
    let names = options.fileNames
    var files = OutputGuard()
    for path in adal { files.reading(path, as: names.adalInput) }
    for path in msal { files.reading(path, as: names.msalInput) }
    for file in names.otherReads { files.reading(file.path, as: file.role) }
    if let directory = options.azureCLIDirectory {
      // Read by the run (the token cache is an MSAL input, the service principals are merged) and then replaced.
      let azureCLI = AzureCLIFiles(directory: directory)
      files.reading(azureCLI.tokenCache, as: "Azure CLI's token cache")
      files.reading(azureCLI.servicePrincipals, as: "Azure CLI's service principals")
    }
    if let store {
      if options.dryRun {
        files.readingStore(store, as: names.store)
      } else {
        files.writingStore(store, as: names.storeOutput, storeName: names.store)
      }
    }
    if case .file(let path) = options.report { files.writing(path, as: names.report) }
    try files.check()
  }
}

extension ImportRun {
  /// The inputs and the store of this run.
  func checkFiles() throws(OutputPathError) {
    let names = options.fileNames
    var files = OutputGuard()
    for path in self.files { files.reading(path, as: names.msalInput) }
    for file in names.otherReads { files.reading(file.path, as: file.role) }
    if options.dryRun {
      files.readingStore(store, as: names.store)
    } else {
      files.writingStore(store, as: names.storeOutput, storeName: names.store)
    }
    try files.check()
  }
}

extension ExportRun {
  /// The store and the export of this run.
  func checkFiles() throws(OutputPathError) {
    var files = OutputGuard()
    files.readingStore(store, as: fileNames.store)
    for file in fileNames.otherReads { files.reading(file.path, as: file.role) }
    files.writing(output, as: fileNames.export)
    try files.check()
  }
}
