import Adal2MSALSupport
import Foundation
import UnifiedCache

extension CacheStore {
  /// The store as unified-cache JSON (the MSAL.NET / Python layout), unknown fields and sections included.
  public func exportJSON() throws(CacheStoreError) -> Data {
    UnifiedCacheJSONWriter.write(try contents())
  }
}
