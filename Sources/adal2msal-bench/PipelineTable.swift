import Foundation

/// The `pipeline` benchmark's tables.
enum PipelineTable {
  struct Row {
    var label: String
    var stages: PipelineStagesChild.Output
    var endToEnd: MeasureCommandChild.Output
    var dryRun: MeasureCommandChild.Output?
    /// The write's peer: a plain insert loop of as many rows and bytes, in a `compare-floor` process of its own.
    var plainInsertSeconds: Double

    func seconds(_ prefix: String) -> Double { stages.stage(prefix)?.seconds ?? 0 }
    /// Issue 23's floor: the input read, and the plain loop a user would write for as many rows and bytes.
    var floor: Double { seconds("floor: read") + plainInsertSeconds }
    var ratio: Double { endToEnd.seconds / max(floor, 1e-9) }
    /// The floors of an earlier target: the input read, and the same rows inserted into the store's own schema,
    /// which inherits that schema's cost.
    var schemaFloors: Double { seconds("floor: read") + seconds("floor: raw") }
    var schemaRatio: Double { endToEnd.seconds / max(schemaFloors, 1e-9) }
    func cpu(_ prefix: String) -> Double { stages.stage(prefix)?.cpuSeconds ?? 0 }
    /// The same ratio in CPU time, which a loaded machine disturbs less.
    var schemaCPURatio: Double { endToEnd.cpuSeconds / max(cpu("floor: read") + cpu("floor: raw"), 1e-9) }
  }

  static func print(_ row: Row) {
    let megabytes = Double(row.stages.bytes) / 1_000_000
    Swift.print(
      "\n== \(row.label): \(row.stages.files) files, \(format(megabytes, 1)) MB, \(row.stages.items) ADAL items, "
        + "\(row.stages.planEntries) plan entries, \(row.stages.rowsInserted) rows written ==")
    Swift.print(line("stage", "seconds", "CPU s", "items/s", "MB/s", "peak MiB"))
    for stage in row.stages.stages {
      // The SQLite floor and the store write are per row; everything else per ADAL item.
      let perRow = stage.name.contains("SQLite") || stage.name.hasPrefix("write")
      let count = Double(perRow ? row.stages.rowsInserted : row.stages.items)
      Swift.print(
        line(
          stage.name, format(stage.seconds, 3), format(stage.cpuSeconds, 3),
          rate(count, stage.seconds) + (perRow ? " rows" : ""),
          perRow ? "-" : format(megabytes / stage.seconds, 1), String(stage.peakMiB)))
    }
    for (name, run) in [("adal2msal migrate (end to end)", row.endToEnd), ("adal2msal migrate --dry-run", row.dryRun)] {
      guard let run else { continue }
      Swift.print(
        line(
          name, format(run.seconds, 3), format(run.cpuSeconds, 3), rate(Double(row.stages.items), run.seconds),
          format(megabytes / run.seconds, 1), String(run.peakMiB)))
    }
    Swift.print(
      "end to end / (read floor + plain SQLite inserts of the same rows and bytes) = \(format(row.ratio, 2)) wall "
        + "(target: at most 1.5)")
    Swift.print(
      "end to end / (read floor + raw inserts into the store's own schema, which inherit its cost) = "
        + "\(format(row.schemaRatio, 2)) wall, \(format(row.schemaCPURatio, 2)) CPU (no target)")
    let write = row.seconds("write")
    let rows = Double(row.stages.rowsInserted)
    Swift.print(
      "write / plain SQLite inserts of the same rows and bytes, in a process of their own = "
        + "\(format(write / max(row.plainInsertSeconds, 1e-9), 2)) wall "
        + "(\(rate(rows, write)) against \(rate(rows, row.plainInsertSeconds)) rows/s; target: 200000 rows/s)")
  }

  static func printSummary(_ rows: [Row]) {
    Swift.print("\n== summary ==")
    Swift.print(
      "| input | MB | migrate s | migrate CPU s | items/s | peak MiB | read + plain inserts s | migrate / that | dry run s "
        + "| dry-run peak MiB | report s |"
    )
    Swift.print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for row in rows {
      Swift.print(
        "| \(row.label) | \(format(Double(row.stages.bytes) / 1_000_000, 0)) | \(format(row.endToEnd.seconds, 2)) | "
          + "\(format(row.endToEnd.cpuSeconds, 2)) | "
          + "\(rate(Double(row.stages.items), row.endToEnd.seconds)) | \(row.endToEnd.peakMiB) | \(format(row.floor, 2)) | "
          + "\(format(row.ratio, 2)) | \(row.dryRun.map { format($0.seconds, 2) } ?? "-") | \(row.dryRun.map { String($0.peakMiB) } ?? "-") | "
          + "\(format(row.seconds("report"), 2)) |")
    }
  }

  static func line(_ columns: String...) -> String {
    let widths = [34, 9, 9, 16, 9, 9]
    return zip(columns, widths).enumerated().map { index, pair in
      let (text, width) = pair
      let padding = String(repeating: " ", count: max(0, width - text.count))
      return index == 0 ? text + padding : padding + text
    }.joined(separator: " ")
  }

  static func format(_ value: Double, _ decimals: Int) -> String { String(format: "%.\(decimals)f", value) }

  static func rate(_ count: Double, _ seconds: Double) -> String { String(Int((count / max(seconds, 1e-9)).rounded())) }
}

/// The machine the figures come from.
enum BenchMachine {
  static func printHeader() {
    let cpu = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8))?.split(separator: "\n")
      .first { $0.hasPrefix("model name") }.map { $0.split(separator: ":", maxSplits: 1).last.map(String.init) ?? "" }
    let memory = (try? String(contentsOfFile: "/proc/meminfo", encoding: .utf8))?.split(separator: "\n").first
    print(
      "machine: \(ProcessInfo.processInfo.activeProcessorCount) cores,\(cpu ?? " unknown CPU"), \(memory.map(String.init) ?? "")"
    )
    print("load average at start: \(loadAverage())")
  }

  static func loadAverage() -> String {
    ((try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? "unknown").split(separator: " ").prefix(3)
      .joined(separator: " ")
  }
}
