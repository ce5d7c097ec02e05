import Foundation
import Testing
import UnifiedCache
import _Adal2MSALTestSupport

/// Reading fixtures and hand-made JSON in tests.
enum TestCache {
  static func read(fixture name: String) throws -> UnifiedCacheReadResult {
    try UnifiedCacheJSONReader().read(Fixtures.data("msal-json/\(name)"), file: name)
  }

  static func read(_ json: String) throws -> UnifiedCacheReadResult {
    try UnifiedCacheJSONReader().read(Data(json.utf8), file: "test.json")
  }

  static func codes(_ result: UnifiedCacheReadResult) -> [String] { result.diagnostics.map(\.code) }

  static func roundTrip(_ contents: UnifiedCacheContents) throws -> UnifiedCacheContents {
    try UnifiedCacheJSONReader().read(UnifiedCacheJSONWriter.export(contents).data, file: "written.json").contents
  }

  /// [accounts, access tokens, refresh tokens, id tokens, app metadata].
  static func counts(_ cache: UnifiedCacheContents) -> [Int] {
    [
      cache.accounts.count, cache.accessTokens.count, cache.refreshTokens.count, cache.idTokens.count,
      cache.appMetadata.count,
    ]
  }

  static func date(_ seconds: Int) -> Date { Date(timeIntervalSince1970: TimeInterval(seconds)) }
}
