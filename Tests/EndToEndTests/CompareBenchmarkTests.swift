import Foundation
import Testing
import _Adal2MSALTestSupport

/// `adal2msal-bench compare` states issue 23's write target from the store's write of the same dump: its rate must
/// be of the rows `adal2msal migrate` wrote, in every round, or the figure in README is of something else. No timing
/// here: `compare` does that, on dumps of thousands of users.
struct CompareBenchmarkTests {
  @Test(.enabled(if: StraightforwardScriptTests.python != nil, "no python3"))
  func theWriteLineIsOfTheRowsMigrateWroteInEveryRound() throws {
    let lines = try BenchHarness.lines(
      ["compare", "--users", "12", "--rounds", "2", "--python", try #require(StraightforwardScriptTests.python)],
      workName: "compare")
    // "adal2msal migrate   MIN  MEDIAN  CPU  PEAK  STORE  ROWS  LOADED of ROUNDS"
    let migrate = try #require(lines.first { $0.hasPrefix("adal2msal migrate ") }, "\(lines.joined(separator: "\n"))")
    let migrateColumns = migrate.split(separator: " ")
    let migratedRows = try #require(Int(migrateColumns[migrateColumns.count - 4]), "\(migrate)")
    #expect(migratedRows > 0)

    // "adal2msal write (CacheStore.apply of N rows, provenance included): R rows/s (min time), M (median); the
    // floor's plain SQLite loop of as many rows: P, Q; L of ROUNDS loaded   [target: ...]"
    let write = try #require(lines.first { $0.hasPrefix("adal2msal write (") }, "\(lines.joined(separator: "\n"))")
    let numbers = BenchHarness.figures(of: write)
    try #require(numbers.count >= 7, "\(write)")
    #expect(numbers[0] == migratedRows, "the write's rows are not migrate's: \(write)")
    let (fastest, median, plainFastest, plainMedian) = (numbers[1], numbers[2], numbers[3], numbers[4])
    #expect(fastest >= median && median > 0, "\(write)")
    #expect(plainFastest >= plainMedian && plainMedian > 0, "\(write)")
    // Rows of hundreds of bytes, made durable: a rate no SQLite write reaches is a rate of no timing at all.
    #expect(fastest < 10_000_000 && plainFastest < 10_000_000, "\(write)")
    #expect(numbers[6] == 2, "one write a round: \(write)")

    // "adal2msal cores busy (...): decoding D, planning P, the text report R, the write W, of N cores   [target:
    // both cores used where the work splits]": each stage's CPU over its wall time, none above the machine's cores.
    let busy = try #require(lines.first { $0.hasPrefix("adal2msal cores busy (") }, "\(lines.joined(separator: "\n"))")
    let stated = busy.split(separator: "): ", maxSplits: 1).last.map(String.init) ?? ""
    let stages = ["decoding", "planning", "the text report", "the write"]
    let cores = try stages.map { stage in
      let figure = stated.components(separatedBy: "\(stage) ").dropFirst().first?.prefix { $0 != "," }
      return try #require(figure.flatMap { Double($0) }, "no figure for \(stage): \(busy)")
    }
    let machine = ProcessInfo.processInfo.activeProcessorCount
    #expect(stated.contains(", of \(machine) cores   [target: both cores used where the work splits]"), "\(busy)")
    for (stage, busyCores) in zip(stages, cores) {
      #expect(busyCores > 0 && busyCores <= Double(machine) + 0.25, "\(stage): \(busy)")
    }

    // "same work: both stores hold the same R refresh tokens, A access tokens, I id tokens, U users and M apps
    // (...)": the ratios are of the same work. Each generated user has one refresh token secret and one id token.
    let work = try #require(lines.first { $0.hasPrefix("same work: ") }, "\(lines.joined(separator: "\n"))")
    let held = work.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
    try #require(held.count == 5, "\(work)")
    #expect(held[0] == 12 && held[2] == 12 && held[3] == 12 && held[1] > 0 && held[4] > 0, "\(work)")
  }

  /// A yardstick that does less than adal2msal makes adal2msal look slower, and one that does more makes it look
  /// faster: on a generated dump, which both must migrate whole, `compare` says what differs and fails.
  @Test(.enabled(if: StraightforwardScriptTests.python != nil, "no python3"))
  func aScriptThatKeepsFewerTokensIsNotTheSameWork() throws {
    let original = try String(
      contentsOf: Fixtures.repositoryRoot.appendingPathComponent("scripts/bench/straightforward_migrate.py"),
      encoding: .utf8)
    let keepsThree = original.replacingOccurrences(
      of: "        if refresh:\n", with: "        if refresh and len(refresh_tokens) < 3:\n")
    try #require(keepsThree != original, "the script no longer has the line this test changes")
    let script = try Fixtures.temporaryDirectory("compare-fewer").appendingPathComponent("keeps_three.py")
    try keepsThree.write(to: script, atomically: true, encoding: .utf8)

    let output = try BenchHarness.run(
      [
        "compare", "--users", "12", "--rounds", "1", "--python", try #require(StraightforwardScriptTests.python),
        "--script", script.path,
      ],
      workName: "compare-fewer-work")
    #expect(output.exitCode == 1, "\(output.stderr)")
    #expect(
      output.stderr.contains(
        "the script and adal2msal did not migrate the same tokens, users and apps of 12 users, generated binary plist"),
      "\(output.stderr)")
    let lines = output.stdout.split(separator: "\n").map(String.init)
    let header = try #require(lines.firstIndex(of: "NOT the same work, so the ratios compare unlike runs:"), "\(lines)")
    // Only the refresh tokens differ; the table and its ratios are still printed, for what they are.
    #expect(
      lines[header + 1] == "  refresh tokens: 12 in adal2msal's store, 3 in the script's; 9 only in adal2msal's, 0 "
        + "only in the script's")
    #expect(lines[header + 2].hasPrefix("script / adal2msal: "), "\(lines)")
    #expect(!output.stdout.contains("same work: both"), "\(output.stdout)")
  }

  /// A team times both contenders on its own dump (`--input`): a real one may hold items adal2msal cannot
  /// migrate, which it names and exits 2 for, and the comparison says so instead of stopping.
  @Test(.enabled(if: StraightforwardScriptTests.python != nil, "no python3"))
  func aDumpOfYourOwnIsComparedAndItsPartialMigrationSaid() throws {
    // Written by plistlib (scripts/fixtures/make_adal_fixtures.py): a conflict and an ADFS item without an id
    // token leave items unmigrated, so adal2msal exits 2 on it.
    let dump = Fixtures.url("adal/dump-multiuser.xml.plist").path
    let lines = try BenchHarness.lines(
      ["compare", "--input", dump, "--rounds", "1", "--python", try #require(StraightforwardScriptTests.python)],
      workName: "compare-own")
    let text = lines.joined(separator: "\n")
    // "== PATH: N ADAL items, M MB; 1 rounds, interleaved =="
    let header = try #require(lines.first { $0.hasPrefix("== \(dump): ") }, "\(text)")
    let items = try #require(Int(header.dropFirst("== \(dump): ".count).prefix { $0.isNumber }), "\(header)")
    #expect(items > 0, "\(header)")
    #expect(!lines.contains { $0.contains("users, generated") }, "no generated dump without --users: \(text)")
    // The migration, its dry run, and both runs against its store.
    #expect(
      lines.contains(
        "adal2msal exited with status 2 in 4 run(s): items it could not read or model were left "
          + "out, each named in its report (adal2msal migrate --adal DUMP --dry-run shows them)"), "\(text)")
    let migrate = try #require(lines.first { $0.hasPrefix("adal2msal migrate ") }, "\(text)")
    let write = try #require(lines.first { $0.hasPrefix("adal2msal write (") }, "\(text)")
    #expect(migrate.split(separator: " ").dropLast(3).last.flatMap { Int($0) } == BenchHarness.figures(of: write).first)
    // The items adal2msal names and leaves out, the script migrates by its simpler rules, and the other way round:
    // the table says the two did not do the same work.
    let unlike = try #require(lines.firstIndex(of: "NOT the same work, so the ratios compare unlike runs:"), "\(text)")
    #expect(
      lines[unlike + 1] == "  refresh tokens: 6 in adal2msal's store, 5 in the script's; 4 only in adal2msal's, 3 "
        + "only in the script's", "\(text)")
  }

  /// The script reads property lists only: a dump of another format would time its failure, so it is refused
  /// by name before anything runs.
  @Test func aDumpTheScriptCannotReadIsRefusedByName() throws {
    let dump = Fixtures.url("adal/dump-multiuser.objection.json").path
    let output = try BenchHarness.run(["compare", "--input", dump], workName: "compare-refused")
    #expect(output.exitCode == 64, "\(output.stderr)")
    #expect(output.stderr.contains("--input \(dump): not a property list"), "\(output.stderr)")
    #expect(!output.stdout.contains("round 1"), "\(output.stdout)")
  }

  /// A property list the script would misread, or one with nothing to migrate, is refused by what adal2msal's
  /// reader makes of it: the script would fail on the first, and on the second both contenders would time doing
  /// nothing and the table print ratios of nothing (a peak 80,000 times the input).
  @Test(arguments: [
    ("adal/dump-multiuser-classes.xml.plist", "adal2msal reads it as keychain-plist-classes; this benchmark"),
    ("adal/macos-blob.bplist", "adal2msal reads it as macos-blob; this benchmark"),
    ("plist/foundation-sample.xml.plist", "the XML property list is neither a keychain dump nor a keyed archive"),
  ])
  func aPropertyListTheScriptWouldMisreadIsRefusedByName(fixture: String, refusal: String) throws {
    let dump = Fixtures.url(fixture).path
    let output = try BenchHarness.run(["compare", "--input", dump], workName: "compare-misread")
    #expect(output.exitCode == 64, "\(output.stderr)")
    #expect(output.stderr.contains("--input \(dump): \(refusal)"), "\(output.stderr)")
    #expect(!output.stdout.contains("round 1"), "\(output.stdout)")
  }

  @Test func aKeychainDumpWithoutADALItemsIsRefused() throws {
    let dump = try BenchHarness.dumpWithoutADALItems("compare-no-adal")
    let output = try BenchHarness.run(["compare", "--input", dump.path], workName: "compare-no-adal-work")
    #expect(output.exitCode == 64, "\(output.stderr)")
    #expect(
      output.stderr.contains("--input \(dump.path): no ADAL items (1 other keychain item(s)); nothing to migrate"),
      "\(output.stderr)")
    #expect(!output.stdout.contains("round 1"), "\(output.stdout)")
  }

  /// A contender that fails is a benchmark that could not be measured, not a usage error: status 1, the failed
  /// command named, no usage printed.
  @Test func aContenderThatFailsIsAFailureNotAUsageError() throws {
    let output = try BenchHarness.run(
      ["compare", "--users", "12", "--rounds", "1", "--python", "/bin/false"], workName: "compare-failed")
    #expect(output.exitCode == 1, "\(output.stderr)")
    #expect(output.stderr.contains("/bin/false ") && output.stderr.contains("exited with status 1"), "\(output.stderr)")
    #expect(!output.stderr.contains("Usage:"), "\(output.stderr)")
  }
}
