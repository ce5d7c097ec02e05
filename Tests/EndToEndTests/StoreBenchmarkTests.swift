import Foundation
import Testing
import _Adal2MSALTestSupport

/// `adal2msal-bench store` sets the store's write beside its peer, a plain SQLite loop of as many rows and bytes
/// (issue 23): the loop of the store's own schema, its only yardstick before, inherits that schema's cost. No timing
/// here: the figures must be of the rows written and agree with one another.
struct StoreBenchmarkTests {
  @Test func theWriteIsSetBesideAPlainLoopOfAsManyRowsAndBytes() throws {
    let lines = try BenchHarness.lines(["store", "--rows", "3000"], workName: nil)
    let text = lines.joined(separator: "\n")
    func line(_ prefix: String) throws -> String { try #require(lines.first { $0.hasPrefix(prefix) }, "\(text)") }
    func rate(_ line: String) throws -> Double {
      // "NAME: S s, R rows/s..."
      let words = line.split(separator: " ")
      let index = try #require(words.firstIndex { $0.hasPrefix("rows/s") }, "\(line)")
      return try #require(Double(String(words[index - 1].filter(\.isNumber))), "\(line)")
    }
    // "plain SQLite loop:   S s, R rows/s (the peer: rows of B bytes, the store's tokens and fields a row, ...)"
    let plain = try line("plain SQLite loop: ")
    let bytes = Int(String(plain.components(separatedBy: "rows of ").last?.prefix { $0.isNumber } ?? ""))
    // A synthetic access token's fields: a 64-character secret, its home account, target, client, realm, times.
    #expect((200...600).contains(bytes ?? 0), "\(plain)")
    let apply = try line("CacheStore.apply: ")
    let (plainRate, applyRate) = (try rate(plain), try rate(apply))
    #expect(plainRate > 0 && plainRate < 10_000_000, "\(plain)")
    #expect(applyRate > 0 && applyRate < 10_000_000, "\(apply)")
    // "ratio store/plain:   X": the store's rate over the peer's, of the lines above (to their rounding).
    let ratioWords = try line("ratio store/plain: ").split(separator: " ")
    let ratio = try #require(ratioWords.last.flatMap { Double(String($0)) }, "\(text)")
    #expect(abs(ratio - applyRate / plainRate) <= 0.002 + ratio * 0.001, "\(text)")
    #expect(try line("ratio store/raw: ").contains("a loop of the store's schema, which inherits its cost"))
  }

  @Test func noRowsIsAUsageError() throws {
    let output = try BenchHarness.run(["store", "--rows", "0"], workName: nil)
    #expect(output.exitCode == 64, "\(output.stderr)")
    #expect(output.stderr.contains("--rows must be positive"), "\(output.stderr)")
  }
}
