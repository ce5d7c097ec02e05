import Adal2MSALSupport
import Foundation

/// The ADAL storage era an item's archive most likely comes from (see the spec's "Storage eras").
///
/// Guessed from the coder keys present (a key archived as nil still counts: it shows the writer knew it).
public enum ADALEra: String, Sendable, Hashable, Codable, CaseIterable {
  /// ADAL 1.x and 2.0.x: none of the keys added in 2.1.
  case e1 = "E1"
  /// ADAL 2.1 – 2.6: `familyId`, `sessionKey`, `tombstone`, `additionalClient` or `additionalServer`.
  case e3 = "E3"
  /// ADAL 2.7+ through IdentityCore: `cachedAt`, `homeAccountId`, `enrollmentId` or `applicationIdentifier`.
  case e4 = "E4"
}

/// Where an ADAL item was read from: the file, its position, and the keychain attributes around it.
public struct ADALItemSource: Sendable, Hashable, Codable {
  // `era` comes first so that the memberwise initializer, which the public one builds through, has other labels
  // (docs/benchmarks.md, "Counting calls").
  /// The era guessed from the archive's coder keys.
  public var era: ADALEra
  /// The input file, when known.
  public var file: String?
  /// The item's index in the dump (0-based, counting every entry of the dump, ADAL or not), or its position
  /// among the tokens of a macOS blob.
  public var itemIndex: Int?
  /// The keychain service attribute (`svce`), as dumped.
  public var service: String?
  /// The keychain account attribute (`acct`), as dumped.
  public var account: String?
  /// The keychain access group (`agrp`).
  public var accessGroup: String?
  /// The keychain creation date (`cdat`).
  public var created: Date?
  /// The keychain modification date (`mdat`).
  public var modified: Date?
  /// `$classname` of the archive's root object (`ADTokenCacheStoreItem` normally).
  public var archiveClassName: String
  /// In a macOS blob, the user id under which the item was filed (`tokens[<userId>]`).
  public var blobUserKey: String?

  /// The location for diagnostics about this item.
  public var location: SourceLocation { SourceLocation(file: file, itemIndex: itemIndex) }
}

extension ADALItemSource {
  public init(
    file: String? = nil, itemIndex: Int? = nil, service: String? = nil, account: String? = nil,
    accessGroup: String? = nil, created: Date? = nil, modified: Date? = nil, era: ADALEra = .e1,
    archiveClassName: String = "ADTokenCacheStoreItem", blobUserKey: String? = nil
  ) {
    self.init(
      era: era, file: file, itemIndex: itemIndex, service: service, account: account, accessGroup: accessGroup,
      created: created, modified: modified, archiveClassName: archiveClassName, blobUserKey: blobUserKey)
  }
}
