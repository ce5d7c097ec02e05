import Foundation
import GRDB
import Testing
import _Adal2MSALTestSupport

/// The plain insert floor that `compare` and `pipeline` set the store's write beside (`adal2msal-bench
/// compare-floor`) must write what it is asked to, or the write looks faster than its peer than it is. No timing
/// here: the benchmarks do that.
struct PlainInsertFloorTests {
  @Test func theFloorInsertsEveryRowWithItsBytesSlicedFromTheInput() throws {
    let directory = try Fixtures.temporaryDirectory("plain-floor")
    let input = directory.appendingPathComponent("input.bin")
    var generator = SeededGenerator(seed: 7)
    let bytes = (0..<20_000).map { _ in UInt8.random(in: 0...255, using: &generator) }
    try Data(bytes).write(to: input)
    let store = directory.appendingPathComponent("floor.sqlite").path

    let output = try ProcessRunner.run(
      try StoreTestSupport.benchBinary(),
      arguments: ["compare-floor", "--input", input.path, "--out", store, "--rows", "300", "--row-bytes", "700"],
      timeout: 120)
    #expect(output.exitCode == 0, "\(output.stderr)")

    let rows = try DatabaseQueue(path: store).read { db in
      try Row.fetchAll(db, sql: "SELECT id, value FROM rows ORDER BY id").map { ($0[0] as Int64, $0[1] as Data) }
    }
    #expect(rows.map(\.0) == Array(1...300))
    let span = bytes.count - 700
    let mismatched = rows.indices.filter { index in
      let start = (index * 4099) % span
      return rows[index].1 != Data(bytes[start..<(start + 700)])
    }
    #expect(mismatched.isEmpty, "rows not sliced from the input: \(mismatched.prefix(5).map { $0 + 1 })")
    #expect(Set(rows.map(\.1)).count == 300, "every row holds different bytes")
  }
}
