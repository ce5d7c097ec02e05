import Adal2MSALSynthetic
import Foundation
import Testing
import _Adal2MSALTestSupport

/// Issue 21: every input item lands in exactly one bucket, and a file's buckets add up to the items it holds,
/// counted here independently of the readers (the dump's array, the cache's entries).
@Suite(.serialized) struct AccountingTests {
  /// One file's `input.accounting` note, parsed.
  struct Totals: Equatable {
    var total = 0, migrated = 0, unchanged = 0, merged = 0, policy = 0, problem = 0
    var bucketSum: Int { migrated + unchanged + merged + policy + problem }
  }

  /// The accounting notes of a JSON report, by file.
  static func accounting(_ report: String) throws -> [String: Totals] {
    let object = try #require(try JSONSerialization.jsonObject(with: Data(report.utf8)) as? [String: Any])
    let diagnostics = try #require(object["diagnostics"] as? [[String: Any]])
    var out: [String: Totals] = [:]
    for diagnostic in diagnostics where diagnostic["code"] as? String == "input.accounting" {
      let message = try #require(diagnostic["message"] as? String)
      let location = try #require(diagnostic["location"] as? [String: Any])
      let file = try #require(location["file"] as? String)
      func number(_ label: String) -> Int {
        guard let range = message.range(of: #"(\d+) "# + label, options: .regularExpression) else { return -1 }
        return Int(message[range].split(separator: " ").first ?? "") ?? -1
      }
      out[file] = Totals(
        total: number(#"item\(s\)"#), migrated: number("migrated"), unchanged: number("unchanged"),
        merged: number("merged into another"), policy: number("skipped by policy"),
        problem: number("not migrated"))
    }
    return out
  }

  /// The items of a keychain dump or the entries of an MSAL cache, counted from the file's structure.
  static func independentCount(_ url: URL) throws -> Int {
    let data = try Data(contentsOf: url)
    if url.path.hasSuffix("plist") {
      let root = try PropertyListSerialization.propertyList(from: data, format: nil)
      if let array = root as? [Any] { return array.count }
      let classes = try #require(root as? [String: Any])
      return classes.values.reduce(0) { $0 + (($1 as? [Any])?.count ?? 0) }
    }
    let root = try JSONSerialization.jsonObject(with: data)
    if let array = root as? [Any] { return array.count }
    let sections = try #require(root as? [String: Any])
    let known: Set<String> = ["AccessToken", "RefreshToken", "IdToken", "Account", "AppMetadata"]
    return sections.reduce(0) { count, section in
      if known.contains(section.key) {
        if section.value is NSNull { return count }
        guard let entries = section.value as? [String: Any] else { return count + 1 }
        return count + entries.count
      }
      // Unknown sections: the credentials in them (objects with a secret or a credential type, directly or
      // one level down as in MSAL Go's partitions) are entries kept verbatim, counted as unmodelled; other
      // data there is no item.
      func isCredential(_ value: Any) -> Bool {
        guard let object = value as? [String: Any] else { return false }
        return object["secret"] != nil || object["credential_type"] != nil
      }
      guard let members = section.value as? [String: Any] else { return count }
      return count
        + members.values.reduce(0) { inner, member in
          if isCredential(member) { return inner + 1 }
          return inner + ((member as? [String: Any])?.values.count(where: isCredential) ?? 0)
        }
    }
  }

  static let fixtures: [(role: String, file: String)] = [
    ("adal", "adal/dump-multiuser.xml.plist"), ("adal", "adal/dump-multiuser.bplist"),
    ("adal", "adal/dump-multiuser-classes.xml.plist"), ("adal", "adal/dump-multiuser.objection.json"),
    ("adal", "adal/dump-multiuser.base64.json"), ("adal", "adal/dump-corrupt-items.xml.plist"),
    ("adal", "scenarios/tombstones/adal.xml.plist"), ("adal", "scenarios/duplicate-rts/adal.xml.plist"),
    ("adal", "scenarios/guest-user/adal.xml.plist"), ("adal", "scenarios/two-tenants/adal.xml.plist"),
    ("msal", "msal-json/msal-dotnet_CacheFromTheFuture.json"),
    ("msal", "msal-json/msal-dotnet_MultiCloudTokenCache.json"),
    ("msal", "msal-json/msal-dotnet_token_cache_adfs.json"), ("msal", "scenarios/msal-conflict/msal-input.json"),
  ]

  @Test("every fixture's buckets add up to the items it holds")
  func fixturesAddUp() throws {
    for (role, file) in Self.fixtures {
      let url = Fixtures.url(file)
      let output = try CLI.run([
        "migrate", "--\(role)", url.path, "--out", "/nonexistent/x.sqlite", "--dry-run", "--report-format", "json",
        "--now", "2025-06-01T12:00:00Z",
      ])
      #expect([0, 2].contains(output.exitCode), "\(file): \(output.stderr)")
      let totals = try #require(try Self.accounting(output.stdout)[url.path], "\(file): no accounting note")
      #expect(totals.bucketSum == totals.total, "\(file): \(totals)")
      #expect(totals.total == (try Self.independentCount(url)), "\(file): \(totals)")
    }
  }

  @Test(
    "the real-world MSAL caches add up too",
    arguments: [
      "msal-go_test_partitioned_cache.json", "msal-node_cache-unrecognized-entities.json",
      "msal-java_sample_cache.json",
      "msal-go-2020_src_test_serialized_cache.json", "adal-dotnet-v5_FociTokenCacheFromMsal3.json",
    ])
  func realWorldAddsUp(_ name: String) throws {
    let url = RealWorldVerdictTests.folder.appendingPathComponent(name)
    try #require(FileManager.default.fileExists(atPath: url.path), "../shared/realworld is missing")
    let output = try CLI.run([
      "migrate", "--msal", url.path, "--out", "/nonexistent/x.sqlite", "--dry-run", "--report-format", "json",
    ])
    let totals = try #require(try Self.accounting(output.stdout)[url.path], "\(name): \(output.stderr)")
    #expect(totals.bucketSum == totals.total, "\(name): \(totals)")
    #expect(totals.total == (try Self.independentCount(url)), "\(name): \(totals)")
  }

  @Test("a synthetic fleet adds up, planned whole and in parts", arguments: [false, true])
  func syntheticFleetAddsUp(inParts: Bool) throws {
    let scratch = try Fixtures.temporaryDirectory("accounting")
    defer { try? FileManager.default.removeItem(at: scratch) }
    let written = try SyntheticFleet.writeFleet(
      devices: 8, minItems: 5, maxItems: 60, format: nil, seed: 21, directory: scratch, workers: 2)
    let parts = inParts ? ["--plan-whole-up-to", "10", "--items-per-part", "40"] : []
    let output = try CLI.run(
      ["migrate", "--adal", scratch.path, "--out", "/nonexistent/x.sqlite", "--dry-run", "--report-format", "json"]
        + parts)
    #expect([0, 2].contains(output.exitCode), "\(output.stderr)")
    let accounting = try Self.accounting(output.stdout)
    #expect(accounting.count == written.files)
    for (file, totals) in accounting {
      #expect(totals.bucketSum == totals.total, "\(file): \(totals)")
    }
    let total = accounting.values.reduce(0) { $0 + $1.total }
    #expect(total == written.items + written.files * SyntheticDump.leadingOtherItems)
  }

  /// A dump entry that is no item dictionary (a string, a number, a JSON object without keychain attributes) is
  /// one unreadable item: it was counted a second time as another app's item.
  @Test(
    "an entry that is no item dictionary counts once",
    arguments: [
      ("adal/dump-multiuser.xml.plist", "a string"), ("adal/dump-multiuser.xml.plist", "an empty dictionary"),
      ("adal/dump-multiuser.objection.json", "an object without keychain attributes"),
      ("adal/dump-multiuser.objection.json", "a number"),
      ("adal/dump-multiuser.base64.json", "an object without keychain attributes"),
    ])
  func entryThatIsNoItemCountsOnce(_ file: String, _ replacement: String) throws {
    let scratch = try Fixtures.temporaryDirectory("accounting")
    defer { try? FileManager.default.removeItem(at: scratch) }
    let source = Fixtures.url(file)
    let url = scratch.appendingPathComponent(source.lastPathComponent)
    let value: Any =
      switch replacement {
      case "a string": "just a string"
      case "an empty dictionary": [String: Any]()
      case "a number": 42
      default: ["foo": "bar"]
      }
    if file.hasSuffix("plist") {
      var items = try #require(
        try PropertyListSerialization.propertyList(from: Data(contentsOf: source), format: nil) as? [Any])
      items[3] = value
      try PropertyListSerialization.data(fromPropertyList: items, format: .xml, options: 0).write(to: url)
    } else {
      var items = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: source)) as? [Any])
      items[3] = value
      try JSONSerialization.data(withJSONObject: items).write(to: url)
    }
    let output = try CLI.run([
      "migrate", "--adal", url.path, "--out", "/nonexistent/x.sqlite", "--dry-run", "--report-format", "json",
      "--now", "2025-06-01T12:00:00Z",
    ])
    #expect(output.exitCode == 2, "\(file), \(replacement): \(output.stderr)")
    let totals = try #require(try Self.accounting(output.stdout)[url.path], "\(file): no accounting note")
    #expect(totals.total == (try Self.independentCount(url)), "\(file), \(replacement): \(totals)")
    #expect(totals.bucketSum == totals.total, "\(file), \(replacement): \(totals)")
  }
}
