import Adal2MSALSupport
import Foundation
import Testing
import _Adal2MSALTestSupport

/// `migrate --redact-usernames` on the inputs an audit found leaking: no report format, nor standard error,
/// shows a person's display name or an account id that the same run's report without redaction shows, not even
/// encoded (a `client_info` is base64url JSON whose uid is the account's id).
@Suite(.serialized) struct RedactionLeakTests {
  static let now = "2026-11-21T00:00:00Z"

  func adal2msal(_ arguments: [String]) throws -> ProcessRunner.Output {
    let binary = try #require(BuiltProducts.url("adal2msal"), "adal2msal not built: run swift build --build-tests")
    return try ProcessRunner.run(binary, arguments: arguments, environment: ["NO_COLOR": "1", "PATH": "/usr/bin:/bin"])
  }

  /// The runs: the multi-user dump (display names in its id tokens), and Azure CLI's 2017 token file with MSAL
  /// caches whose accounts and tokens carry names and `client_info`, once whole and once in parts of 10 items
  /// (whose report is redacted with the names of every part).
  static let runs: [(name: String, arguments: [String])] = [
    ("dump-multiuser", ["--adal", Fixtures.url("adal/dump-multiuser.xml.plist").path]),
    ("azure-cli-2017 with MSAL caches", azureCLIWithMSAL),
    (
      "azure-cli-2017 with MSAL caches, in parts",
      azureCLIWithMSAL + ["--plan-whole-up-to", "0", "--items-per-part", "10"]
    ),
  ]

  static let azureCLIWithMSAL = [
    "--adal", RealWorldCaches.url("azure-cli-2017_accessTokens_from-k8s-azure-plugin-test.json").path,
    "--msal", Fixtures.url("msal-json").path,
    "--msal", RealWorldCaches.url("msal-java_multi-tenant-account-cache.json").path,
  ]

  /// What a report without redaction shows of people: display names, usernames and account ids, and the uid
  /// inside each `client_info`.
  struct Personal {
    var names: Set<String> = []
    var ids: Set<String> = []
    var uids: Set<String> = []
    var clientInfos = 0
  }

  static let nameFields: Set<String> = ["name", "given_name", "family_name", "middle_name"]
  static let idFields: Set<String> = [
    "username", "homeAccountId", "home_account_id", "local_account_id", "alternative_account_id", "otherUsernames",
    "candidates",
  ]

  /// Walks a JSON report, gathering what `Personal` holds.
  static func gather(_ value: Any, under key: String? = nil, into personal: inout Personal) {
    switch value {
    case let object as [String: Any]:
      for (member, value) in object { gather(value, under: member, into: &personal) }
    case let array as [Any]:
      for item in array { gather(item, under: key, into: &personal) }
    case let text as String:
      let value = text.trimmingCharacters(in: .whitespaces)
      guard let key, !value.isEmpty else { return }
      if nameFields.contains(key) { personal.names.insert(value) }
      if idFields.contains(key) { personal.ids.insert(value.lowercased()) }
      if key == "client_info" {
        personal.clientInfos += 1
        if let uid = clientInfo(value)?["uid"] as? String { personal.uids.insert(uid.lowercased()) }
      }
    default: break
    }
  }

  /// A `client_info` decoded: base64url JSON.
  static func clientInfo(_ value: String) -> [String: Any]? {
    guard let data = Base64URL.decode(value) else { return nil }
    return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
  }

  @Test(arguments: runs.indices)
  func aRedactedReportHoldsNoNameAndNoDecodableID(_ index: Int) throws {
    let (run, inputs) = Self.runs[index]
    let common = ["migrate"] + inputs + ["--dry-run", "--now", Self.now]
    let plain = try adal2msal(common + ["--report-format", "json"])
    #expect(plain.exitCode != 1, "\(run): \(plain.stderr)")
    var personal = Personal()
    Self.gather(try JSONSerialization.jsonObject(with: Data(plain.stdout.utf8)), into: &personal)
    // The audit's findings, as the report without redaction shows them.
    #expect(personal.names.count >= 2, "\(run): \(personal.names.sorted())")
    if run.hasPrefix("azure-cli") {
      #expect(personal.clientInfos >= 14 && !personal.uids.isEmpty, "\(run): \(personal.clientInfos) client_info")
      #expect(personal.names.isSuperset(of: ["Liu Kang", "First Last"]), "\(run)")
    } else {
      #expect(personal.names.contains("Alice Example"), "\(run)")
    }
    let hidden = personal.ids.union(personal.uids).filter { $0.count >= 4 }
    for format in ["text", "json", "markdown"] {
      let redacted = try adal2msal(common + ["--redact-usernames", "--report-format", format])
      #expect(redacted.exitCode == plain.exitCode, "\(run), \(format): \(redacted.stderr)")
      #expect(redacted.stdout.contains("user-"), "\(run), \(format): no report")
      for (stream, text) in [("report", redacted.stdout), ("standard error", redacted.stderr)] {
        for name in personal.names {
          #expect(!ShownValue.holds(text, name: name), "\(run), \(format) \(stream): \(name)")
        }
        for id in hidden { #expect(!ShownValue.holds(text, id: id), "\(run), \(format) \(stream): \(id)") }
        // Decoded, no run of base64 or base64url characters names a uid, an id or a name either.
        for decoded in EncodedText.decodedRuns(in: text).map({ $0.lowercased() }) {
          for id in hidden where decoded.contains(id) {
            Issue.record("\(run), \(format) \(stream): \(id) decodes from the report")
          }
          for name in personal.names where decoded.contains(name.lowercased()) {
            Issue.record("\(run), \(format) \(stream): \(name) decodes from the report")
          }
        }
      }
      guard format == "json" else { continue }
      // Each client_info is still one: the same JSON, its uid a token and its utid (a tenant id) as it was.
      var shown = Personal()
      Self.gather(try JSONSerialization.jsonObject(with: Data(redacted.stdout.utf8)), into: &shown)
      #expect(shown.clientInfos == personal.clientInfos, "\(run)")
      #expect(!shown.uids.isEmpty == !personal.uids.isEmpty, "\(run)")
      for uid in shown.uids { #expect(uid.hasPrefix("account-") && uid.count == 20, "\(run): \(uid)") }
      // A uid's token is the one its account id gets elsewhere (a home tenant's local account id is the uid).
      if !shown.uids.isEmpty { #expect(!shown.uids.isDisjoint(with: shown.ids), "\(run): \(shown.uids.sorted())") }
      #expect(shown.names.allSatisfy { $0.hasPrefix("name-") && $0.count == 17 }, "\(run): \(shown.names.sorted())")
    }
  }
}
