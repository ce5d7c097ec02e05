import Adal2MSAL
import Foundation
import Testing
import _Adal2MSALTestSupport

/// Every Swift block of README.md and of the DocC catalog is one of the files in `DocExamples/`, verbatim:
/// those files are compiled with this target and run here on fixtures, so a block that no longer compiles or
/// works fails the build or a test, and a block edited in the docs alone fails `everySwiftBlockIsAnExample`.
@Suite struct DocExampleTests {
  static let examples = Fixtures.repositoryRoot.appendingPathComponent("Tests/EndToEndTests/DocExamples")

  /// README.md and the catalog's articles.
  static func documents() throws -> [URL] {
    let catalog = Fixtures.repositoryRoot.appendingPathComponent("Sources/Adal2MSAL/Adal2MSAL.docc")
    let articles = try FileManager.default.contentsOfDirectory(atPath: catalog.path).filter { $0.hasSuffix(".md") }
    return [Fixtures.repositoryRoot.appendingPathComponent("README.md")]
      + articles.sorted().map { catalog.appendingPathComponent($0) }
  }

  /// The contents of the ```swift blocks of `text`, each with its final newline.
  static func swiftBlocks(_ text: String) -> [String] {
    var blocks: [String] = []
    var current: [Substring]?
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      if current == nil, line == "```swift" {
        current = []
      } else if let lines = current, line == "```" {
        blocks.append(lines.map { $0 + "\n" }.joined())
        current = nil
      } else {
        current?.append(line)
      }
    }
    return blocks
  }

  @Test func everySwiftBlockIsAnExample() throws {
    var files: [String: String] = [:]
    for name in try FileManager.default.contentsOfDirectory(atPath: Self.examples.path) where name.hasSuffix(".swift") {
      files[name] = try String(contentsOf: Self.examples.appendingPathComponent(name), encoding: .utf8)
    }
    var shown: Set<String> = []
    var blockCount = 0
    for document in try Self.documents() {
      for block in Self.swiftBlocks(try String(contentsOf: document, encoding: .utf8)) {
        blockCount += 1
        let match = files.first { $0.value == block }?.key
        #expect(
          match != nil,
          "\(document.lastPathComponent): a swift block is no file of Tests/EndToEndTests/DocExamples: \(block.prefix(300))"
        )
        if let match { shown.insert(match) }
      }
    }
    #expect(blockCount >= 4)
    #expect(shown == Set(files.keys), "examples no document shows: \(Set(files.keys).subtracting(shown).sorted())")
  }

  @Test func theLibraryExampleMigratesImportsAndExports() async throws {
    let dir = try Fixtures.temporaryDirectory("doc-library")
    let store = dir.appendingPathComponent("cache.sqlite").path
    let export = dir.appendingPathComponent("msal_token_cache.json").path
    try await migrateImportAndExport(
      dump: Fixtures.url("adal/dump-multiuser.xml.plist").path,
      msalCache: Fixtures.url("msal-json/msal-dotnet_token_cache_one_acc_seed.json").path, store: store,
      export: export)
    let exported = try Data(contentsOf: URL(fileURLWithPath: export))
    let accounts = try CacheStore.open(path: store).contents().accounts
    #expect(accounts.count == 4, "3 migrated accounts and the seed's")
    #expect(accounts.allSatisfy { exported.range(of: Data($0.homeAccountID.utf8)) != nil })
  }

  @Test func migratingADumpPreviewsThenRefusesAStrictRunWithProblems() async throws {
    let dir = try Fixtures.temporaryDirectory("doc-dump")
    let store = dir.appendingPathComponent("cache.sqlite").path
    let report = dir.appendingPathComponent("plan.md").path
    let written = try await migrateCarefully(
      dump: Fixtures.url("adal/dump-multiuser.xml.plist").path, store: store, report: report)
    #expect(!written && !FileManager.default.fileExists(atPath: store))
    let text = try String(contentsOfFile: report, encoding: .utf8)
    #expect(text.hasPrefix("# adal2msal migration plan"))
  }

  @Test func aPipelineRunStreamsItsReportAndLogsItsProgress() async throws {
    let dir = try Fixtures.temporaryDirectory("doc-fleet")
    let fleet = dir.appendingPathComponent("fleet")
    try FileManager.default.createDirectory(at: fleet, withIntermediateDirectories: true)
    for name in ["dump-multiuser.xml.plist", "dump-multiuser-classes.xml.plist"] {
      try FileManager.default.copyItem(at: Fixtures.url("adal/\(name)"), to: fleet.appendingPathComponent(name))
    }
    let collected = Collected()
    let result = try await migrateFleet(
      directory: fleet.path, store: dir.appendingPathComponent("cache.sqlite").path, log: { collected.log($0) },
      send: { collected.send($0) })
    #expect(result == .partial)
    let report = try #require(try JSONSerialization.jsonObject(with: collected.report) as? [String: Any])
    #expect(report["schemaVersion"] as? Int == 1)
    #expect(collected.lines.contains { $0.hasPrefix("reading: ") })
    #expect(collected.lines.contains { $0.hasPrefix("skips by reason: ") })
  }

  @Test func aReportThatIsTheRunsInputIsRefusedAndTheInputKept() async throws {
    let dir = try Fixtures.temporaryDirectory("doc-refused")
    defer { try? FileManager.default.removeItem(at: dir) }
    let input = dir.appendingPathComponent("cache.json").path
    try FileManager.default.copyItem(
      atPath: Fixtures.url("msal-json/msal-dotnet_token_cache_one_acc_seed.json").path, toPath: input)
    let before = try Data(contentsOf: URL(fileURLWithPath: input))
    let store = dir.appendingPathComponent("cache.sqlite").path
    let refused = try await migrateWithReport(msal: [input], store: store, report: input)
    #expect(refused.hasPrefix("refused: the report \(input) is the same file as the MSAL input \(input)"), "\(refused)")
    #expect(try Data(contentsOf: URL(fileURLWithPath: input)) == before)
    #expect(!FileManager.default.fileExists(atPath: store))
    let summary = try await migrateWithReport(
      msal: [input], store: store, report: dir.appendingPathComponent("report.txt").path)
    #expect(!summary.hasPrefix("refused"), "\(summary)")
    #expect(FileManager.default.fileExists(atPath: store))
  }

  @Test func inspectingAFileNamesItsFormat() throws {
    let text = try describe(file: Fixtures.url("adal/dump-multiuser.xml.plist").path)
    #expect(text.contains("format: ADAL keychain-plist-array"))
  }
}

/// What a pipeline example hands its closures, from any thread.
private final class Collected: @unchecked Sendable {
  private let lock = NSLock()
  private var data = Data()
  private var logged: [String] = []

  func log(_ line: String) { lock.withLock { logged.append(line) } }
  func send(_ chunk: Data) { lock.withLock { data.append(chunk) } }
  var report: Data { lock.withLock { data } }
  var lines: [String] { lock.withLock { logged } }
}
