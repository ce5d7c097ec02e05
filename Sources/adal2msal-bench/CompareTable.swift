import Foundation

/// The `compare` benchmark's table: min and median wall time of each contender, CPU, peak RSS, store size, and
/// the figures the issue's targets are stated in (script / adal2msal, adal2msal / floor, the dry run, the
/// store's write in rows a second, adal2msal's peak RSS / the input, its store / the tokens and fields it holds).
enum CompareTable {
  struct Results {
    var dump: CompareInputs.Dump
    var script: [CompareRun.Sample] = []
    var adal2msal: [CompareRun.Sample] = []
    /// `adal2msal migrate --dry-run`, its report to a file (the sample's "store" is the report).
    var dryRun: [CompareRun.Sample] = []
    /// The dump's dry run against the store `adal2msal` made of it (every entity unchanged).
    var rerunDryRun: [CompareRun.Sample] = []
    /// The dump migrated again into that store.
    var rerun: [CompareRun.Sample] = []
    var floor: [CompareRun.Sample] = []
    /// The store's write alone, one a round.
    var writes: [CompareRun.WriteSample] = []
    /// The floor's insert loop alone (its read left out), one a round: the write's peer.
    var floorInserts: [Double] = []
    /// Whether the two contenders' stores hold the same tokens, users and apps, one a round.
    var work: [CompareWork] = []
    var scriptRows = 0
    var adal2msalRows = 0
    var floorRowBytes = 0
    /// `CompareStores.adal2msalPayloadBytes` of adal2msal's store.
    var adal2msalPayloadBytes = 0
  }

  static func print(_ results: Results) {
    let megabytes = format(Double(results.dump.bytes) / 1_000_000, 1)
    let items = results.writes.first.map { String($0.items) } ?? "?"
    Swift.print(
      "\n== \(results.dump.label): \(items) ADAL items, \(megabytes) MB; \(results.script.count) rounds, "
        + "interleaved ==")
    Swift.print(line("", "min s", "median s", "CPU s", "peak MiB", "store MiB", "rows", "loaded"))
    // A dry run writes no store: its store and rows columns are "-".
    let contenders: [(String, [CompareRun.Sample], Int?)] = [
      ("straightforward Python script", results.script, results.scriptRows),
      ("adal2msal migrate", results.adal2msal, results.adal2msalRows),
      ("adal2msal migrate --dry-run", results.dryRun, nil),
      ("  the same, against its store", results.rerunDryRun, nil),
      ("  migrate, into its store", results.rerun, nil),
      ("floor: read + plain inserts", results.floor, results.adal2msalRows),
    ]
    for (name, samples, rows) in contenders {
      let loaded = samples.filter(\.loaded).count
      Swift.print(
        line(
          name, format(minimum(samples), 2), format(median(samples.map(\.seconds)), 2),
          format(median(samples.map(\.cpuSeconds)), 2), String(samples.map(\.peakMiB).max() ?? 0),
          rows == nil ? "-" : format(Double(samples.last?.storeBytes ?? 0) / 1_048_576, 1),
          rows.map(String.init) ?? "-",
          "\(loaded) of \(samples.count)"))
    }
    let partial = (results.adal2msal + results.dryRun + results.rerunDryRun + results.rerun).filter { $0.status != 0 }
    if !partial.isEmpty {
      Swift.print(
        "adal2msal exited with status 2 in \(partial.count) run(s): items it could not read or model were left out, "
          + "each named in its report (adal2msal migrate --adal DUMP --dry-run shows them)")
    }
    for line in (results.work.first { !$0.isSame } ?? results.work.first)?.lines ?? [] { Swift.print(line) }
    let script = (min: minimum(results.script), median: median(results.script.map(\.seconds)))
    let ours = (min: minimum(results.adal2msal), median: median(results.adal2msal.map(\.seconds)))
    let floor = (min: minimum(results.floor), median: median(results.floor.map(\.seconds)))
    Swift.print(
      "script / adal2msal: \(format(script.min / ours.min, 2))x (min), \(format(script.median / ours.median, 2))x "
        + "(median)   [target: at least 10x]")
    Swift.print(
      "adal2msal / floor:  \(format(ours.min / floor.min, 2))x (min), \(format(ours.median / floor.median, 2))x "
        + "(median)   [target: at most 1.5x]")
    let dryRun = (min: minimum(results.dryRun), median: median(results.dryRun.map(\.seconds)))
    Swift.print(
      "adal2msal dry run: \(format(dryRun.min, 2)) s (min), \(format(dryRun.median, 2)) s (median)   "
        + "[target: below 1 s at 40k items]")
    for (name, samples) in [("dry run", results.rerunDryRun), ("migrate", results.rerun)] {
      Swift.print(
        "adal2msal \(name) against its store: \(format(minimum(samples), 2)) s (min), "
          + "\(format(median(samples.map(\.seconds)), 2)) s (median), peak \(samples.map(\.peakMiB).max() ?? 0) MiB   "
          + (results.dump.isOwn ? "[no target]" : "[no target; every entity unchanged]"))
    }
    if let rows = results.writes.first?.rows {
      let write = results.writes.map(\.seconds)
      let plain = results.floorInserts
      func rate(_ seconds: Double) -> String { PipelineTable.rate(Double(rows), seconds) }
      Swift.print(
        "adal2msal write (CacheStore.apply of \(rows) rows, provenance included): \(rate(write.min() ?? 0)) rows/s "
          + "(min time), \(rate(median(write))) (median); the floor's plain SQLite loop of as many rows: "
          + "\(rate(plain.min() ?? 0)), \(rate(median(plain))); \(results.writes.filter(\.loaded).count) of "
          + "\(results.writes.count) loaded   [target: at least 200000 rows/s]")
    }
    if let cores = coresBusy(results.writes) { Swift.print(cores) }
    let peak = Double(results.adal2msal.map(\.peakMiB).max() ?? 0) * 1_048_576
    Swift.print(
      "adal2msal peak RSS / input: \(format(peak / Double(max(results.dump.bytes, 1)), 2))x   [target: below 1.5x]")
    let store = Double(results.adal2msal.last?.storeBytes ?? 0)
    let payload = Double(results.adal2msalPayloadBytes)
    Swift.print(
      "adal2msal store / the tokens and fields it holds (\(format(payload / 1_048_576, 1)) MiB): "
        + "\(format(store / max(payload, 1), 3))x   [target: at most 1.2x]")
    Swift.print(
      "floor rows: \(results.adal2msalRows) (adal2msal's entity rows), \(results.floorRowBytes) bytes each "
        + "(its secrets' bytes spread over them)")
    let all = results.script + results.adal2msal + results.dryRun + results.rerunDryRun + results.rerun + results.floor
    let others = all.compactMap(\.othersCores)
    if let most = others.max() {
      Swift.print(
        "other load during the runs: \(format(others.min() ?? 0, 2))-\(format(most, 2)) cores busy besides the run; "
          + "\(all.filter(\.loaded).count) of \(all.count) runs loaded (above \(CompareRun.loadedAbove))")
    }
  }

  /// The stages the issue asks to use both cores where the work splits, by their names in `pipeline-stages`.
  private static let splitStages = [
    ("decoding", "read + parse + decode"), ("planning", "plan"), ("the text report", "report"), ("the write", "write"),
  ]

  /// How many cores each stage kept busy, its CPU time over its wall time, by the median of the write's children
  /// (where each stage runs alone; `migrate` renders its report while it writes); nil without a child.
  static func coresBusy(_ writes: [CompareRun.WriteSample]) -> String? {
    guard !writes.isEmpty else { return nil }
    let figures = splitStages.map { name, prefix in
      let ratios = writes.compactMap { $0.stages.stage(prefix) }.filter { $0.seconds > 0 }.map {
        $0.cpuSeconds / $0.seconds
      }
      return "\(name) \(ratios.isEmpty ? "-" : format(median(ratios), 2))"
    }
    return "adal2msal cores busy (CPU / wall of each stage alone, the median of the write's children): "
      + figures.joined(separator: ", ") + ", of \(ProcessInfo.processInfo.activeProcessorCount) cores   "
      + "[target: both cores used where the work splits]"
  }

  private static func minimum(_ samples: [CompareRun.Sample]) -> Double { samples.map(\.seconds).min() ?? 0 }

  private static func median(_ values: [Double]) -> Double {
    guard !values.isEmpty else { return 0 }
    let sorted = values.sorted()
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
  }

  private static func format(_ value: Double, _ digits: Int) -> String { String(format: "%.\(digits)f", value) }

  private static func line(_ name: String, _ columns: String...) -> String {
    name.padding(toLength: 32, withPad: " ", startingAt: 0) + columns.map { pad($0, 10) }.joined()
  }

  private static func pad(_ text: String, _ width: Int) -> String {
    String(repeating: " ", count: max(0, width - text.count)) + text
  }
}
