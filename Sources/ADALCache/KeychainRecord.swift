import Adal2MSALSupport
import Foundation

/// One keychain item from a dump, with the attributes this module uses, whatever the dump's format.
///
/// MSAL unified items (those with a numeric `type`) become `UnifiedKeychainItem`s in
/// `ADALReadResult.unifiedItems`.
public struct KeychainRecord: Sendable, Hashable {
  // `location` comes first so that the memberwise initializer, which the public one builds through, has other
  // labels (docs/benchmarks.md, "Counting calls").
  /// Where it is: file, item index, and the key path within the dump (`genp[3]`).
  public var location: SourceLocation
  /// `class` / `item_class` (`genp`, `inet`, …), when the dump gives it.
  public var itemClass: String?
  /// `acct`.
  public var account: String?
  /// `svce`.
  public var service: String?
  /// `gena`, as bytes (a string in the dump is taken as its UTF-8 bytes).
  public var generic: Data?
  /// `agrp` / `entitlement_group`.
  public var accessGroup: String?
  /// `type` (`kSecAttrType`), when numeric. MSAL unified items carry 2000 + credential type, and 1000 + …
  /// for accounts and 3000 + … for metadata.
  public var type: Int?
  /// `v_Data` / `dataHex`.
  public var data: Data?
  /// `cdat` / `create_date`.
  public var created: Date?
  /// `mdat` / `modification_date`.
  public var modified: Date?
  /// `labl` / `label`.
  public var label: String?
  /// `invi` / `invisible` (ADAL 1.x sets it).
  public var invisible: Bool?
  /// Whether the dump's entry is no item dictionary (a number, a string, a JSON object without keychain
  /// attributes): its reader reported it as an unreadable item, so it is not also another app's item.
  public var isUnreadableEntry = false
}

extension KeychainRecord {
  public init(
    itemClass: String? = nil, account: String? = nil, service: String? = nil, generic: Data? = nil,
    accessGroup: String? = nil, type: Int? = nil, data: Data? = nil, created: Date? = nil, modified: Date? = nil,
    label: String? = nil, invisible: Bool? = nil, location: SourceLocation
  ) {
    self.init(
      location: location, itemClass: itemClass, account: account, service: service, generic: generic,
      accessGroup: accessGroup, type: type, data: data, created: created, modified: modified, label: label,
      invisible: invisible)
  }

  /// The record of a dump entry with no attributes to read (not an item dictionary), which its reader reports
  /// as unreadable. Through the memberwise initializer.
  static func attributeless(at location: SourceLocation) -> KeychainRecord {
    KeychainRecord(location: location, isUnreadableEntry: true)
  }

  /// `gena` as UTF-8 text, when it is.
  public var genericString: String? { generic.flatMap { String(data: $0, encoding: .utf8) } }

  /// The wipe marker's `gena` (`Microsoft.ADAL.WipeAll.1`) and `acct` (`TokenWipe`).
  public static let wipeGeneric = "Microsoft.ADAL.WipeAll.1"
  public static let wipeAccount = "TokenWipe"

  /// Whether `gena` is `MSOpenTech.ADAL.1`, or, for a dump that left `gena` out, `svce` is an ADAL key
  /// (`MSOpenTech.ADAL.1|…`): the selection rule for ADAL items. Such an item that cannot be read is an
  /// unreadable ADAL item, not another app's item.
  public var isADALItem: Bool {
    // Compared as bytes first: the string of every item's `gena` was an allocation, twice per item.
    if let generic, Self.isADALGeneric(generic) { return true }
    if let generic = genericString { return generic == ADALKeychainService.libraryString }
    return generic == nil && !isWipeMarker && (service?.hasPrefix(ADALKeychainService.libraryString + "|") ?? false)
  }

  /// `isADALItem` of the record at `record`, reading only its `gena` when that decides: a record read whole
  /// through a pointer (or an array) is copied, a retain and a release of every field.
  static func isADALItem(at record: UnsafePointer<KeychainRecord>) -> Bool {
    if let generic = record.pointee.generic, isADALGeneric(generic) { return true }
    return record.pointee.isADALItem
  }

  /// Whether `bytes` are `MSOpenTech.ADAL.1` in UTF-8, compared in place: one `memcmp` with the literal's own
  /// bytes. Element by element, each compare copied the bytes into an iterator's buffer; a `Data` of the literal
  /// kept in a static was reported as a leak by the fuzzers' leak checker.
  private static func isADALGeneric(_ bytes: Data) -> Bool {
    let literal = ADALKeychainService.libraryString.utf8
    return literal.withContiguousStorageIfAvailable { expected in
      bytes.count == expected.count
        && bytes.withUnsafeBytes { memcmp($0.baseAddress!, expected.baseAddress!, expected.count) == 0 }
    } ?? bytes.elementsEqual(literal)
  }

  /// Whether this is ADAL's "wipe all" marker.
  public var isWipeMarker: Bool { genericString == Self.wipeGeneric || account == Self.wipeAccount }
}

/// ADAL's "wipe all" marker item (`Microsoft.ADAL.WipeAll.1` / `TokenWipe`): never a token, reported only.
public struct ADALWipeMarker: Sendable, Hashable {
  /// `bundleId` of the app that wiped the cache, when `v_Data` could be read.
  public var bundleID: String?
  /// `wipeTime`, when `v_Data` could be read.
  public var wipeTime: Date?
  public var location: SourceLocation

  public init(bundleID: String?, wipeTime: Date?, location: SourceLocation) {
    self.bundleID = bundleID
    self.wipeTime = wipeTime
    self.location = location
  }
}
