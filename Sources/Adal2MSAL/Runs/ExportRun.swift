import Adal2MSALSupport
import CacheStore
import Foundation
import UnifiedCache

/// Writes a store as the cache an MSAL library loads, as `adal2msal export` does: with `library`, every entry
/// gets exactly the keys and field spellings that library computes (docs/unified-cache-keys.md); without, the
/// keys and spellings entries were imported with.
///
/// ```swift
/// let export = try ExportRun(store: "cache.sqlite", library: .python, output: "msal_token_cache.json").run()
/// for diagnostic in export.diagnostics { print(diagnostic) }  // entries the library keys alike
/// ```
public struct ExportRun: Sendable {
  public var store: String
  /// The MSAL library that will load the export; nil keeps the keys entries were imported with.
  public var library: MSALLibrary?
  /// The file to write (mode 0600, atomically); nil only returns the bytes.
  public var output: String?
  /// The key of an encrypted store.
  public var sealing: SecretSealing?
  /// What a refused output's error calls the run's files.
  package var fileNames = RunFileNames()

  public init(store: String, library: MSALLibrary? = nil, output: String? = nil, sealing: SecretSealing? = nil) {
    self.store = store
    self.library = library
    self.output = output
    self.sealing = sealing
  }

  /// Reads the store (read-only) and writes the export to `output`, if given. Before anything is read, an output
  /// that is the store or one of its side files (device and inode after following links), or that exists and is
  /// not a regular file, is refused. An export whose `entriesLeftOut` is not zero is written, and partial: the
  /// library keys those entries like others (`adal2msal export` exits 2).
  ///
  /// - Throws: a refused output (`OutputPathError`), a store failure (`CacheStoreError`) or an output that cannot
  ///   be written (`RunOutputError`).
  public func run() throws -> CacheExport {
    try checkFiles()
    let exported = try CacheStore.open(path: store, options: .reading(sealing: sealing)).export(for: library)
    guard let output else { return exported }
    do {
      try OwnerOnlyOutput.write(exported.data, to: output)
    } catch {
      throw RunOutputError(
        "cannot write the export (\(error))", file: output, remedy: "check that the directory exists and is writable")
    }
    return exported
  }
}
