import Foundation
import Testing
import _Adal2MSALTestSupport

/// `adal2msal-bench adal-read` times the reader on a dump's entries written again in the four dump formats: each
/// line must be of the dump's ADAL items read back from that format, or its rate is of something else. No timing
/// here.
struct ADALReadBenchmarkTests {
  @Test func eachFormatReadsBackTheDumpsADALItems() throws {
    let dump = Fixtures.url("adal/dump-multiuser.bplist").path
    let lines = try BenchHarness.lines(
      ["adal-read", "--input", dump, "--copies", "2", "--runs", "1"], workName: nil)
    // "FORMAT: N entries, B bytes, I ADAL items in S s (R entries/s)"
    let formats = ["binary plist", "XML plist", "base64 JSON", "objection JSON"]
    #expect(lines.map { String($0.prefix { $0 != ":" }) } == formats, "\(lines)")
    let counts = lines.map { line in
      line.split(separator: ",").compactMap { part -> Int? in
        let words = part.split(separator: " ")
        return words.count >= 2 && words[1] == "ADAL" ? Int(words[0]) : nil
      }
    }
    // dump-multiuser.bplist holds 14 ADAL items; twice over, 28 from every format.
    #expect(counts == Array(repeating: [28], count: 4), "\(lines)")
  }

  @Test func aDumpWithoutADALItemsIsRefused() throws {
    let dump = try BenchHarness.dumpWithoutADALItems("adal-read-no-adal")
    let output = try BenchHarness.run(["adal-read", "--input", dump.path], workName: nil)
    #expect(output.exitCode == 64, "\(output.stderr)")
    #expect(
      output.stderr.contains("--input \(dump.path): no ADAL items (1 other keychain item(s))"), "\(output.stderr)")
    #expect(output.stdout.isEmpty, "\(output.stdout)")
  }
}
