import ADALCache
import Adal2MSALSupport
import Adal2MSALSynthetic
import Foundation
import Testing
import _Adal2MSALTestSupport

/// A keychain dump read from a releasable input (`InputFile.readReleasable`) gives every page of the input
/// back by the end of the read, reads the same items as from bytes of its own, and keeps no part of the input.
@Suite struct InputReleaseTests {
  private static let dump = "adal/dump-multiuser.bplist"

  /// What a read says, tokens as fingerprints only.
  private func summary(_ result: ADALReadResult) -> [String] {
    result.items.map {
      [
        $0.authority, $0.resource ?? "-", $0.clientID, $0.refreshToken?.fingerprint ?? "-",
        $0.accessToken?.fingerprint ?? "-", $0.idToken?.fingerprint ?? "-", $0.source.service ?? "-",
        $0.source.account ?? "-", "\($0.source.itemIndex ?? -1)",
      ].joined(separator: " ")
    } + result.diagnostics.map(\.description) + ["\(result.unifiedItems.count) \(result.ignoredItemCount)"]
  }

  /// The fixture is one of the reader's chunks; the synthetic dump of 100 users is four (396 items), whose pages
  /// go chunk by chunk while later chunks are still read (a page given back too early is a crash).
  @Test(arguments: [(dump, 14), ("synthetic dump", 396)])
  func everyPageGoesByTheEndOfTheReadAndTheItemsAreTheSame(_ dump: String, items: Int) throws {
    let file: URL
    if dump == Self.dump {
      file = Fixtures.url(dump)
    } else {
      var generator = SyntheticGenerator(seed: 11)
      file = try Fixtures.temporaryDirectory("input-release").appendingPathComponent("dump.bplist")
      try Data(SyntheticFormat.binaryPlist.encode(generator.dump(users: 100))).write(to: file)
    }
    let (data, pages) = try InputFile.readReleasable(file.path)
    let inputPages = try #require(pages)
    #expect(inputPages.pageCount > 1)
    let released = try ADALCacheReader().read(data, file: dump, pages: inputPages)
    #expect(inputPages.releasedPageCount == inputPages.pageCount)
    let whole = try ADALCacheReader().read(try Data(contentsOf: file), file: dump)
    #expect(released.items.count == items)
    #expect(summary(released) == summary(whole))
  }

  @Test func theResultKeepsNoPartOfTheInput() throws {
    let freed = Flag()
    let result: ADALReadResult
    do {
      let bytes = try Fixtures.data(Self.dump)
      let storage = UnsafeMutableRawPointer.allocate(byteCount: bytes.count, alignment: 16)
      bytes.copyBytes(to: storage.assumingMemoryBound(to: UInt8.self), count: bytes.count)
      let data = Data(
        bytesNoCopy: storage, count: bytes.count,
        deallocator: .custom { pointer, _ in
          pointer.deallocate()
          freed.set()
        })
      result = try ADALCacheReader().read(data, file: Self.dump)
    }
    #expect(result.items.count == 14)
    // The input's data values are borrowed while the dump is read (`PropertyListReader.borrowsData`); none
    // may outlive it in what the read returns. The read lets go of its records on another core
    // (`releaseInBackground`), so the input goes once they have: a part kept by the result keeps it for good.
    BackgroundWork.waitForPending()
    #expect(freed.isSet)
  }
}

private final class Flag: @unchecked Sendable {
  private let lock = NSLock()
  private var value = false
  var isSet: Bool { lock.withLock { value } }
  func set() { lock.withLock { value = true } }
}
