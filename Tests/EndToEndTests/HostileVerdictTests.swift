import Foundation
import Testing
import _Adal2MSALTestSupport

/// Issue 21: no bad, limit or fuzz-regression input ends with status 0 and nothing written; a failure leaves
/// no store behind.
@Suite(.serialized) struct HostileVerdictTests {
  /// Inputs that are valid at the default limits, with the verdict they truthfully get.
  static let validAtDefaultLimits: [String: Int32] = [
    // {"AccessToken": {}, "padding": "ppp…"}: an empty MSAL cache (the limit test shrinks --max-input-size).
    "limits/json-input.json --msal": 0,
    // 0-byte files: an empty MSAL cache, as every MSAL library reads it (nothing to migrate is not a failure).
    "bad/nothing/empty.bin --msal": 0,
    "bad/nothing/empty.migrate.bin --msal": 0,
  ]

  @Test func noHostileInputIsCalledASuccess() throws {
    var files: [URL] = []
    for folder in ["bad", "limits", "fuzz-regressions"] {
      files += try Fixtures.files(in: folder).filter { $0.lastPathComponent != "manifest.json" }
    }
    try #require(files.count > 60)
    let root = Fixtures.url("bad").deletingLastPathComponent().path + "/"
    for file in files {
      for role in ["adal", "msal"] {
        let name = String(file.path.dropFirst(root.count)) + " --\(role)"
        let scratch = try Fixtures.temporaryDirectory("hostile-verdict")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let out = scratch.appendingPathComponent("cache.sqlite")
        let output = try CLI.run(["migrate", "--\(role)", file.path, "--out", out.path])
        #expect(!output.terminatedBySignal && !output.timedOut, "\(name)")
        let expected = Self.validAtDefaultLimits[name]
        if let expected {
          #expect(output.exitCode == expected, "\(name): \(output.stderr)")
        } else {
          #expect(output.exitCode == 1 || output.exitCode == 2, "\(name) exited \(output.exitCode): \(output.stderr)")
        }
        if output.exitCode == 1 {
          #expect(!FileManager.default.fileExists(atPath: out.path), "\(name): a failed run left a store")
        }
      }
    }
  }
}
