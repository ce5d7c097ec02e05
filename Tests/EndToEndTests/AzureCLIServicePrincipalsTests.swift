import Adal2MSAL
import Foundation
import Testing
import _Adal2MSALTestSupport

/// `service_principal_entries.json` is written with the project's JSON writer: existing entries exactly as they
/// were (member order, number text), new ones with sorted keys, on one line.
@Suite("Azure CLI service principals file")
struct AzureCLIServicePrincipalsTests {
  static let existing = #"[{"tenant": "t1", "client_id": "A", "client_secret": "s/1", "n": 1.50}]"#

  /// Azure CLI ≤ 2.29's accessTokens.json: a user entry, a secret and a certificate service principal.
  static let accessTokens = """
    [{"_authority": "https://login.microsoftonline.com/common", "_clientId": "c", "resource": "r",
      "accessToken": "at", "refreshToken": "rt", "tokenType": "Bearer", "isMRRT": true},
     {"servicePrincipalId": "b", "servicePrincipalTenant": "t/2", "accessToken": "x/y\\"z"},
     {"servicePrincipalId": "a", "servicePrincipalTenant": "T1", "certificateFile": "/c.pem", "thumbprint": "f"}]
    """

  @Test func existingEntriesAreKeptAndNewOnesAppended() throws {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("sp-\(UUID().uuidString).json")
    try Data(Self.accessTokens.utf8).write(to: file)
    defer { try? FileManager.default.removeItem(at: file) }
    let entries = try AzureCLIServicePrincipals.collect(fromADAL: [file.path], limits: .default)
    #expect(entries.map(\.clientID) == ["b", "a"])
    let merge = try AzureCLIServicePrincipals.merged(entries, into: Data(Self.existing.utf8))
    #expect(merge.added == 1)
    #expect(
      String(decoding: merge.data, as: UTF8.self)
        == #"[{"tenant":"t1","client_id":"A","client_secret":"s/1","n":1.50},"#
        + #"{"client_id":"b","client_secret":"x/y\"z","tenant":"t/2"}]"#)
  }

  /// A service principal the file, or an earlier input, holds with another credential is named, by the credentials'
  /// fingerprints and the input's place; one held with the same credential is not (it was merged, nothing lost).
  @Test func anEntryLeftOutForAnotherCredentialIsNamed() throws {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("sp-\(UUID().uuidString).json")
    try Data(
      """
      [{"servicePrincipalId": "a", "servicePrincipalTenant": "t1", "accessToken": "s/1"},
       {"servicePrincipalId": "b", "servicePrincipalTenant": "t2", "accessToken": "new-b"},
       {"servicePrincipalId": "c", "servicePrincipalTenant": "t3", "accessToken": "first-c"},
       {"servicePrincipalId": "C", "servicePrincipalTenant": "T3", "certificateFile": "/c.pem"},
       {"servicePrincipalId": "c", "servicePrincipalTenant": "t3", "accessToken": "first-c"}]
      """.utf8
    ).write(to: file)
    defer { try? FileManager.default.removeItem(at: file) }
    let existing =
      #"[{"tenant": "t1", "client_id": "A", "client_secret": "s/1"}, "#
      + #"{"tenant": "t2", "client_id": "b", "client_secret": "old-b"}]"#
    let entries = try AzureCLIServicePrincipals.collect(fromADAL: [file.path], limits: .default)
    let merge = try AzureCLIServicePrincipals.merged(entries, into: Data(existing.utf8))
    #expect(merge.added == 1)
    let fingerprint = { (secret: String) in ADALSecret(secret).fingerprint }
    #expect(
      merge.diagnostics.map(\.description) == [
        "\(file.path), item 1: warning: service principal b in t2: secret \(fingerprint("new-b")) left out: "
          + "service_principal_entries.json already holds secret \(fingerprint("old-b")) for it, which Azure CLI "
          + "signs in with, and keeps it [azure-cli.service-principal-kept]",
        "\(file.path), item 3: warning: service principal C in T3: certificate /c.pem left out: "
          + "service_principal_entries.json gets secret \(fingerprint("first-c")) for it, from \(file.path), item 2, "
          + "read first [azure-cli.service-principal-kept]",
      ])
    let text = merge.diagnostics.map(\.description).joined()
    #expect(!text.contains("new-b") && !text.contains("old-b") && !text.contains("first-c"))
    #expect(String(decoding: merge.data, as: UTF8.self).contains(#""client_secret":"old-b""#))
  }

  @Test func aFileThatIsNotAnArrayIsRefusedWithoutItsContent() throws {
    let object = #expect(throws: AzureCLIServicePrincipals.MergeError.self) {
      try AzureCLIServicePrincipals.merged([], into: Data(#"{"client_secret": "hidden"}"#.utf8))
    }
    #expect(object?.description == "the existing service_principal_entries.json is not a JSON array")
    let broken = #expect(throws: AzureCLIServicePrincipals.MergeError.self) {
      try AzureCLIServicePrincipals.merged([], into: Data(#"[{"client_secret": hidden}]"#.utf8))
    }
    #expect(broken?.description == "the existing service_principal_entries.json is not valid JSON (at byte 19)")
    // ADAL's accessTokens.json linked there: its user entries are no service principals, and merging wrote their
    // refresh tokens into Azure CLI's service principals file.
    let users = try Data(contentsOf: Fixtures.url("adal-python/accessTokens.json"))
    let userEntries = #expect(throws: AzureCLIServicePrincipals.MergeError.self) {
      try AzureCLIServicePrincipals.merged([], into: users)
    }
    #expect(
      userEntries?.description
        == "the existing service_principal_entries.json holds entry 0, which is no service principal (no client_id and "
        + "tenant)")
  }
}
