import Adal2MSALSupport
import Foundation
import Testing
import _Adal2MSALTestSupport

@testable import ADALCache
@testable import PropertyLists

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

/// Keychain attributes are decoded once per read (`ReadMemo`): each item's checks of them must be its own.
@Suite struct ReadAttributeSharingTests {
  /// Each item's diagnostics as (code, message), by item.
  private func diagnostics(_ result: ADALReadResult) -> [Int: [String]] {
    Dictionary(grouping: result.diagnostics.filter { $0.location?.itemIndex != nil }) { $0.location!.itemIndex! }
      .mapValues { $0.map { "\($0.code): \($0.message)" } }
  }

  @Test func repeatedAttributesAreCheckedAgainstEachItem() throws {
    let data = try Fixtures.data("adal/dump-multiuser.xml.plist")
    var records = try #require(try PropertyListSerialization.propertyList(from: data, format: nil) as? [[String: Any]])
    records = Array(records.prefix(14))  // the ADAL items
    // An access token's svce on its user's MRRT and on another user's access token (a resource and an
    // authority mismatch), one acct on another user's item, an undecodable svce twice.
    records[0]["svce"] = records[2]["svce"]
    records[5]["svce"] = records[2]["svce"]
    records[6]["acct"] = records[0]["acct"]
    records[9]["svce"] = "MSOpenTech.ADAL.1|not*base64|x|y"
    records[10]["svce"] = records[9]["svce"]
    let dump = try PropertyListSerialization.data(fromPropertyList: records, format: .binary, options: 0)
    let together = diagnostics(try ADALCacheReader().read(dump, file: "dump"))
    #expect(together.values.joined().filter { $0.hasPrefix("adal.key-mismatch") }.count >= 3)
    #expect(together.values.joined().filter { $0.hasPrefix("adal.service-unreadable") }.count == 2)
    #expect(together.values.joined().contains { $0.hasPrefix("adal.account-mismatch") })
    // The oracle: each item read in a dump of its own, with nothing to share.
    for (index, record) in records.enumerated() {
      let alone = try PropertyListSerialization.data(fromPropertyList: [record], format: .binary, options: 0)
      let expected = diagnostics(try ADALCacheReader().read(alone, file: "dump"))[0] ?? []
      #expect(together[index] ?? [] == expected, "item \(index)")
    }
  }
}

/// `ReadMemo` shares exact spellings only: strings that `String` calls equal (canonically equivalent) but whose
/// scalars differ are each kept as they were read.
@Suite struct ReadMemoSpellingTests {
  static let composed = "Jos\u{E9} Garc\u{ED}a-M\u{E1}rquez@contoso.com"
  static let decomposed = "Jose\u{301} Garci\u{301}a-Ma\u{301}rquez@contoso.com"

  @Test func canonicallyEquivalentSpellingsStayApart() {
    #expect(Self.composed == Self.decomposed && !Self.composed.utf8.elementsEqual(Self.decomposed.utf8))
    let memo = ReadMemo()
    #expect(memo.shared(Self.composed).utf8.elementsEqual(Self.composed.utf8))
    #expect(memo.shared(Self.decomposed).utf8.elementsEqual(Self.decomposed.utf8))
    // Secrets compared outside the expectation, which would print them.
    let secretsKept = [Self.composed, Self.decomposed].map {
      memo.secret(PropertyListString($0)).value.utf8.elementsEqual($0.utf8)
    }
    #expect(secretsKept == [true, true])
  }
}

/// `ReadMemo` answers first from a few slots chosen by each string's length and a few of its bytes: strings that
/// share a slot but differ in between must each be given back as they were read.
@Suite struct ReadMemoSlotTests {
  @Test func stringsThatShareASlotStayApart() {
    let first = "https://login.example.com/tenant-a/contoso"
    let second = "https://login.example.com/tenant-b/contoso"
    let (firstText, secondText) = (PropertyListString(ascii: Data(first.utf8)), PropertyListString(second))
    #expect(firstText.withUTF8(RecentSlots<Void>.slot) == secondText.withUTF8(RecentSlots<Void>.slot))
    let memo = ReadMemo()
    for _ in 0..<2 {
      #expect(memo.shared(firstText) == first)
      #expect(memo.shared(secondText) == second)
      #expect(memo.shared(PropertyListString(ascii: Data(second.utf8))) == second)
      #expect(memo.shared(first) == first)
    }
  }

  /// The keychain attributes a memo decodes once per read are looked for in slots the same way.
  @Test func attributesThatShareASlotStayApart() {
    let authorities = ["https://login.example.com/tenant-a/contoso", "https://login.example.com/tenant-b/contoso"]
    let accounts = ["account-alpha-shared-middle-part-end", "account-bravo-shared-middle-part-end"]
    for pair in [authorities, accounts] {
      #expect(
        PropertyListString(pair[0]).withUTF8(RecentSlots<Void>.slot)
          == PropertyListString(pair[1]).withUTF8(RecentSlots<Void>.slot))
    }
    let memo = ReadMemo()
    for _ in 0..<2 {
      for authority in authorities {
        #expect(memo.canonicalAuthority(authority) == KeyConsistency.canonicalAuthority(authority))
      }
      for account in accounts {
        #expect(memo.account(account) == ADALKeychainAccount.decode(account))
      }
    }
  }
}

/// `ReadMemo` looks archived text up as the reader borrowed it from the input, but keeps text of its own: a
/// dump's input pages are given back as its items are decoded, and a kept borrowed string would read them.
@Suite struct ReadMemoBorrowedTextTests {
  /// Tracks whether the bytes `PropertyListString`s were borrowed from are still held by anything.
  final class InputTracker: @unchecked Sendable {
    var freed = false
  }

  /// Text borrowed from input bytes whose storage tells `tracker` when it is freed.
  static func borrowed(_ text: String, tracker: InputTracker) -> PropertyListString {
    let count = text.utf8.count
    let bytes = UnsafeMutableRawPointer.allocate(byteCount: count, alignment: 1)
    bytes.copyMemory(from: Array(text.utf8), byteCount: count)
    let input = Data(
      bytesNoCopy: bytes, count: count,
      deallocator: .custom { pointer, _ in
        pointer.deallocate()
        tracker.freed = true
      })
    return PropertyListString(ascii: input[...])
  }

  @Test func keptTextHoldsNoInput() {
    let memo = ReadMemo()
    let trackers = [InputTracker(), InputTracker(), InputTracker()]
    do {
      let authority = Self.borrowed("https://login.microsoftonline.com/contoso.onmicrosoft.com", tracker: trackers[0])
      #expect(memo.shared(authority) == "https://login.microsoftonline.com/contoso.onmicrosoft.com")
      _ = memo.secret(Self.borrowed("not-a-real-refresh-token-but-long-enough", tracker: trackers[1]))
      _ = memo.claims(for: Self.borrowed("e30.e30.", tracker: trackers[2]))
    }
    #expect(trackers.map(\.freed) == [true, true, true], "the memo holds the input its text was borrowed from")
    // Found again by borrowed text, as kept.
    let again = Self.borrowed("https://login.microsoftonline.com/contoso.onmicrosoft.com", tracker: InputTracker())
    #expect(memo.shared(again) == "https://login.microsoftonline.com/contoso.onmicrosoft.com")
  }
}

/// A memo answers a call for the token of the call before without its table (`ReadMemo`): in any order, each
/// call must still give its own token's entry, and a token's second call the entry its first one made.
@Suite struct ReadMemoOrderTests {
  /// A token's text as a dump's archive holds it: borrowed bytes of its own, not a native string.
  private func archived(_ text: String) -> PropertyListString { PropertyListString(ascii: Data(text.utf8)) }

  /// Where a string's UTF-8 is stored: equal for the one copy the memo keeps of a token.
  private func storage(_ text: String) -> UnsafeRawPointer? {
    text.utf8.withContiguousStorageIfAvailable { UnsafeRawPointer($0.baseAddress) } ?? nil
  }

  private let tokens = ["first.token-of-some-length.aaaa", "second.token-of-some-length.bbb", "third.token.c"]
  private let order = [0, 0, 1, 0, 1, 1, 2, 0, 2, 2]

  @Test func idTokensInAnyOrderGetTheirOwnEntry() {
    let memo = ReadMemo()
    var kept: [Int: UnsafeRawPointer?] = [:]
    for index in order {
      let idToken = memo.claims(for: archived(tokens[index])).idToken
      // Fingerprints only, so that a failure prints no token.
      #expect(idToken.fingerprint == ADALSecret(tokens[index]).fingerprint, "token \(index)")
      let place = storage(idToken.value)
      #expect(kept[index, default: place] == place, "token \(index) kept once")
      kept[index] = place
    }
  }

  @Test func secretsInAnyOrderGetTheirOwn() {
    let memo = ReadMemo()
    var kept: [Int: UnsafeRawPointer?] = [:]
    for index in order {
      let secret = memo.secret(archived(tokens[index]))
      #expect(secret.fingerprint == ADALSecret(tokens[index]).fingerprint, "secret \(index)")
      let place = storage(secret.value)
      #expect(kept[index, default: place] == place, "secret \(index) kept once")
      kept[index] = place
    }
  }
}
