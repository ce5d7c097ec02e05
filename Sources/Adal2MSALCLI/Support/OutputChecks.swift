import Adal2MSAL
import ArgumentParser
import Foundation

// Each writing subcommand's files, for `OutputGuard`: checked first thing in `run()`, before any input is read
// or any output is opened, so that a refused run writes nothing.

extension Adal2MSALCommand.Migrate {
  /// The inputs, the key file, the store and the report of this run.
  func checkOutputs() throws {
    var paths = OutputGuard()
    for path in inputs.adal { paths.reading(path, as: "the --adal input") }
    for path in inputs.msal { paths.reading(path, as: "the --msal input") }
    paths.reading(encryptionKeyFile, as: "the --encryption-key-file")
    if let out {
      if dryRun { paths.reading(out, as: "the --out store") } else { paths.writingStore(out, as: "--out") }
    }
    paths.writing(reporting.report, as: "--report", streams: true)
    try paths.check()
  }
}

extension Adal2MSALCommand.Import {
  /// The inputs, the key file and the store of this run.
  func checkOutputs() throws {
    var paths = OutputGuard()
    for path in files { paths.reading(path, as: "the input") }
    paths.reading(encryptionKeyFile, as: "the --encryption-key-file")
    if dryRun { paths.reading(out, as: "the --out store") } else { paths.writingStore(out, as: "--out") }
    try paths.check()
  }
}

extension Adal2MSALCommand.Export {
  /// The store, the key file and the export of this run.
  func checkOutputs() throws {
    var paths = OutputGuard()
    paths.reading(cache, as: "the store")
    for suffix in ["-wal", "-shm", "-journal"] { paths.reading(cache + suffix, as: "the store's \(suffix) file") }
    paths.reading(encryptionKeyFile, as: "the --encryption-key-file")
    paths.writing(output, as: "--output", streams: true)
    try paths.check()
  }
}
