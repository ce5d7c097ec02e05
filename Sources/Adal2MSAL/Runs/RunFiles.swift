import ADALCache
import Adal2MSALSupport
import Foundation
import MigrationEngine
import PropertyLists

/// What a run calls its files when it refuses one (an output, `OutputPathError`; an input given in the wrong
/// place, `ADALCacheError.Kind.wrongOption`; Azure CLI's directory, `AzureCLIFiles.Refusal`): the library's words
/// by default; `adal2msal` gives its options' names, and the key file it read, which a run never sees.
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
  /// How a file refused as given in the wrong place is given instead, said after what it is (`advising`).
  package var giveAsADALInput = "pass it in `adal:`"
  package var giveAsMSALInput = "pass it in `msal:`"
  package var giveAsStore = "pass it as `store:`"
  /// How to see a property list that is no ADAL input: its tree. (`Inspection` shows the tree, never refuses it.)
  package var toShowAPropertyList = "`Inspection(file:)` shows its tree"
  /// Where Azure CLI's files go, and what a run that may not write them must change.
  package var azureCLIDirectory = "the Azure CLI directory"
  package var toWriteAzureCLIFiles = "give the run a store and leave `dryRun` off"

  package init() {}

  /// `error`, refusing the file read as `data`, with what to do instead: how to give the file when it was given
  /// in the wrong place, and how to see a property list of another kind, which the refusal cannot show.
  package func advising(_ error: ADALCacheError, of data: Data) -> ADALCacheError {
    guard error.remedy == nil else { return error }
    var advised = error
    switch error.kind {
    case .wrongOption(.adalInput): advised.remedy = giveAsADALInput
    case .wrongOption(.msalInput): advised.remedy = giveAsMSALInput
    case .wrongOption(.store): advised.remedy = giveAsStore
    // The two checks `Inspection` makes before it shows a file's tree: the ADAL reader did not recognise it, and
    // it is a property list. Any other file `Inspection` refuses as the run did.
    case .unrecognised where PropertyListFormat.sniff(data) != nil: advised.remedy = toShowAPropertyList
    case .unrecognised, .unreadable, .unsupported: break
    }
    return advised
  }
}

// Each run checks its files first thing in `run()`, before any input is read or any output is opened, so that
// a refused run writes nothing: the command line and a pipeline get the same check.

extension OutputGuard {
  /// The files every run has beside its inputs: those the library is not given, and the store, written or only
  /// read.
  fileprivate mutating func addCommonFiles(_ names: RunFileNames, store: String?, written: Bool) {
    for file in names.otherReads { reading(file.path, as: file.role) }
    guard let store else { return }
    if written {
      writingStore(store, as: names.storeOutput, storeName: names.store)
    } else {
      readingStore(store, as: names.store)
    }
  }
}

extension MigrationRun {
  /// The run's own files, which an input directory may hold: the store and its side files (a store kept beside
  /// its dumps), the report when its file holds a report (the last run's), and Azure CLI's service principals
  /// (`--adal ~/.azure --azure-cli-dir ~/.azure`). Passed over there, as the run's outputs rather than inputs. A
  /// report path whose file holds anything else stays an input, which the output guard refuses to overwrite.
  func ownFiles() -> [String] {
    var files = store.map(StoreFileMarker.files(of:)) ?? []
    if case .file(let path) = options.report, Self.holdsAReport(path) { files.append(path) }
    // Azure CLI's service principals, which the run merges into after its store (its token cache is an input).
    if let directory = options.azureCLIDirectory { files.append(AzureCLIFiles(directory: directory).servicePrincipals) }
    return files
  }

  /// Whether the regular file at `path` begins as a report (`MigrationReport.isReport`).
  private static func holdsAReport(_ path: String) -> Bool {
    guard OwnerOnlyFile.nonRegularKind(path) == nil, let handle = FileHandle(forReadingAtPath: path) else {
      return false
    }
    defer { try? handle.close() }
    return MigrationReport.isReport(opening: (try? handle.read(upToCount: 64)) ?? Data())
  }

  /// The inputs, the store, the report and Azure CLI's files of this run; `ownFiles` are passed over in its
  /// input directories.
  func checkFiles(ownFiles: [String]) throws {
    let azureCLI = options.azureCLIDirectory.map { AzureCLIFiles(directory: $0) }
    try azureCLI?.validate(msalInputs: msal, dryRun: options.dryRun || store == nil, names: options.fileNames)
    var files = OutputGuard()
    for path in adal { files.reading(path, as: options.fileNames.adalInput, passingOver: ownFiles) }
    for path in msal { files.reading(path, as: options.fileNames.msalInput, passingOver: ownFiles) }
    files.addCommonFiles(options.fileNames, store: store, written: !options.dryRun)
    if let azureCLI {
      // Read by the run (the token cache is an MSAL input, the service principals are merged) and then replaced.
      files.reading(azureCLI.tokenCache, as: "Azure CLI's token cache")
      files.reading(azureCLI.servicePrincipals, as: "Azure CLI's service principals")
    }
    if case .file(let path) = options.report { files.writing(path, as: options.fileNames.report) }
    try files.check()
  }
}

extension ImportRun {
  /// The store's files, passed over in input directories.
  func ownFiles() -> [String] { StoreFileMarker.files(of: store) }

  /// The inputs and the store of this run.
  func checkFiles() throws(OutputPathError) {
    var files = OutputGuard()
    for path in self.files { files.reading(path, as: options.fileNames.msalInput, passingOver: ownFiles()) }
    files.addCommonFiles(options.fileNames, store: store, written: !options.dryRun)
    try files.check()
  }
}

extension ExportRun {
  /// The store and the export of this run.
  func checkFiles() throws(OutputPathError) {
    var files = OutputGuard()
    files.addCommonFiles(fileNames, store: store, written: false)
    files.writing(output, as: fileNames.export)
    try files.check()
  }
}
