import Adal2MSAL
import Foundation
import Testing

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
    let (data, added) = try AzureCLIServicePrincipals.merged(entries, into: Data(Self.existing.utf8))
    #expect(added == 1)
    #expect(
      String(decoding: data, as: UTF8.self)
        == #"[{"tenant":"t1","client_id":"A","client_secret":"s/1","n":1.50},"#
        + #"{"client_id":"b","client_secret":"x/y\"z","tenant":"t/2"}]"#)
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
  }
}
