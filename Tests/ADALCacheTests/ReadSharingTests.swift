import ADALCache
import Adal2MSALSupport
import Foundation
import Testing
import _Adal2MSALTestSupport

/// A dump's items share the strings and secrets they repeat (`ReadMemo`): the values must be exactly what
/// each item's archive says on its own, and repeated values must be one copy.
@Suite struct ReadSharingTests {
  /// The first byte of a string's UTF-8 storage, which equal strings that share storage have in common.
  private func storage(_ text: String?) -> UnsafeRawPointer? {
    text?.utf8.withContiguousStorageIfAvailable { UnsafeRawPointer($0.baseAddress) } ?? nil
  }

  /// The fields an item's archive gives, without where it came from. Tokens as their whole SHA-256 (equal
  /// exactly when the tokens are), so that a failure never prints one.
  private func archived(_ item: ADALTokenItem) -> [String?] {
    func digest(_ secret: ADALSecret?) -> String? { secret.map { SecretFingerprint.sha256Hex(Data($0.value.utf8)) } }
    return [
      item.authority, item.resource, item.clientID, item.familyID, digest(item.accessToken), item.accessTokenType,
      digest(item.refreshToken), item.homeAccountID, digest(item.idToken), item.archivedUserID,
      item.idTokenClaims?.userID, item.expiresOn?.description, item.kind.description,
      item.refreshToken?.fingerprint, item.idToken?.fingerprint, item.source.archiveClassName,
    ]
  }

  @Test(arguments: ["dump-multiuser.xml.plist", "dump-multiuser.bplist", "dump-multiuser-classes.xml.plist"])
  func sharedValuesAreEachArchivesOwn(_ name: String) throws {
    let data = try Fixtures.data("adal/\(name)")
    let items = try ADALCacheReader().read(data, file: name).items
    try #require(items.count == 14)
    // The oracle: Foundation reads the dump, and each item's v_Data is read on its own (nothing shared).
    let plist = try PropertyListSerialization.propertyList(from: data, format: nil)
    let records: [[String: Any]] =
      (plist as? [[String: Any]])
      ?? ((plist as? [String: Any]).map { classes in
        classes.keys.sorted().flatMap { classes[$0] as? [[String: Any]] ?? [] }
      }
        ?? [])
    let alone = records.compactMap { $0["v_Data"] as? Data }.compactMap { blob in
      try? ADALCacheReader().read(blob, file: "v_Data")
    }.flatMap(\.items)
    #expect(alone.count == items.count)
    #expect(Set(items.map(archived)) == Set(alone.map(archived)))
  }

  @Test func repeatedValuesAreOneCopy() throws {
    let items = try ADALCacheReader().read(try Fixtures.data("adal/dump-multiuser.xml.plist"), file: "dump").items
    // Items 0-2 are one user's MRRT, FRT and access token (Fixtures/adal/README.md).
    let (mrrt, frt, accessToken) = (items[0], items[1], items[2])
    #expect(storage(mrrt.authority) != nil)
    #expect(storage(mrrt.authority) == storage(accessToken.authority))
    #expect(storage(mrrt.authority) == storage(frt.authority))
    #expect(storage(mrrt.clientID) == storage(accessToken.clientID))
    let (mrrtIDToken, accessTokenIDToken) = (storage(mrrt.idToken?.value), storage(accessToken.idToken?.value))
    #expect(mrrtIDToken == accessTokenIDToken)
    #expect(storage(mrrt.source.accessGroup) == storage(accessToken.source.accessGroup))
    #expect(storage(mrrt.source.archiveClassName) == storage(items[5].source.archiveClassName))
    // Different values are never merged.
    let (mrrtToken, frtToken) = (storage(mrrt.refreshToken?.value), storage(frt.refreshToken?.value))
    #expect(mrrtToken != frtToken)
    #expect(mrrt.refreshToken != frt.refreshToken)
  }
}
