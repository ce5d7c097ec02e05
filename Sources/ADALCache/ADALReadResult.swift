import Adal2MSALSupport
import Foundation
import PropertyLists
import UnifiedCache

/// What `ADALCacheReader` recognised its input as (by content, never by file name).
public enum ADALInputKind: String, Sendable, Hashable, Codable, CaseIterable {
  /// A property list (XML or binary) whose root is an array of keychain item dictionaries (`acct`, `svce`, …).
  case keychainPlistArray = "keychain-plist-array"
  /// A property list dictionary of keychain classes (`{genp: [...], inet: [...]}`, ios_keychain_decrypter).
  case keychainPlistClasses = "keychain-plist-classes"
  /// `objection ios keychain dump --json` output (`account`, `service`, `generic`, `dataHex`, …).
  case objectionJSON = "objection-json"
  /// A JSON array of items with Apple's short names and base64 values (`v_Data`, `gena`, …).
  case keychainJSON = "keychain-json"
  /// A macOS ADAL cache blob (`{version, tokenCache: {tokens: …}}` keyed archive).
  case macOSBlob = "macos-blob"
  /// One archived item (`ADTokenCacheStoreItem` keyed archive), e.g. a `v_Data` saved on its own.
  case archivedItem = "archived-item"
  /// ADAL Python / Azure CLI `accessTokens.json`: a JSON array of token-response entries (`expiresOn` local).
  case adalPythonAccessTokens = "adal-python-access-tokens"
  /// An ADAL Node cache the app persisted: the same entries with ISO-8601 dates.
  case adalNode = "adal-node"
  /// An ADAL.NET v3 token cache blob (`TokenCache.Serialize`, `TokenCache.dat`), raw or as base64 text.
  case adalDotNetV3 = "adal-dotnet-v3"
}

/// Everything read from one ADAL input.
public struct ADALReadResult: Sendable {
  /// What the input was.
  public var inputKind: ADALInputKind
  /// The property list encoding, for plist inputs (the blob, an archived item, plist dumps).
  public var plistFormat: PropertyListFormat?
  /// The ADAL items, in input order (tombstones included, with kind `.tombstone`).
  public var items: [ADALTokenItem]
  /// MSAL unified keychain items found in a dump (a numeric `type`), for `UnifiedKeychainDecoder`.
  public var unifiedItems: [UnifiedKeychainItem]
  /// ADAL "wipe all" markers found in a dump.
  public var wipeMarkers: [ADALWipeMarker]
  /// How many keychain items were neither ADAL, nor unified, nor a wipe marker.
  public var ignoredItemCount: Int
  /// Every recoverable problem and note, in input order.
  public var diagnostics: [Diagnostic]

  public init(
    inputKind: ADALInputKind, plistFormat: PropertyListFormat? = nil, items: [ADALTokenItem] = [],
    unifiedItems: [UnifiedKeychainItem] = [], wipeMarkers: [ADALWipeMarker] = [], ignoredItemCount: Int = 0,
    diagnostics: [Diagnostic] = []
  ) {
    self.inputKind = inputKind
    self.plistFormat = plistFormat
    self.items = items
    self.unifiedItems = unifiedItems
    self.wipeMarkers = wipeMarkers
    self.ignoredItemCount = ignoredItemCount
    self.diagnostics = diagnostics
  }
}
