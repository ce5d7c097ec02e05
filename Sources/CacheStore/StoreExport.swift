import Adal2MSALSupport
import Foundation
import UnifiedCache

extension CacheStore {
  /// The store as unified-cache JSON, unknown fields and sections included, each entry under the key and
  /// spellings it was read with (entities made from ADAL items: their canonical key).
  public func exportJSON() throws(CacheStoreError) -> Data {
    try export(for: nil).data
  }

  /// The store as `library` loads it: unified-cache JSON with every entry keyed and spelled as that library
  /// computes and reads it, so that its refresh and sign-out find the entries, or MSAL ObjC keychain items
  /// (nil: as `exportJSON()`). The diagnostics name the entries the library keys alike and that were therefore
  /// left out (`export.same-key`).
  public func export(for library: MSALLibrary?) throws(CacheStoreError) -> CacheExport {
    CacheExport.make(try contents(), for: library)
  }
}
