import Foundation
import Testing
import _Adal2MSALTestSupport

/// Running the built `adal2msal-bench` for the tests of what its benchmarks print: the lines they state their
/// figures in, never the figures' size, which only the benchmarks measure.
enum BenchHarness {
  /// `adal2msal-bench` run with `arguments`, and `--work-dir` in a new temporary directory named after `workName`
  /// for the benchmarks that keep their inputs there.
  static func run(_ arguments: [String], workName: String?) throws -> ProcessRunner.Output {
    let bench = try #require(
      BuiltProducts.url("adal2msal-bench"), "adal2msal-bench not built: swift build --build-tests")
    let work = try workName.map { ["--work-dir", try Fixtures.temporaryDirectory($0).path] } ?? []
    return try ProcessRunner.run(bench, arguments: arguments + work, timeout: 600)
  }

  /// The lines of `run`; a run that exits with another status than 0 fails the test, its error output shown.
  static func lines(_ arguments: [String], workName: String?) throws -> [String] {
    let output = try run(arguments, workName: workName)
    try #require(output.exitCode == 0, "\(output.stderr.suffix(2_000))")
    return output.stdout.split(separator: "\n").map(String.init)
  }

  /// A keychain dump of one generic password of another app, in a new temporary directory named after `name`: a
  /// dump adal2msal reads whole and finds no ADAL item in.
  static func dumpWithoutADALItems(_ name: String) throws -> URL {
    let dump = try Fixtures.temporaryDirectory(name).appendingPathComponent("other-items.xml.plist")
    let item: [String: Any] = ["class": "genp", "svce": "com.example.other", "acct": "someone", "v_Data": Data([1])]
    try PropertyListSerialization.data(fromPropertyList: [item], format: .xml, options: 0).write(to: dump)
    return dump
  }

  /// The whole numbers of `line` from its first `(` on: a summary line's figures, past the digits of the
  /// name before them (the 2 of `adal2msal`).
  static func figures(of line: String) -> [Int] {
    line.drop { $0 != "(" }.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
  }
}
