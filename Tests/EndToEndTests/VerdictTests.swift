import Foundation
import Testing
import _Adal2MSALTestSupport

/// Issue 21: the exit status and the error tell the truth. Each case asserts the status, the message and
/// whether a store exists afterwards (never after a failure).
@Suite(.serialized) struct VerdictTests {
  static let clock = "2025-06-01T12:00:00Z"

  func scenario(_ name: String) -> String { Fixtures.url("scenarios/\(name)/adal.xml.plist").path }

  /// Runs `migrate` with `arguments` into a fresh store; returns the output and whether the store exists.
  func migrate(_ arguments: [String], into scratch: URL) throws -> (ProcessRunner.Output, stored: Bool) {
    let out = scratch.appendingPathComponent("cache.sqlite").path
    let output = try CLI.run(["migrate"] + arguments + ["--out", out, "--now", Self.clock, "--report", "-"])
    #expect(!output.terminatedBySignal && !output.timedOut, "\(output.stderr)")
    return (output, FileManager.default.fileExists(atPath: out))
  }

  func write(_ text: String, _ name: String, in scratch: URL) throws -> String {
    let url = scratch.appendingPathComponent(name)
    try Data(text.utf8).write(to: url)
    return url.path
  }

  /// A dump of one ADAL item whose archive contains itself: unreadable.
  func oneCyclicItemDump(in scratch: URL) throws -> String {
    let cyclic = try Fixtures.data("bad/keyed-archive/self-containing-array.bplist").base64EncodedString()
    return try write(
      """
      <?xml version="1.0" encoding="UTF-8"?>
      <plist version="1.0"><array><dict>
      <key>gena</key><string>MSOpenTech.ADAL.1</string>
      <key>svce</key><string>MSOpenTech.ADAL.1|aHR0cHM6Ly9sb2dpbi5taWNyb3NvZnRvbmxpbmUuY29tL2NvbW1vbg|CC3513A0-0E69-4B4D-97FC-DFB6C91EE132</string>
      <key>acct</key><string>dXNlckBjb250b3NvLmNvbQ</string>
      <key>v_Data</key><data>\(cyclic)</data>
      </dict></array></plist>
      """, "one-cyclic-item.xml.plist", in: scratch)
  }

  @Test("policy skips only (a guest; expired access tokens): 0 for the dry run, the run, the re-run and --strict")
  func policySkipsAreSuccess() throws {
    for name in ["guest-user", "expired-ats"] {
      let scratch = try Fixtures.temporaryDirectory("verdict")
      defer { try? FileManager.default.removeItem(at: scratch) }
      let input = ["--adal", scenario(name)]
      let (dry, dryStored) = try migrate(input + ["--dry-run"], into: scratch)
      #expect(dry.exitCode == 0, "\(name) dry run: \(dry.stderr)")
      #expect(!dryStored)
      let (first, stored) = try migrate(input, into: scratch)
      #expect(first.exitCode == 0, "\(name): \(first.stderr)")
      #expect(stored)
      let (again, _) = try migrate(input + ["--strict"], into: scratch)
      #expect(again.exitCode == 0, "\(name) re-run with --strict: \(again.stderr)")
      #expect(!again.stderr.contains("warning"), "\(again.stderr)")
    }
  }

  @Test("an unreadable item among good ones: 2 with a warning naming it; --strict: 1 and no store")
  func unreadableItemIsPartial() throws {
    let scratch = try Fixtures.temporaryDirectory("verdict")
    defer { try? FileManager.default.removeItem(at: scratch) }
    let (partial, stored) = try migrate(["--adal", scenario("tombstones")], into: scratch)
    #expect(partial.exitCode == 2, "\(partial.stderr)")
    #expect(stored)
    #expect(
      partial.stderr.contains("adal2msal: warning: 1 problem(s) (entries not migrated or in conflict, items unreadable")
    )
    #expect(partial.stderr.contains("[adal.item-unreadable]"), "the warning names the item: \(partial.stderr)")
    #expect(partial.stderr.contains("2 skipped by policy"), "a tombstone and the wipe marker: \(partial.stderr)")

    let strictScratch = try Fixtures.temporaryDirectory("verdict")
    defer { try? FileManager.default.removeItem(at: strictScratch) }
    let (strict, strictStored) = try migrate(["--adal", scenario("tombstones"), "--strict"], into: strictScratch)
    #expect(strict.exitCode == 1)
    #expect(!strictStored, "a failed run left a store")
    #expect(strict.stderr.contains("adal2msal: error: --strict: 1 problem(s) (entries not migrated or in conflict"))
  }

  /// ADAL 1.x kept the id token as a bare payload segment, which the rules never forge into a JWT: a stated
  /// policy (the Account carries its claims, the refresh token migrates), not a problem. It was status 2 with
  /// "1 item(s) could not be read or modelled" while the item's accounting said "1 migrated".
  @Test("an id token that is no JWT is left out by policy: 0")
  func bareIDTokenIsAPolicySkip() throws {
    let output = try CLI.run([
      "migrate", "--adal", Fixtures.url("adal/archive-e1-mrrt.bplist").path, "--dry-run", "--report-format", "json",
    ])
    #expect(output.exitCode == 0, "\(output.stderr)")
    #expect(output.stdout.contains("adal.id-token-not-jwt"))
    #expect(output.stdout.contains("1 item(s): 1 migrated, 0 unchanged, 0 merged into another, 0 skipped by policy"))
    #expect(!output.stderr.contains("warning"), "\(output.stderr)")
  }

  /// A user's identity conflict is one problem for all of the user's items: the closing line counts problems in
  /// their unit and, from the accounting, the input items that did not migrate (it said "1 item(s) or file(s)
  /// could not be read or modelled" for three items that did not).
  @Test("the closing line counts problems and the input items not migrated")
  func closingLineCountsProblemsAndItems() throws {
    let scratch = try Fixtures.temporaryDirectory("verdict")
    defer { try? FileManager.default.removeItem(at: scratch) }
    func entry(_ tenant: String, _ refresh: String) -> [String: Any] {
      [
        "_authority": "https://login.microsoftonline.com/\(tenant)",
        "_clientId": "04b07795-8ddb-461a-bbee-02f9e1bf7b46",
        "resource": "https://management.core.windows.net/", "refreshToken": refresh, "isMRRT": true,
        "userId": "dana@contoso.example", "oid": "dddddddd-0000-4000-8000-00000000000d",
        "expiresOn": "2026-11-21 00:00:00.000000", "accessToken": "at-\(refresh)", "tokenType": "Bearer",
      ]
    }
    let tenants = ["11111111-1111-4111-8111-111111111111", "22222222-2222-4222-8222-222222222222"]
    let entries = [entry(tenants[0], "rt-a"), entry(tenants[1], "rt-b"), entry(tenants[1], "rt-c")]
    let conflict = scratch.appendingPathComponent("accessTokens.json")
    try JSONSerialization.data(withJSONObject: entries).write(to: conflict)
    let output = try CLI.run([
      "migrate", "--adal", conflict.path, "--adal", scenario("single-user-mrrt-at"), "--dry-run", "--now",
      "2026-01-01T00:00:00Z", "--adal-time-zone", "UTC", "-q",
    ])
    #expect(output.exitCode == 2, "\(output.stderr)")
    #expect(
      output.stderr.contains("adal2msal: warning: 1 problem(s) (entries not migrated or in conflict"),
      "\(output.stderr)")
    #expect(output.stderr.contains("; 3 input item(s) not migrated; see the report"), "\(output.stderr)")
  }

  @Test("a dump whose only item cannot be read (a cyclic archive): 1, nothing written")
  func onlyItemUnreadableFails() throws {
    let scratch = try Fixtures.temporaryDirectory("verdict")
    defer { try? FileManager.default.removeItem(at: scratch) }
    let dump = try oneCyclicItemDump(in: scratch)
    let (output, stored) = try migrate(["--adal", dump], into: scratch)
    #expect(output.exitCode == 1, "\(output.stderr)")
    #expect(!stored, "a failed run left a store")
    #expect(output.stderr.hasPrefix("adal2msal: error: nothing usable in the inputs: 1 problem(s)"), "\(output.stderr)")
    #expect(output.stderr.contains("one-cyclic-item.xml.plist"))
  }

  /// (An entry of a section, `"Account": {"k": []}`, is kept verbatim: `verbatimOnlyContentIsKeptAsImportKeepsIt`.)
  @Test("an MSAL JSON whose sections are all invalid: 1, nothing written")
  func allSectionsInvalidFails() throws {
    let scratch = try Fixtures.temporaryDirectory("verdict")
    defer { try? FileManager.default.removeItem(at: scratch) }
    let file = try write(#"{"AccessToken": 5, "RefreshToken": "x", "Account": []}"#, "msal.json", in: scratch)
    let (output, stored) = try migrate(["--msal", file], into: scratch)
    #expect(output.exitCode == 1, "\(output.stderr)")
    #expect(!stored)
    #expect(output.stderr.contains("nothing usable in the inputs: 3 problem(s)"), "\(output.stderr)")
  }

  /// A file whose only content is kept verbatim (an entry the model cannot read, a section it does not know) is
  /// written and partial (2) by `migrate --msal` as by `import`, and both stores give it back alike: `migrate`
  /// refused it with "nothing usable" (1) while its warning said the entry was "kept verbatim and written back".
  @Test("an MSAL file of verbatim content only: 2 and stored, as import does; with --strict 1")
  func verbatimOnlyContentIsKeptAsImportKeepsIt() throws {
    let scratch = try Fixtures.temporaryDirectory("verdict")
    defer { try? FileManager.default.removeItem(at: scratch) }
    let files = [
      #"{"AccessToken": {"an-entry": {"foo": "bar"}}}"#,
      #"{"Account": {}, "AccessToken": {}, "partition-1": {"AccessToken": {"k": {"secret": "s", "credential_type": "AccessToken"}}}}"#,
    ]
    for (number, text) in files.enumerated() {
      let file = try write(text, "verbatim-\(number).json", in: scratch)
      let (migrated, stored) = try migrate(["--msal", file], into: scratch)
      #expect(migrated.exitCode == 2 && stored, "\(text): \(migrated.exitCode) \(migrated.stderr)")
      #expect(!migrated.stderr.contains("nothing usable"), "\(migrated.stderr)")
      let imported = scratch.appendingPathComponent("imported.sqlite").path
      let importRun = try CLI.run(["import", file, "--out", imported])
      #expect(importRun.exitCode == 2, "\(text): \(importRun.stderr)")
      let store = scratch.appendingPathComponent("cache.sqlite").path
      let fromMigrate = try CLI.run(["export", store])
      let fromImport = try CLI.run(["export", imported])
      #expect(fromMigrate.exitCode == 0 && fromMigrate.stdout == fromImport.stdout, "\(fromMigrate.stdout)")
      #expect(fromMigrate.stdout.contains("\"foo\"") || fromMigrate.stdout.contains("partition-1"))
      let strict = try CLI.run([
        "migrate", "--msal", file, "--out", scratch.appendingPathComponent("s.sqlite").path,
        "--strict", "-q",
      ])
      #expect(strict.exitCode == 1 && strict.stderr.contains("--strict"), "\(strict.stderr)")
      for path in [store, imported] { try FileManager.default.removeItem(atPath: path) }
    }
  }

  @Test("JSON that is no keychain dump is refused as such, described and never quoted")
  func arbitraryJSONIsNotAKeychainDump() throws {
    let cases: [(text: String, message: String)] = [
      (#"{"zebra-private-key": {"a": 1}}"#, "not a keychain dump: the JSON is an object with 1 top-level keys"),
      (
        #"[{"zebra-private-key": 1}, {"zebra": 2}]"#,
        "not a keychain dump: the JSON is an array of 2 entries, none with keychain attributes"
      ),
      (#""zebra""#, "not a recognised ADAL input: the file is text (7 bytes)"),
    ]
    for (text, message) in cases {
      let scratch = try Fixtures.temporaryDirectory("verdict")
      defer { try? FileManager.default.removeItem(at: scratch) }
      let file = try write(text, "input.json", in: scratch)
      for strict in [false, true] {
        let (output, stored) = try migrate(["--adal", file] + (strict ? ["--strict"] : []), into: scratch)
        #expect(output.exitCode == 1, "\(text): \(output.stderr)")
        #expect(!stored, "\(text): a store was written")
        #expect(output.stderr.contains(message), "\(text): \(output.stderr)")
        #expect(!output.stderr.contains("zebra"), "the error quotes the input: \(output.stderr)")
      }
    }
  }

  /// A property list is a keychain dump by its entries' keychain attributes, as JSON is: one of other dictionaries,
  /// or of items under the Security framework's constant names (`kSecValueData`), is refused (1), not read as other
  /// apps' items (0 with an empty store); a class that is no array is an error at its key path; an entry without
  /// keychain attributes beside items is one unreadable item (2).
  @Test("a property list without keychain attributes is no dump; such an entry among items is unreadable")
  func propertyListsNeedKeychainAttributes() throws {
    let scratch = try Fixtures.temporaryDirectory("verdict")
    defer { try? FileManager.default.removeItem(at: scratch) }
    func plist(_ root: Any, _ name: String) throws -> String {
      let url = scratch.appendingPathComponent(name)
      try PropertyListSerialization.data(fromPropertyList: root, format: .xml, options: 0).write(to: url)
      return url.path
    }
    let dump = try #require(
      try PropertyListSerialization.propertyList(
        from: Data(contentsOf: URL(fileURLWithPath: scenario("single-user-mrrt-at"))), format: nil) as? [[String: Any]])
    let longNames = dump.map { item in
      Dictionary(
        uniqueKeysWithValues: item.map { key, value in
          (
            [
              "svce": "kSecAttrService", "acct": "kSecAttrAccount", "gena": "kSecAttrGeneric",
              "v_Data": "kSecValueData",
            ][
              key] ?? "kSecAttr-\(key)", value
          )
        })
    }
    let refused: [(file: String, message: String)] = [
      (
        try plist([["zebra": 1], ["bar": "x"]], "other.plist"),
        "other.plist: not a keychain dump: the property list is an array of 2 entries, none with keychain attributes"
      ),
      (
        try plist(longNames, "long-names.plist"),
        "long-names.plist: not a keychain dump: the property list is an array of \(dump.count) entries, none with keychain attributes"
      ),
      (
        try plist(["genp": ["0": dump[0]]], "by-row-id.plist"),
        "by-row-id.plist, at genp: the keychain class genp is a dictionary, not an array of items"
      ),
      (
        try plist(["zebra": "x", "genp": [["foo": 1]]], "classes.plist"),
        "classes.plist: not a keychain dump: the property list is a dictionary of 2 members"
      ),
    ]
    for (file, message) in refused {
      let (output, stored) = try migrate(["--adal", file], into: scratch)
      #expect(output.exitCode == 1, "\(file): \(output.stderr)")
      #expect(!stored, "\(file): a store was written")
      #expect(output.stderr.contains(message), "\(file): \(output.stderr)")
      #expect(!output.stderr.contains("zebra"), "the error quotes the input: \(output.stderr)")
    }
    let mixed = try plist(dump + [["foo": 1]], "mixed.plist")
    let (output, stored) = try migrate(["--adal", mixed], into: scratch)
    #expect(output.exitCode == 2 && stored, "\(output.stderr)")
    #expect(
      output.stderr.contains(
        "1 input item(s) not migrated; see the report; first: \(mixed), item \(dump.count), "
          + "at [\(dump.count)]: unreadable ADAL item: the dump entry is a dictionary without keychain attributes"),
      "\(output.stderr)")
    #expect(!output.stdout.contains("not token items"), "counted as another app's item too: \(output.stdout)")
  }

  @Test("wrong options get a hint: an ADAL dump as --msal, a store as an input")
  func wrongOptionHints() throws {
    let scratch = try Fixtures.temporaryDirectory("verdict")
    defer { try? FileManager.default.removeItem(at: scratch) }
    let dump = Fixtures.url("adal/dump-multiuser.objection.json").path
    let (asMSAL, stored) = try migrate(["--msal", dump], into: scratch)
    #expect(asMSAL.exitCode == 1)
    #expect(!stored)
    #expect(
      asMSAL.stderr.contains("this is an ADAL input (objection-json), not an MSAL cache: pass it with --adal"),
      "\(asMSAL.stderr)")

    let (_, made) = try migrate(["--adal", scenario("guest-user")], into: scratch)
    try #require(made)
    let store = scratch.appendingPathComponent("cache.sqlite").path
    for role in ["--adal", "--msal"] {
      let other = try Fixtures.temporaryDirectory("verdict")
      defer { try? FileManager.default.removeItem(at: other) }
      let (output, otherStored) = try migrate([role, store], into: other)
      #expect(output.exitCode == 1)
      #expect(!otherStored)
      #expect(
        output.stderr.contains("this is an adal2msal store, not an input cache: pass it as --out"),
        "\(role): \(output.stderr)")
    }
  }

  @Test("known unsupported formats are named, by migrate and by inspect")
  func unsupportedFormatsAreNamed() throws {
    let scratch = try Fixtures.temporaryDirectory("verdict")
    defer { try? FileManager.default.removeItem(at: scratch) }
    let android = try write(
      """
      <?xml version='1.0' encoding='utf-8' standalone='yes' ?>
      <map>
          <string name="https://login.microsoftonline.com/common$https://graph.windows.net$client$y$user">cE1QTEFDRUhPTERFUg==</string>
      </map>
      """, "com.microsoft.aad.adal.cache.xml", in: scratch)
    let dpapi = scratch.appendingPathComponent("TokenCache.dat")
    try Data([
      0x01, 0, 0, 0, 0xD0, 0x8C, 0x9D, 0xDF, 0x01, 0x15, 0xD1, 0x11, 0x8C, 0x7A, 0x00, 0xC0, 0x4F, 0xC2, 0x97, 0xEB, 1,
      2, 3,
    ])
    .write(to: dpapi)
    let cases = [(android, "ADAL Android preferences XML"), (dpapi.path, "DPAPI-encrypted file")]
    for (file, name) in cases {
      let (output, stored) = try migrate(["--adal", file], into: scratch)
      #expect(output.exitCode == 1)
      #expect(!stored)
      #expect(output.stderr.contains("not supported yet: \(name)"), "\(output.stderr)")
      let inspect = try CLI.run(["inspect", file])
      #expect(inspect.exitCode == 1)
      #expect(inspect.stderr.contains("not supported yet: \(name)"), "\(inspect.stderr)")
    }
    // Why an ADAL Android cache cannot be migrated here: its values are encrypted with a key on the device.
    let (output, _) = try migrate(["--adal", android], into: scratch)
    #expect(output.stderr.contains("encrypted with a key held in the device's Android keystore"), "\(output.stderr)")
  }

  @Test("inspect names a JSON dump of keychain classes as ADAL, not as a broken MSAL cache")
  func inspectNamesAJSONClassesDump() throws {
    let scratch = try Fixtures.temporaryDirectory("verdict")
    defer { try? FileManager.default.removeItem(at: scratch) }
    let items = try JSONSerialization.jsonObject(with: Fixtures.data("adal/dump-multiuser.objection.json"))
    let file = scratch.appendingPathComponent("classes.json")
    try JSONSerialization.data(withJSONObject: ["genp": items]).write(to: file)
    let inspect = try CLI.run(["inspect", file.path])
    #expect(inspect.exitCode == 0, "\(inspect.stderr)")
    #expect(inspect.stdout.contains("format: ADAL objection-json"))
  }

  @Test("a directory is a fleet: a stray file is a counted, named skip (2); --strict makes it fatal")
  func directoryFleetSkipsStrayFiles() throws {
    let scratch = try Fixtures.temporaryDirectory("verdict")
    defer { try? FileManager.default.removeItem(at: scratch) }
    let fleet = scratch.appendingPathComponent("fleet")
    try FileManager.default.createDirectory(at: fleet, withIntermediateDirectories: true)
    try FileManager.default.copyItem(
      atPath: scenario("guest-user"), toPath: fleet.appendingPathComponent("device-1.plist").path)
    try FileManager.default.copyItem(
      atPath: scenario("expired-ats"), toPath: fleet.appendingPathComponent("device-2.plist").path)
    let (clean, cleanStored) = try migrate(["--adal", fleet.path, "--dry-run"], into: scratch)
    #expect(clean.exitCode == 0, "\(clean.stderr)")
    #expect(!cleanStored)

    _ = try write("notes about the devices\n", "notes.txt", in: fleet)
    let (partial, stored) = try migrate(["--adal", fleet.path], into: scratch)
    #expect(partial.exitCode == 2, "\(partial.stderr)")
    #expect(stored)
    #expect(
      partial.stderr.contains(
        "adal2msal: warning: \(fleet.path)/notes.txt: skipped: not a recognised ADAL input: the file is text"))
    #expect(partial.stderr.contains("1 files skipped"), "\(partial.stderr)")
    #expect(partial.stdout.contains("notes.txt"), "the report names the skipped file")

    let strictScratch = try Fixtures.temporaryDirectory("verdict")
    defer { try? FileManager.default.removeItem(at: strictScratch) }
    let (strict, strictStored) = try migrate(["--adal", fleet.path, "--strict"], into: strictScratch)
    #expect(strict.exitCode == 1)
    #expect(!strictStored)
    #expect(strict.stderr.contains("adal2msal: error: --strict:"), "\(strict.stderr)")

    // The same stray file named on the command line ends the run: nothing is written.
    let named = try Fixtures.temporaryDirectory("verdict")
    defer { try? FileManager.default.removeItem(at: named) }
    let (explicit, explicitStored) = try migrate(
      ["--adal", fleet.appendingPathComponent("notes.txt").path], into: named)
    #expect(explicit.exitCode == 1)
    #expect(!explicitStored)
  }

  /// A user whose only tokens are skipped by policy gets no Account (`adal.no-token-migrates`), which follows
  /// from those skips and is no problem of its own: status 0, also with `--strict`, and no user listed with problems.
  @Test("a user whose every token is skipped by policy: 0, also with --strict")
  func userWithOnlyPolicySkippedTokensIsSuccess() throws {
    let accessToken = Fixtures.url("adal/archive-e1-at.bplist").path
    for options in [["--skip-access-tokens"], ["--now", "2099-01-01T00:00:00Z"]] {
      let scratch = try Fixtures.temporaryDirectory("verdict")
      defer { try? FileManager.default.removeItem(at: scratch) }
      let out = scratch.appendingPathComponent("cache.sqlite").path
      for strict in [[], ["--strict"]] {
        let output = try CLI.run(
          ["migrate", "--adal", accessToken, "--out", out, "--report-format", "json", "--report", "-"] + options
            + strict)
        #expect(output.exitCode == 0, "\(options) \(strict): \(output.stderr)")
        #expect(output.stdout.contains("adal.no-token-migrates"), "the report still says why: \(output.stdout)")
        #expect(!output.stderr.contains("warning"), "\(output.stderr)")
        // The summary's users with problems count by the verdict's rule.
        #expect(!output.stderr.contains("with problems"), "\(output.stderr)")
      }
    }
  }

  /// Inputs whose problems leave only policy skips (a guest) give nothing to write: refused, nothing written, an
  /// existing store left as it was. The run was 2 and wrote an empty run into the store.
  @Test("problems and policy skips only: 1, nothing written, an existing store unchanged")
  func problemsWithOnlyPolicySkipsFail() throws {
    let scratch = try Fixtures.temporaryDirectory("verdict")
    defer { try? FileManager.default.removeItem(at: scratch) }
    let unreadable = try oneCyclicItemDump(in: scratch)
    let inputs = ["--adal", scenario("guest-user"), "--adal", unreadable]
    let (output, stored) = try migrate(inputs, into: scratch)
    #expect(output.exitCode == 1, "\(output.stderr)")
    #expect(!stored, "a failed run left a store")
    #expect(output.stderr.hasPrefix("adal2msal: error: nothing usable in the inputs: 1 problem(s)"), "\(output.stderr)")

    let (first, _) = try migrate(["--adal", scenario("single-user-mrrt-at")], into: scratch)
    #expect(first.exitCode == 0, "\(first.stderr)")
    let store = scratch.appendingPathComponent("cache.sqlite")
    let before = try Data(contentsOf: store)
    let (again, _) = try migrate(inputs, into: scratch)
    #expect(again.exitCode == 1, "\(again.stderr)")
    #expect(try Data(contentsOf: store) == before, "the store changed")
  }

  /// An empty file given as the store (`mktemp`) is a new store to write; a run that fails puts it back as it
  /// was, empty and with its mode, as it removes a store file it created. It became a store of the schema only.
  @Test("a failed run into an empty file leaves it empty, with its mode")
  func failedRunLeavesAnEmptyFileAsItWas() throws {
    let scratch = try Fixtures.temporaryDirectory("verdict")
    defer { try? FileManager.default.removeItem(at: scratch) }
    let store = scratch.appendingPathComponent("cache.sqlite").path
    let runs: [(String, [String])] = [
      ("--strict with a problem", ["migrate", "--adal", scenario("tombstones"), "--strict"]),
      ("nothing usable", ["migrate", "--msal", try write(#"{"AccessToken": 5}"#, "bad.json", in: scratch)]),
    ]
    for (name, arguments) in runs {
      #expect(FileManager.default.createFile(atPath: store, contents: Data(), attributes: [.posixPermissions: 0o640]))
      let output = try CLI.run(arguments + ["--out", store, "--now", Self.clock])
      #expect(output.exitCode == 1, "\(name): \(output.stderr)")
      let attributes = try FileManager.default.attributesOfItem(atPath: store)
      #expect((attributes[.size] as? Int) == 0, "\(name): the empty file became \(attributes[.size] ?? 0) bytes")
      #expect((attributes[.posixPermissions] as? Int) == 0o640, "\(name): \(attributes[.posixPermissions] ?? 0)")
      let sideFiles = ["-wal", "-shm", "-journal"].filter { FileManager.default.fileExists(atPath: store + $0) }
      #expect(sideFiles.isEmpty, "\(name): \(sideFiles)")
    }
    let written = try CLI.run([
      "migrate", "--adal", scenario("single-user-mrrt-at"), "--out", store, "--now", Self.clock,
    ])
    #expect(written.exitCode == 0, "a run that succeeds makes the empty file a store: \(written.stderr)")
    #expect(try CLI.run(["accounts", store]).exitCode == 0)
  }

  /// A refused run keeps its report (it says why), and the report says the plan it shows was not written: it
  /// was byte for byte the report of a run that wrote it.
  @Test("a refused run's report says it was refused and nothing written; a written run's does not")
  func refusedRunsReportSaysSo() throws {
    let scratch = try Fixtures.temporaryDirectory("verdict")
    defer { try? FileManager.default.removeItem(at: scratch) }
    let out = scratch.appendingPathComponent("cache.sqlite").path
    func report(_ arguments: [String], _ name: String) throws -> (ProcessRunner.Output, [[String: Any]]) {
      let path = scratch.appendingPathComponent(name).path
      let output = try CLI.run(
        ["migrate"] + arguments + ["--out", out, "--now", Self.clock, "--report", path, "--report-format", "json"])
      let object = try #require(
        try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
      return (
        output, (object["diagnostics"] as? [[String: Any]] ?? []).filter { $0["code"] as? String == "run.refused" }
      )
    }
    let (strict, refused) = try report(["--adal", scenario("tombstones"), "--strict"], "strict.json")
    #expect(strict.exitCode == 1 && !FileManager.default.fileExists(atPath: out), "\(strict.stderr)")
    #expect(refused.count == 1 && refused.first?["severity"] as? String == "error", "\(refused)")
    let message = refused.first?["message"] as? String ?? ""
    #expect(message.hasPrefix("--strict: 1 problem(s)") && message.hasSuffix("; nothing written"), "\(message)")
    #expect(
      strict.stderr.contains(message.replacingOccurrences(of: "; nothing written", with: " (")), "\(strict.stderr)")

    let (nothing, unusable) = try report(["--adal", try oneCyclicItemDump(in: scratch)], "nothing.json")
    #expect(nothing.exitCode == 1, "\(nothing.stderr)")
    #expect((unusable.first?["message"] as? String)?.hasPrefix("nothing usable in the inputs: 1 problem(s)") == true)

    let (written, none) = try report(["--adal", scenario("tombstones")], "written.json")
    #expect(written.exitCode == 2 && none.isEmpty, "\(written.stderr)")
  }
}
