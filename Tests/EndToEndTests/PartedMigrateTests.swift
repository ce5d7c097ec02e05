import Adal2MSAL
import Adal2MSALSynthetic
import Foundation
import Testing
import _Adal2MSALTestSupport

/// `migrate --plan-whole-up-to 0 --items-per-part N`: a run planned, written and reported a part at a time (its
/// inputs read twice)
/// gives the report of the run planned whole, byte for byte, and a store whose export is that run's, byte for
/// byte (row ids may be numbered otherwise). The inputs mix what ties users
/// across files: the same users in four dump formats, a fleet of devices, and an MSAL input.
@Suite(.serialized) struct PartedMigrateTests {
  static let now = "2026-11-21T00:00:00Z"

  func adal2msal(_ arguments: [String]) throws -> ProcessRunner.Output {
    let binary = try #require(BuiltProducts.url("adal2msal"), "adal2msal not built: run swift build --build-tests")
    return try ProcessRunner.run(binary, arguments: arguments, environment: ["NO_COLOR": "1", "PATH": "/usr/bin:/bin"])
  }

  /// A directory of dumps: the multi-user fixture in four formats (one holding MSAL items too), the corrupt one,
  /// and 12 synthetic devices. The fixtures come first in path order, so that a run in parts keeps their items.
  static func inputs() throws -> URL {
    let dir = try Fixtures.temporaryDirectory("parted-inputs")
    for name in [
      "dump-multiuser.xml.plist", "dump-multiuser.bplist", "dump-multiuser.objection.json",
      "dump-multiuser.base64.json", "dump-corrupt-items.xml.plist",
    ] {
      try FileManager.default.copyItem(
        at: Fixtures.url("adal/\(name)"), to: dir.appendingPathComponent("a-" + name))
    }
    _ = try SyntheticFleet.writeFleet(
      devices: 12, minItems: 5, maxItems: 20, format: nil, seed: 3, directory: dir, workers: 2)
    return dir
  }

  @Test func partsGiveTheWholeRunsReportAndStore() throws {
    let inputs = try Self.inputs()
    let msal = Fixtures.url("msal-json/msal-dotnet_token_cache_one_acc_seed.json").path
    var outputs: [String: (report: Data, redacted: Data, json: Data, export: Data)] = [:]
    // (plan whole up to, items per part): the default plans these few hundred items whole; 0 makes every run one
    // in parts, every file read again; 120 keeps the items of the files read first that fit in 80.
    let runs = [(100_000, 1_000_000), (0, 1), (0, 40), (120, 40)]
    for (planWholeUpTo, perPart) in runs {
      let run = "\(planWholeUpTo)-\(perPart)"
      let dir = try Fixtures.temporaryDirectory("parted-\(run)")
      let store = dir.appendingPathComponent("cache.sqlite").path
      let parts =
        planWholeUpTo == 100_000
        ? [] : ["--plan-whole-up-to", String(planWholeUpTo), "--items-per-part", String(perPart)]
      let common = ["--adal", inputs.path, "--msal", msal, "--now", Self.now] + parts
      let migrate = try adal2msal(
        ["migrate"] + common + ["--out", store, "--report", dir.appendingPathComponent("r.txt").path])
      #expect(migrate.exitCode == 2, "\(run): \(migrate.stderr)")
      let redacted = try adal2msal(
        ["migrate"] + common + [
          "--out", store, "--dry-run", "--redact-usernames", "--report", dir.appendingPathComponent("r.red").path,
        ])
      #expect(redacted.exitCode == 2, "\(run): \(redacted.stderr)")
      let json = try adal2msal(
        ["migrate"] + common + [
          "--out", dir.appendingPathComponent("none.sqlite").path, "--dry-run", "--report-format", "json",
        ])
      #expect(json.exitCode == 2, "\(run): \(json.stderr)")
      let export = dir.appendingPathComponent("export.json").path
      let exported = try adal2msal(["export", store, "--output", export])
      #expect(exported.exitCode == 0, "\(exported.stderr)")
      outputs[run] = (
        try Data(contentsOf: dir.appendingPathComponent("r.txt")),
        try Data(contentsOf: dir.appendingPathComponent("r.red")),
        Data(json.stdout.utf8), try Data(contentsOf: URL(fileURLWithPath: export))
      )
    }
    // Compared without `==`, whose failure message diffs the bytes: minutes for reports of this size.
    let whole = try #require(outputs["100000-1000000"])
    #expect(whole.report.count > 10_000 && whole.export.count > 10_000)
    for (planWholeUpTo, perPart) in runs.dropFirst() {
      let run = "\(planWholeUpTo)-\(perPart)"
      let parted = try #require(outputs[run])
      #expect(parted.report.elementsEqual(whole.report), "\(run): the report differs")
      #expect(parted.redacted.elementsEqual(whole.redacted), "\(run): the redacted report differs")
      #expect(parted.json.elementsEqual(whole.json), "\(run): the JSON report differs")
      #expect(parted.export.elementsEqual(whole.export), "\(run): the store differs")
    }
  }

  /// The library's run (`MigrationRun`, what `migrate` calls) planned in parts gives the report and the store
  /// of the same run planned whole, and the same outcome.
  @Test func theLibraryRunInPartsGivesTheWholeRun() async throws {
    let inputs = try Self.inputs()
    let dir = try Fixtures.temporaryDirectory("parted-library")
    var options = MigrationRun.Options()
    options.migration = MigrationOptions(clock: .fixed(Date(timeIntervalSince1970: 1_790_000_000)))
    options.reportFormat = .text
    var results: [(outcome: MigrationOutcome, report: Data, export: Data)] = []
    for (name, planWholeUpTo) in [("whole", 100_000), ("parts", 0)] {
      options.planWholeUpTo = planWholeUpTo
      options.itemsPerPart = 30
      options.report = .file(dir.appendingPathComponent("\(name).txt").path)
      let store = dir.appendingPathComponent("\(name).sqlite").path
      let outcome = try await MigrationRun(adal: [inputs.path], store: store, options: options).run()
      results.append(
        (
          outcome, try Data(contentsOf: dir.appendingPathComponent("\(name).txt")),
          try ExportRun(store: store).run().data
        ))
    }
    let (whole, parts) = (results[0], results[1])
    #expect(whole.report.count > 10_000 && whole.export.count > 10_000)
    #expect(parts.report.elementsEqual(whole.report))
    #expect(parts.export.elementsEqual(whole.export))
    #expect(parts.outcome.verdict == whole.outcome.verdict && whole.outcome.result == .partial)
    #expect(parts.outcome.totals == whole.outcome.totals && parts.outcome.skipsByReason == whole.outcome.skipsByReason)
    #expect(parts.outcome.usersWithProblems == whole.outcome.usersWithProblems)
    #expect(whole.outcome.applied?.rowsInserted == whole.outcome.totals[.add])
    #expect(whole.outcome.reportFile == dir.appendingPathComponent("whole.txt").path)
  }

  /// `run(progress:)` reports each stage in its unit: every file and byte read (twice for a run in parts), the
  /// items planned, the rows written.
  @Test(arguments: [100_000, 0])
  func aRunReportsItsStages(planWholeUpTo: Int) async throws {
    let inputs = try Self.inputs()
    let dir = try Fixtures.temporaryDirectory("parted-progress")
    let files = try FileManager.default.contentsOfDirectory(atPath: inputs.path)
    let bytes = try files.reduce(0) {
      $0 + (try FileManager.default.attributesOfItem(atPath: inputs.appendingPathComponent($1).path)[.size] as! Int)
    }
    var options = MigrationRun.Options()
    options.planWholeUpTo = planWholeUpTo
    options.itemsPerPart = 40
    let seen = ProgressLog()
    let outcome = try await MigrationRun(
      adal: [inputs.path], store: dir.appendingPathComponent("cache.sqlite").path, options: options
    ).run { seen.add($0) }
    let reports = seen.reports
    let reading = reports.filter { $0.stage == .reading }
    #expect(reading.first == RunProgress(stage: .reading, done: 0, total: bytes, files: 0, totalFiles: files.count))
    let finished = reading.filter { $0.files == files.count }
    #expect(finished.count == (planWholeUpTo == 0 ? 2 : 1) && finished.allSatisfy { $0.done == bytes })
    let planning = reports.filter { $0.stage == .planning }
    #expect(planning.map(\.done) == planning.map(\.done).sorted() && planning.count >= (planWholeUpTo == 0 ? 3 : 1))
    #expect(planning.last?.done == planning.last?.total && planning.last?.total ?? 0 > 100)
    let written = (outcome.applied?.rowsInserted ?? 0) + (outcome.applied?.rowsUpdated ?? 0)
    #expect(
      written > 0
        && reports.last { $0.stage == .writing } == RunProgress(stage: .writing, done: written, total: written))
    #expect(Set(reports.map(\.stage)) == [.reading, .planning, .writing])
  }

  /// A part holds whole files, so a lone file is planned whole however small `planWholeUpTo` is: it is read once,
  /// and the first pass keeps its items.
  @Test func aLoneFileIsPlannedWholeAtAnySize() async throws {
    let dump = Fixtures.url("adal/dump-multiuser.bplist")
    let index = try await MigrationPipeline().index(adal: [dump.path], msal: [], keepingAtMost: 0, itemsPerPart: 1)
    #expect(index.isOnePart && index.itemCount > 0)
    var options = MigrationRun.Options()
    options.planWholeUpTo = 0
    options.itemsPerPart = 1
    let seen = ProgressLog()
    let outcome = try await MigrationRun(adal: [dump.path], store: nil, options: options).run { seen.add($0) }
    let finished = seen.reports.filter { $0.stage == .reading && $0.files == 1 }
    #expect(finished.count == 1, "the file was read \(finished.count) times")
    #expect(outcome.totals.values.reduce(0, +) > 0)
  }

  /// The second pass checks every file's digest: a file changed after it was first read stops the run.
  @Test func aFileChangedBetweenThePassesStopsTheRun() async throws {
    let dir = try Fixtures.temporaryDirectory("parted-changed")
    let files = ["a.xml.plist", "b.xml.plist"].map { dir.appendingPathComponent($0) }
    for file in files {
      try FileManager.default.copyItem(at: Fixtures.url("adal/dump-multiuser-classes.xml.plist"), to: file)
    }
    let pipeline = MigrationPipeline()
    var index = try await pipeline.index(adal: [dir.path], msal: [], keepingAtMost: 1, itemsPerPart: 1)
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

/// A run in parts keeps the items of the files read first while they fit in `maxItems - itemsPerPart`, and its
/// parts read only the other files again, each once; every file's items are planned, and none twice.
@Test func aRunInPartsReadsAgainOnlyTheFilesItDidNotKeep() async throws {
  let inputs = try PartedMigrateTests.inputs()
  let fileCount = try FileManager.default.contentsOfDirectory(atPath: inputs.path).count
  let pipeline = MigrationPipeline()
  var index = try await pipeline.index(adal: [inputs.path], msal: [], keepingAtMost: 120, itemsPerPart: 40)
  let toReadAgain = index.pathsToReadAgain
  #expect(!index.isOnePart && index.itemCount > 120)
  #expect(!toReadAgain.isEmpty && toReadAgain.count < fileCount, "\(toReadAgain.count) of \(fileCount) files")
  let reread = ProgressLog.Paths()
  var session = PlanningSession()
  var planned = 0
  let rest = try pipeline.planInParts(
    &index, session: &session, existing: UnifiedCacheContents(), maxItems: 40, progress: { reread.add($0) },
    planningPart: { planned += $0 }
  ) { _ in }
  #expect(reread.paths.sorted() == toReadAgain.sorted())
  #expect(planned == index.itemCount)
  #expect(rest.inputs.count == fileCount)
}

/// A run's progress reports, from any thread.
private final class ProgressLog: @unchecked Sendable {
  private let lock = NSLock()
  private var seen: [RunProgress] = []
  func add(_ progress: RunProgress) { lock.withLock { seen.append(progress) } }
  var reports: [RunProgress] { lock.withLock { seen } }

  /// Paths a pass reports, from any thread.
  final class Paths: @unchecked Sendable {
    private let lock = NSLock()
    private var seen: [String] = []
    func add(_ path: String) { lock.withLock { seen.append(path) } }
    var paths: [String] { lock.withLock { seen } }
  }
}
