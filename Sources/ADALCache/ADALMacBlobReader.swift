import Adal2MSALSupport
import Foundation
import PropertyLists

/// Reads the macOS ADAL cache blob: a keyed archive of
/// `{version: ≤ 1, tokenCache: {tokens: {<userId>: {<ADTokenCacheKey>: <ADTokenCacheStoreItem>}}}}`
/// (spec §3.1, CORE `MSIDMacTokenCache validateCache:`).
///
/// The wrapper is validated as CORE does: a missing or too new `version`, or a `tokenCache`/`tokens` that
/// is not a dictionary, makes the blob unreadable (thrown). Below that level, a bad user entry, key or item
/// is a diagnostic and the rest is read (CORE would reject the whole blob; a migration keeps what it can).
/// `NSDictionary` and `NSMutableDictionary` cannot be told apart once resolved and are both accepted.
public struct ADALMacBlobReader: Sendable {
  /// The newest wrapper version ADAL wrote (`CURRENT_WRAPPER_CACHE_VERSION` 1.0).
  public static let currentVersion = 1.0
  /// Class names accepted for the per-user dictionaries' keys.
  public static let keyClassNames: Set<String> = ["ADTokenCacheKey", "ADALTokenCacheKey", "MSIDLegacyTokenCacheKey"]

  public init() {}

  /// Whether a resolved archive root looks like the blob wrapper (a dictionary with `tokenCache` or `version`).
  public static func isBlob(_ root: ArchiveValue) -> Bool {
    root.stringKeyedEntries?.contains { $0.key == "tokenCache" || $0.key == "version" } ?? false
  }

  /// Reads the items of a blob's resolved root.
  public func read(_ root: ArchiveValue, file: String?) throws(ADALCacheError) -> (
    items: [ADALTokenItem], diagnostics: [Diagnostic]
  ) {
    func fail(_ message: String, _ path: String) -> ADALCacheError {
      ADALCacheError(message, at: SourceLocation(file: file, keyPath: path))
    }
    guard let wrapper = root.stringKeyedEntries else {
      throw fail("the blob's root is \(Wording.indefinite(root.kindName))", "root")
    }
    guard let version = wrapper.first(where: { $0.key == "version" })?.value else {
      throw fail("the blob has no version", "root.version")
    }
    guard let number = version.doubleValue else {
      throw fail("the blob's version is \(Wording.indefinite(version.kindName))", "root.version")
    }
    guard number <= Self.currentVersion else {
      throw fail("the blob's version \(number) is newer than \(Self.currentVersion)", "root.version")
    }
    guard let tokenCache = wrapper.first(where: { $0.key == "tokenCache" })?.value.stringKeyedEntries else {
      throw fail("the blob has no tokenCache dictionary", "root.tokenCache")
    }
    guard let tokens = tokenCache.first(where: { $0.key == "tokens" })?.value.dictionaryEntries else {
      throw fail("the blob's tokenCache has no tokens dictionary", "root.tokenCache.tokens")
    }
    var items: [ADALTokenItem] = []
    var diagnostics: [Diagnostic] = []
    var index = 0
    for userEntry in tokens {
      let userKey = ADALArchiveValues.string(userEntry.key)
      let userPath = "tokens[\(userKey.map { "\"\($0)\"" } ?? userEntry.key.kindName)]"
      guard let userKey else {
        diagnostics.append(
          Diagnostic(
            .error, code: "adal.blob-structure",
            "a user key is \(Wording.indefinite(userEntry.key.kindName)), not a string; its tokens are skipped",
            at: SourceLocation(file: file, keyPath: userPath)))
        continue
      }
      guard let perUser = userEntry.value.dictionaryEntries else {
        diagnostics.append(
          Diagnostic(
            .error, code: "adal.blob-structure",
            "the tokens of user '\(userKey)' are \(Wording.indefinite(userEntry.value.kindName)), not a dictionary",
            at: SourceLocation(file: file, keyPath: userPath)))
        continue
      }
      for (position, entry) in perUser.enumerated() {
        defer { index += 1 }
        let location = SourceLocation(file: file, itemIndex: index, keyPath: "\(userPath)[\(position)]")
        let source = ADALItemSource(file: file, itemIndex: index, blobUserKey: userKey)
        do {
          var (item, itemDiagnostics) = try ADALArchivedItemDecoder().decode(
            entry.value, source: source, keychainUserID: ADALKeychainAccount.normalize(userKey))
          item.source.service = nil
          itemDiagnostics = itemDiagnostics.map { diagnostic in
            var copy = diagnostic
            copy.location?.keyPath = location.keyPath.map { "\($0).\(diagnostic.location?.keyPath ?? "")" }
            return copy
          }
          diagnostics += itemDiagnostics
          diagnostics += checkKey(entry.key, item: item, location: location)
          if let claimsUser = item.idTokenClaims?.normalizedUserID,
            let keyUser = ADALKeychainAccount.normalize(userKey),
            keyUser != claimsUser
          {
            diagnostics.append(
              Diagnostic(
                .note, code: "adal.account-mismatch",
                "filed under user \(keyUser) but the id token's user is \(claimsUser)", at: location))
          }
          items.append(item)
        } catch {
          var failure = error
          failure.location = location
          diagnostics.append(failure.diagnostic)
        }
      }
    }
    return (items, diagnostics)
  }

  private func checkKey(_ key: ArchiveValue, item: ADALTokenItem, location: SourceLocation) -> [Diagnostic] {
    guard case .object(let object) = key, Self.keyClassNames.contains(object.className) else {
      return [
        Diagnostic(
          .warning, code: "adal.blob-structure",
          "the item's key is \(Wording.indefinite(key.kindName)), not an ADTokenCacheKey",
          at: location)
      ]
    }
    return KeyConsistency.compare(
      keyAuthority: object["authority"].flatMap(ADALArchiveValues.string),
      keyResource: object["resource"].flatMap(ADALArchiveValues.string),
      keyClientID: object["clientId"].flatMap(ADALArchiveValues.string), item: item, keyName: "ADTokenCacheKey")
  }
}
