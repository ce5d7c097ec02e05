import Adal2MSAL
import Foundation
import Testing
import _Adal2MSALTestSupport

/// A migration into a new encrypted store whose secrets cannot be sealed (a key AES-GCM refuses: the one way
/// sealing fails) fails as a whole: the error names the row and no secret, and neither the store nor the report
/// is left behind. `CacheStoreTests.SealingFailureTests` checks the rollback of an existing store.
@Suite struct SealingFailureRunTests {
  @Test(arguments: [nil, 2])
  func aRunWhoseSecretsCannotBeSealedLeavesNothing(itemsPerPart: Int?) async throws {
    let scratch = try Fixtures.temporaryDirectory("sealing-failure")
    defer { try? FileManager.default.removeItem(at: scratch) }
    let store = scratch.appendingPathComponent("cache.sqlite").path
    let report = scratch.appendingPathComponent("report.txt").path
    var options = MigrationRun.Options()
    options.migration = MigrationOptions(clock: .fixed(Date(timeIntervalSince1970: 1_790_000_000)))
    options.sealing = SecretSealing(uncheckedKeyBytes: Data(repeating: 0x5a, count: 31))
    options.report = .file(report)
    if let itemsPerPart {
      options.planWholeUpTo = itemsPerPart
      options.itemsPerPart = itemsPerPart
    }
    let dump = Fixtures.url("adal/dump-multiuser.xml.plist").path
    let error = await #expect(throws: CacheStoreError.self) {
      try await MigrationRun(adal: [dump], store: store, options: options).run()
    }
    #expect(error?.reason == .database)
    #expect(error?.message == "cannot seal a secret")
    #expect(error?.location.file == store)
    #expect(error?.location.keyPath?.isEmpty == false)
    let secrets = try SecretCorpus.adalManifestTokens().union(SecretCorpus.unifiedSecretsInDumps())
    let leaks = SecretCorpus.leaks(in: error?.description ?? "", of: secrets)
    #expect(leaks.isEmpty)
    let left = try FileManager.default.contentsOfDirectory(atPath: scratch.path)
    #expect(left.isEmpty, "left behind: \(left)")
  }
}
