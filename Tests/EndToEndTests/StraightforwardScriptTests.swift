import Adal2MSALSynthetic
import Foundation
import Testing
import _Adal2MSALTestSupport

/// The yardstick of `adal2msal-bench compare` (scripts/bench/straightforward_migrate.py) must migrate what it
/// claims to, or the comparison flatters adal2msal. Checked on a small synthetic dump; needs a `python3`
/// (plistlib and sqlite3 are in its standard library). No timing here: `compare` does that.
struct StraightforwardScriptTests {
  static let python = ["/usr/bin/python3", "/usr/local/bin/python3"].first {
    FileManager.default.isExecutableFile(atPath: $0)
  }

  @Test(.enabled(if: python != nil, "no python3"))
  func theScriptMigratesEveryUserAndEveryLiveAccessToken() throws {
    var generator = SyntheticGenerator(seed: 3)
    let dump = generator.dump(users: 14)
    let directory = try Fixtures.temporaryDirectory("straightforward")
    let input = directory.appendingPathComponent("dump.bplist")
    try Data(SyntheticFormat.binaryPlist.encode(dump)).write(to: input)
    let script = Fixtures.repositoryRoot.appendingPathComponent("scripts/bench/straightforward_migrate.py")
    let output = try ProcessRunner.run(
      URL(fileURLWithPath: try #require(Self.python)),
      arguments: [
        script.path, input.path, directory.appendingPathComponent("out.sqlite").path, "--now",
        SyntheticGenerator.referenceNowISO,
      ],
      timeout: 120)
    #expect(output.exitCode == 0, "\(output.stderr)")

    let now = try #require(ISO8601DateFormatter().date(from: SyntheticGenerator.referenceNowISO))
    let live = dump.items.count { $0.kind == .accessToken && ($0.expiresOn ?? now) > now }
    let users = Set(dump.items.map(\.user.objectID)).count
    // "N items: A accounts, T access tokens, R refresh tokens, I id tokens, M app metadata"
    let numbers = output.stdout.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
    try #require(numbers.count == 6, "\(output.stdout)")
    #expect(numbers[0] == dump.items.count + SyntheticDump.leadingOtherItems)
    #expect(numbers[1] == users)
    #expect(numbers[2] == live)
    #expect(numbers[3] >= users)
    #expect(numbers[4] == users)
    #expect(numbers[5] > 0)
  }
}
