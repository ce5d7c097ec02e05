import Foundation
import Testing
import UnifiedCache
import _Adal2MSALTestSupport

@testable import CacheStore

/// Helpers shared by the store tests.
enum StoreTestSupport {
  /// A fresh store path in a new temporary directory.
  static func freshPath(_ name: String = "cache.sqlite") throws -> String {
    try Fixtures.temporaryDirectory("store").appendingPathComponent(name).path
  }
}
