import Foundation
import GRDB
import MigrationEngine
import Testing
import UnifiedCache
import _Adal2MSALTestSupport

@testable import CacheStore

/// Helpers shared by the store tests.
enum StoreTestSupport {
  /// A fresh store path in a new temporary directory.
  static func freshPath(_ name: String = "cache.sqlite") throws -> String {
    try Fixtures.temporaryDirectory("store").appendingPathComponent(name).path
  }

  /// Every unified-cache JSON fixture.
  static func fixtureFiles() throws -> [URL] {
    try Fixtures.files(in: "msal-json", withExtension: "json")
  }

  /// The fixture read with the unified reader.
  static func read(_ url: URL) throws -> UnifiedCacheContents {
    try UnifiedCacheJSONReader().read(Data(contentsOf: url), file: url.lastPathComponent).contents
  }

  /// Imports files into the store the way `adal2msal import` does.
  @discardableResult
  static func importFiles(_ urls: [URL], into store: CacheStore) throws -> AppliedRunSummary {
    let files = try urls.map { url in
      let data = try Data(contentsOf: url)
      return (
        path: url.lastPathComponent, data: data,
        cache: try UnifiedCacheJSONReader().read(data, file: url.lastPathComponent)
      )
    }
    let planned = ImportPlan.make(files: files, existing: try store.contents())
    return try store.apply(planned.plan, options: ApplyOptions(unknownSections: planned.unknownSections))
  }

  /// A plan that adds (or updates) every entity of `contents`.
  static func plan(adding contents: UnifiedCacheContents, file: String = "test.json") -> MigrationPlan {
    plan(adding: contents.allEntities, file: file)
  }

  /// A plan that adds `entities`, in this order.
  static func plan(adding entities: [AnyUnifiedEntity], file: String = "test.json") -> MigrationPlan {
    let entries = entities.enumerated().map { index, entity in
      PlanEntry(
        action: .add, entity: entity, reasonCode: "test.add", reason: "test",
        sources: [PlanSource(file: file, itemIndex: index, label: "test \(entity.kind.rawValue)")])
    }
    return MigrationPlan(entries: entries, plannedAt: Date(timeIntervalSince1970: 1_700_000_000))
  }

  /// Row counts of the tables an apply writes.
  struct Counts: Equatable, CustomStringConvertible {
    var accounts = 0, credentials = 0, appMetadata = 0, runs = 0, provenance = 0
    var description: String {
      "accounts \(accounts), credentials \(credentials), app_metadata \(appMetadata), runs \(runs), provenance \(provenance)"
    }
  }

  static func counts(_ store: CacheStore) throws -> Counts {
    try store.queue.read { db in
      func count(_ table: String) throws -> Int { try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table)") ?? -1 }
      return Counts(
        accounts: try count("accounts"), credentials: try count("credentials"), appMetadata: try count("app_metadata"),
        runs: try count("runs"), provenance: try count("provenance"))
    }
  }

  /// The permission bits of a file.
  static func mode(_ path: String) -> UInt16? { StoreFile.mode(of: path) }

  /// A file's size in bytes; nil when it does not exist.
  static func size(_ path: String) -> Int? {
    (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? nil
  }

  /// The built `adal2msal-bench`.
  static func benchBinary() throws -> URL {
    try #require(BuiltProducts.url("adal2msal-bench"), "adal2msal-bench not built: run swift build --build-tests")
  }
}
