import Adal2MSALSupport
import Foundation
import UnifiedCache

extension CacheStore {
  /// The store as `library` loads it: unified-cache JSON with every entry keyed and spelled as that library
  /// computes and reads it, so that its refresh and sign-out find the entries, or MSAL ObjC keychain items; without
  /// a library, unknown fields and sections included, each entry under the key and spellings it was read with
  /// (entities made from ADAL items: their canonical key). The diagnostics name what the file does not hold as
  /// stored (`CacheExport.diagnostics`): an export with `entriesLeftOut` is partial.
  public func export(for library: MSALLibrary? = nil) throws(CacheStoreError) -> CacheExport {
    CacheExport.make(try contents(), for: library)
  }
}
