import Adal2MSAL
import Foundation
import Testing
import _Adal2MSALTestSupport

/// Issue 22: what this tool does not model is shown by name and size, never by value (unless asked with
/// --show-secrets); token-like keys of any property list are fingerprinted; control characters from an input
/// never reach the terminal raw (inspect, accounts, text and Markdown reports).
@Suite("Unknown fields and control characters", .serialized)
struct UnknownFieldTests {
  /// A username that retitles an xterm and rings the bell.
  static let hostileUsername = "evil\u{1B}]0;pwned\u{07}\u{9B}2J@contoso.com"

  /// The seed cache with an unknown field holding a canary on every entity, an unknown top-level section
  /// holding another, and the account's username made hostile.
  struct Input {
    var directory: URL
    var file: URL
    var canaries: Set<String>

    init() throws {
      directory = try Fixtures.temporaryDirectory("unknown")
      let source = try Fixtures.data("msal-json/msal-dotnet_token_cache_one_acc_seed.json")
      var root = try #require(try JSONSerialization.jsonObject(with: source) as? [String: Any])
      canaries = []
      for section in ["AccessToken", "RefreshToken", "IdToken", "Account", "AppMetadata"] {
        guard var entries = root[section] as? [String: Any] else { continue }
        for (key, value) in entries {
          guard var entry = value as? [String: Any] else { continue }
          let canary = "unknowncanary\(section)" + UUID().uuidString.replacingOccurrences(of: "-", with: "")
          entry["refresh_token_v2"] = canary
          canaries.insert(canary)
          if section == "Account" { entry["username"] = UnknownFieldTests.hostileUsername }
          entries[key] = entry
        }
        root[section] = entries
      }
      let sectionCanary = "sectioncanary" + UUID().uuidString.replacingOccurrences(of: "-", with: "")
      root["AppSecrets"] = ["vault": ["client_secret": sectionCanary]]
      canaries.insert(sectionCanary)
      file = directory.appendingPathComponent("unknown-fields.json")
      try JSONSerialization.data(withJSONObject: root, options: [.sortedKeys]).write(to: file)
    }

    func leaked(_ text: String) -> [String] { canaries.filter { text.contains($0) }.sorted() }
  }

  /// Raw control characters (other than line feed and tab) in `text`.
  static func rawControls(_ text: String) -> [String] {
    text.unicodeScalars.filter { ($0.value < 0x20 && $0 != "\n" && $0 != "\t") || (0x7F...0x9F).contains($0.value) }
      .map { String(format: "U+%04X", $0.value) }
  }

  @Test("inspect shows unknown sections and fields by name and size, and escapes control characters")
  func inspect() throws {
    let input = try Input()
    defer { try? FileManager.default.removeItem(at: input.directory) }
    let json = try CLI.run(["inspect", input.file.path, "--format", "json"])
    #expect(json.exitCode == 0, "\(json.stderr)")
    #expect(input.leaked(json.stdout).isEmpty, "inspect --format json printed \(input.leaked(json.stdout))")
    #expect(json.stdout.contains("\"refresh_token_v2\": \"<withheld: string,"), "\(json.stdout.prefix(2000))")
    #expect(json.stdout.contains("\"AppSecrets\": \"<withheld: object,"), "\(json.stdout.prefix(2000))")
    let text = try CLI.run(["inspect", input.file.path])
    #expect(text.exitCode == 0, "\(text.stderr)")
    #expect(input.leaked(text.stdout).isEmpty, "inspect printed \(input.leaked(text.stdout))")
    #expect(text.stdout.contains("unknown=refresh_token_v2 ("), "\(text.stdout)")
    #expect(text.stdout.contains("unknown sections: AppSecrets ("), "\(text.stdout)")
    #expect(Self.rawControls(text.stdout).isEmpty, "raw control characters: \(Self.rawControls(text.stdout))")
    #expect(text.stdout.contains("evil\\x1B]0;pwned\\x07\\x9B2J@contoso.com"), "\(text.stdout)")
    // Asked for, the values are there: the flag is what hides them.
    let shown = try CLI.run(["inspect", input.file.path, "--format", "json", "--show-secrets"])
    #expect(input.leaked(shown.stdout).count == input.canaries.count)
  }

  /// A unified cache of one account with this username, in a new directory.
  static func cache(username: String) throws -> (directory: URL, file: URL) {
    let directory = try Fixtures.temporaryDirectory("line-break")
    let file = directory.appendingPathComponent("cache.json")
    let account: [String: Any] = [
      "home_account_id": "u.t", "environment": "login.microsoftonline.com", "realm": "t", "local_account_id": "u",
      "username": username, "authority_type": "MSSTS",
    ]
    try JSONSerialization.data(withJSONObject: ["Account": ["u.t-login.microsoftonline.com-t": account]])
      .write(to: file)
    return (directory, file)
  }

  /// A line feed in a value (a username) is written as an escape: `inspect` shows one line per entity, and a
  /// value cannot forge one. Earlier it was written as it was. (A property list's tree quotes its strings.)
  @Test("inspect writes a line break in a value as an escape")
  func inspectKeepsOneLinePerEntity() throws {
    let (directory, file) = try Self.cache(username: "a@contoso.com\nAccount forged-key username=b@contoso.com")
    defer { try? FileManager.default.removeItem(at: directory) }
    let text = try CLI.run(["inspect", file.path])
    #expect(text.exitCode == 0, "\(text.stderr)")
    #expect(!text.stdout.split(separator: "\n").contains { $0.hasPrefix("Account forged-key") }, "\(text.stdout)")
    #expect(text.stdout.contains("a@contoso.com\\x0AAccount forged-key"), "\(text.stdout)")
  }

  /// A username read from an input must not start a line of the report, where it could show a user or an entry
  /// the plan does not hold: the text report writes its line feed as `\x0A`, the Markdown report as a space (in
  /// the heading and the table cells alike), and a carriage return before it, escaped as every control is, cannot
  /// end the line either.
  @Test("the reports write a line break in a value as an escape", arguments: ["text", "markdown"])
  func reportsKeepOneLinePerValue(format: String) throws {
    let (directory, file) = try Self.cache(username: "a@contoso.com\r\nUser b@contoso.com\n## User c@contoso.com")
    defer { try? FileManager.default.removeItem(at: directory) }
    let run = try CLI.run(["migrate", "--msal", file.path, "--dry-run", "--report-format", format])
    #expect(run.exitCode == 0, "\(run.stderr)")
    let lines = run.stdout.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(!lines.contains { $0.hasPrefix("User b@") || $0.hasPrefix("## User c@") }, "\(run.stdout)")
    let written = format == "text" ? "\\x0D\\x0AUser b@contoso.com\\x0A## User" : "\\x0D User b@contoso.com ## User"
    #expect(run.stdout.contains("a@contoso.com" + written), "\(run.stdout)")
  }

  @Test("accounts withholds unknown Account fields and escapes usernames")
  func accounts() throws {
    let input = try Input()
    defer { try? FileManager.default.removeItem(at: input.directory) }
    let store = input.directory.appendingPathComponent("store.sqlite").path
    let imported = try CLI.run(["import", input.file.path, "--out", store])
    try #require(imported.exitCode == 0, "\(imported.stderr)")
    let json = try CLI.run(["accounts", store, "--format", "json"])
    #expect(json.exitCode == 0, "\(json.stderr)")
    #expect(input.leaked(json.stdout).isEmpty, "accounts --format json printed \(input.leaked(json.stdout))")
    #expect(json.stdout.contains("\"refresh_token_v2\": \"<withheld: string,"), "\(json.stdout)")
    let text = try CLI.run(["accounts", store])
    #expect(text.exitCode == 0, "\(text.stderr)")
    #expect(Self.rawControls(text.stdout).isEmpty, "raw control characters: \(Self.rawControls(text.stdout))")
    #expect(text.stdout.contains("evil\\x1B]0;pwned\\x07\\x9B2J@contoso.com"), "\(text.stdout)")
    // Standard error too: a name echoed in a message is escaped.
    let missing = try CLI.run(["accounts", store, "--username", "nobody\u{1B}]0;t\u{07}"])
    #expect(missing.exitCode == 1)
    #expect(Self.rawControls(missing.stderr).isEmpty, "raw control characters: \(Self.rawControls(missing.stderr))")
    #expect(missing.stderr.contains("nobody\\x1B]0;t\\x07"), "\(missing.stderr)")
    let shown = try CLI.run(["accounts", store, "--format", "json", "--show-secrets"])
    #expect(input.leaked(shown.stdout).count == 1, "--show-secrets shows the Account's own unknown field")
  }

  @Test("text and Markdown reports escape control characters", arguments: ["text", "markdown"])
  func reports(_ format: String) throws {
    let input = try Input()
    defer { try? FileManager.default.removeItem(at: input.directory) }
    let report = input.directory.appendingPathComponent("report.\(format)")
    let run = try CLI.run(
      [
        "migrate", "--msal", input.file.path, "--out", input.directory.appendingPathComponent("s.sqlite").path,
        "--report", report.path, "--report-format", format,
      ])
    #expect(run.exitCode == 0, "\(run.stderr)")
    let written = try String(contentsOf: report, encoding: .utf8)
    #expect(Self.rawControls(written).isEmpty, "\(format): raw control characters: \(Self.rawControls(written))")
    #expect(written.contains("evil\\x1B]0;pwned\\x07\\x9B2J@contoso.com"), "\(format): \(written.prefix(3000))")
    #expect(input.leaked(written).isEmpty, "\(format) report printed \(input.leaked(written))")
  }

  @Test("a generic property list's token-like keys and values are fingerprinted", arguments: ["text", "json"])
  func plistSecrets(_ format: String) throws {
    let directory = try Fixtures.temporaryDirectory("unknown")
    defer { try? FileManager.default.removeItem(at: directory) }
    let jwt = "eyJhbGciOiJub25lIn0.eyJzdWIiOiJjYW5hcnkifQ.c2lnbmF0dXJlY2FuYXJ5"
    let secrets: [String: String] = [
      "refresh_token": "rt-canary-1", "access_token": "at-canary-2", "id_token": "it-canary-3",
      "client_secret": "cs-canary-4", "password": "pw-canary-5", "token": "tk-canary-6", "note": jwt,
    ]
    var tree: [String: Any] = secrets
    tree["nested"] = ["userPassword": "up-canary-7"]
    tree["name"] = "plain-visible-value"
    let file = directory.appendingPathComponent("generic.plist")
    try PropertyListSerialization.data(fromPropertyList: tree, format: .xml, options: 0).write(to: file)
    let output = try CLI.run(["inspect", file.path, "--format", format])
    #expect(output.exitCode == 0, "\(output.stderr)")
    for (key, value) in secrets.merging(["userPassword": "up-canary-7"], uniquingKeysWith: { $1 }) {
      #expect(!output.stdout.contains(value), "\(format): \(key)'s value printed")
      #expect(
        output.stdout.contains(String(SecretFingerprint.of(value).dropFirst(7))), "\(format): no fingerprint for \(key)"
      )
    }
    #expect(output.stdout.contains("plain-visible-value"), "\(format): an ordinary value was hidden: \(output.stdout)")
  }
}
