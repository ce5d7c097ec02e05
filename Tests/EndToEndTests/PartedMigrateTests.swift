import Adal2MSAL
import Adal2MSALSynthetic
import Foundation
import Testing
import _Adal2MSALTestSupport

/// `migrate --plan-whole-up-to 0 --items-per-part N`: a run planned, written and reported a part at a time (its
/// inputs read twice)
/// gives the report and the store of the run planned whole, byte for byte. The inputs mix what ties users
/// across files: the same users in four dump formats, a fleet of devices, and an MSAL input.
@Suite(.serialized) struct PartedMigrateTests {
  static let now = "2026-11-21T00:00:00Z"

  func adal2msal(_ arguments: [String]) throws -> ProcessRunner.Output {
    let binary = try #require(BuiltProducts.url("adal2msal"), "adal2msal not built: run swift build --build-tests")
    return try ProcessRunner.run(binary, arguments: arguments, environment: ["NO_COLOR": "1", "PATH": "/usr/bin:/bin"])
  }

  /// A directory of dumps: the multi-user fixture in four formats, the corrupt one, and 12 synthetic devices.
  static func inputs() throws -> URL {
    let dir = try Fixtures.temporaryDirectory("parted-inputs")
    for name in [
      "dump-multiuser.xml.plist", "dump-multiuser.bplist", "dump-multiuser.objection.json",
      "dump-multiuser.base64.json", "dump-corrupt-items.xml.plist",
    ] {
      try FileManager.default.copyItem(at: Fixtures.url("adal/\(name)"), to: dir.appendingPathComponent(name))
    }
    _ = try SyntheticFleet.writeFleet(
      devices: 12, minItems: 5, maxItems: 20, format: nil, seed: 3, directory: dir, workers: 2)
    return dir
  }

  @Test func partsGiveTheWholeRunsReportAndStore() throws {
    let inputs = try Self.inputs()
    let msal = Fixtures.url("msal-json/msal-dotnet_token_cache_one_acc_seed.json").path
    var outputs: [Int: (report: Data, redacted: Data, json: Data, export: Data)] = [:]
    for perPart in [1_000_000, 1, 40] {
      let dir = try Fixtures.temporaryDirectory("parted-\(perPart)")
      let store = dir.appendingPathComponent("cache.sqlite").path
      // The default plans these few hundred items whole; 0 makes every run one in parts.
      let parts = perPart == 1_000_000 ? [] : ["--plan-whole-up-to", "0", "--items-per-part", String(perPart)]
      let common = ["--adal", inputs.path, "--msal", msal, "--now", Self.now] + parts
      let migrate = try adal2msal(
        ["migrate"] + common + ["--out", store, "--report", dir.appendingPathComponent("r.txt").path])
      #expect(migrate.exitCode == 2, "\(perPart): \(migrate.stderr)")
      let redacted = try adal2msal(
        ["migrate"] + common + [
          "--out", store, "--dry-run", "--redact-usernames", "--report", dir.appendingPathComponent("r.red").path,
        ])
      #expect(redacted.exitCode == 2, "\(perPart): \(redacted.stderr)")
      let json = try adal2msal(
        ["migrate"] + common + [
          "--out", dir.appendingPathComponent("none.sqlite").path, "--dry-run", "--report-format", "json",
        ])
      #expect(json.exitCode == 2, "\(perPart): \(json.stderr)")
      let export = dir.appendingPathComponent("export.json").path
      let exported = try adal2msal(["export", store, "--output", export])
      #expect(exported.exitCode == 0, "\(exported.stderr)")
      outputs[perPart] = (
        try Data(contentsOf: dir.appendingPathComponent("r.txt")),
        try Data(contentsOf: dir.appendingPathComponent("r.red")),
        Data(json.stdout.utf8), try Data(contentsOf: URL(fileURLWithPath: export))
      )
    }
    let whole = try #require(outputs[1_000_000])
    #expect(whole.report.count > 10_000 && whole.export.count > 10_000)
    for perPart in [1, 40] {
      let parted = try #require(outputs[perPart])
      #expect(parted.report == whole.report, "\(perPart) items per part: the report differs")
      #expect(parted.redacted == whole.redacted, "\(perPart) items per part: the redacted report differs")
      #expect(parted.json == whole.json, "\(perPart) items per part: the JSON report differs")
      #expect(parted.export == whole.export, "\(perPart) items per part: the store differs")
    }
  }

  /// The README's library example of a run in parts, on the same inputs: its report and store are the
  /// whole run's (`read`, `plan`, `apply`).
  @Test func theLibraryRunInPartsGivesTheWholeRun() async throws {
    let inputs = try Self.inputs()
    let dir = try Fixtures.temporaryDirectory("parted-library")
    let pipeline = MigrationPipeline(
      options: MigrationOptions(clock: .fixed(Date(timeIntervalSince1970: 1_790_000_000))))

    let store = try CacheStore.open(path: dir.appendingPathComponent("parts.sqlite").path)
    var index = try await pipeline.index(adal: [inputs.path], msal: [], keepingAtMost: 30)
    let existing = try store.contents()
    var session = PlanningSession(options: pipeline.options, existing: existing)
    var spool = ReportSpool(format: .text)
    var report: [UInt8] = []
    try store.applyInParts(plannedAt: session.plannedAt, inputs: index.records) { writer in
      let rest = try pipeline.planInParts(&index, session: &session, existing: existing, maxItems: 30) { part in
        try spool.add(part)
        try writer.write(part)
      }
      try writer.write(rest)
      try spool.finish(rest) { report += $0 }
    }

    let whole = try CacheStore.open(path: dir.appendingPathComponent("whole.sqlite").path)
    let plan = pipeline.plan(try await pipeline.read(adal: [inputs.path], msal: []), existing: try whole.contents())
    try whole.apply(plan)
    #expect(String(decoding: report, as: UTF8.self) == Migration.report(plan).text())
    #expect(try store.exportJSON() == whole.exportJSON())
    #expect(try store.contents().accounts.count > 10)
  }

  /// The second pass checks every file's digest: a file changed after it was first read stops the run.
  @Test func aFileChangedBetweenThePassesStopsTheRun() async throws {
    let dir = try Fixtures.temporaryDirectory("parted-changed")
    let files = ["a.xml.plist", "b.xml.plist"].map { dir.appendingPathComponent($0) }
    for file in files {
      try FileManager.default.copyItem(at: Fixtures.url("adal/dump-multiuser-classes.xml.plist"), to: file)
    }
    let pipeline = MigrationPipeline()
    var index = try await pipeline.index(adal: [dir.path], msal: [], keepingAtMost: 1)
    try FileManager.default.removeItem(at: files[1])
    try FileManager.default.copyItem(at: Fixtures.url("adal/dump-multiuser.xml.plist"), to: files[1])
    var session = PlanningSession()
    #expect {
      _ = try pipeline.planInParts(&index, session: &session, existing: UnifiedCacheContents(), maxItems: 1) { _ in }
    } throws: { error in
      "\(error)".contains("b.xml.plist") && "\(error)".contains("changed")
    }
  }
}
