import Testing

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
  }
}
