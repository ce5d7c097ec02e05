import Adal2MSAL
import Foundation
import Testing
import _Adal2MSALTestSupport

/// A dump run again against the store its migration wrote, as a team checks before it migrates again: every
/// entity is planned against what the store holds, whole or in parts, written or not.
@Suite struct RunAgainstItsStoreTests {
  /// The store the dump's migration wrote, and how many entities it added.
  private static func migrated(_ name: String, options: MigrationRun.Options) async throws -> (String, Int) {
    let store = try Fixtures.temporaryDirectory(name).appendingPathComponent("cache.sqlite").path
    let first = try await MigrationRun(adal: [dump], store: store, options: options).run()
    return (store, try #require(first.totals[.add]))
  }

  private static let dump = Fixtures.url("adal/dump-multiuser.xml.plist").path

  /// Whole, and in parts of two items (each part planned against the store, and read twice).
  private static func options(itemsPerPart: Int?) -> MigrationRun.Options {
    var options = MigrationRun.Options()
    options.migration = MigrationOptions(clock: .fixed(Date(timeIntervalSince1970: 1_790_000_000)))
    if let itemsPerPart {
      options.planWholeUpTo = itemsPerPart
      options.itemsPerPart = itemsPerPart
    }
    return options
  }

  @Test(arguments: [nil, 2])
  func aDryRunPlansEveryEntityUnchangedAndLeavesTheStore(itemsPerPart: Int?) async throws {
    var options = Self.options(itemsPerPart: itemsPerPart)
    let (store, added) = try await Self.migrated("dry-run-again", options: options)
    let before = try Data(contentsOf: URL(fileURLWithPath: store))
    options.dryRun = true
    let again = try await MigrationRun(adal: [Self.dump], store: store, options: options).run()
    #expect(again.totals[.unchanged] == added)
    #expect(again.totals[.add] == nil)
    #expect(again.totals[.update] == nil)
    #expect(!again.wasWritten)
    #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before)
  }

  @Test(arguments: [nil, 2])
  func aRunAgainWritesNothingNew(itemsPerPart: Int?) async throws {
    let options = Self.options(itemsPerPart: itemsPerPart)
    let (store, added) = try await Self.migrated("migrate-again", options: options)
    let again = try await MigrationRun(adal: [Self.dump], store: store, options: options).run()
    #expect(again.totals[.unchanged] == added)
    #expect(again.totals[.add] == nil)
    let applied = try #require(again.applied)
    #expect(applied.rowsInserted == 0)
    #expect(applied.rowsUpdated == 0)
  }
}
