import Foundation
import Testing
import _Adal2MSALTestSupport

/// `--encryption-key-file` seals every token of the input at rest, the ones kept verbatim too: MSAL Go's
/// partitions (unknown top-level sections), an entry the model cannot hold (a refresh token without
/// `client_id`), and unknown fields of modelled entries. The store file (and its WAL, if one is left) holds
/// none of them in clear, and `export` with the key gives back what the same run without a key exports.
@Suite("Sealed store, verbatim input")
struct SealedStoreCLITests {
  struct Case: CustomStringConvertible, Sendable {
    var name: String
    var input: @Sendable () throws -> URL
    var tokens: [String]
    var description: String { name }
  }

  static func written(_ name: String, _ json: String) throws -> URL {
    let url = try Fixtures.temporaryDirectory("sealed-cli-input").appendingPathComponent(name)
    try Data(json.utf8).write(to: url)
    return url
  }

  static let cases = [
    Case(
      name: "MSAL Go partitions",
      input: { RealWorldCaches.url("msal-go_test_partitioned_cache.json") },
      tokens: [
        "a refresh token", "an access token",
        "header.eyJvaWQiOiAib2JqZWN0MTIzNCIsICJwcmVmZXJyZWRfdXNlcm5hbWUiOiAiSm9obiBEb2UiLCAic3ViIjogInN1YiJ9.signature",
      ]),
    Case(
      name: "an unmodelled refresh token",
      input: {
        try written(
          "unmod.json",
          #"{"RefreshToken":{"k1":{"home_account_id":"uid.utid","environment":"login.microsoftonline.com","credential_type":"RefreshToken","secret":"PLAINTEXT-RT-0123456789abcdef"}}}"#
        )
      },
      tokens: ["PLAINTEXT-RT-0123456789abcdef"]),
    Case(
      name: "unknown fields holding tokens",
      input: {
        try written(
          "extra.json",
          #"""
          {"Account":{"uid.utid-login.microsoftonline.com-utid":{"home_account_id":"uid.utid","environment":"login.microsoftonline.com","realm":"utid","local_account_id":"uid","username":"user@contoso.com","authority_type":"MSSTS","extra_token":"ACCOUNT-EXTRA-TOKEN-71c0e3a9d2"}},
          "RefreshToken":{"uid.utid-login.microsoftonline.com-refreshtoken-client--":{"home_account_id":"uid.utid","environment":"login.microsoftonline.com","credential_type":"RefreshToken","client_id":"client","secret":"RT-SECRET-4b8e2f6a1c","extra_token":"RT-EXTRA-TOKEN-9d3a7c5e1b"}},
          "AppMetadata":{"appmetadata-login.microsoftonline.com-client":{"environment":"login.microsoftonline.com","client_id":"client","family_id":"1","extra_token":"APPMETA-EXTRA-TOKEN-0a2c4e6b8d"}}}
          """#)
      },
      tokens: [
        "ACCOUNT-EXTRA-TOKEN-71c0e3a9d2", "RT-SECRET-4b8e2f6a1c", "RT-EXTRA-TOKEN-9d3a7c5e1b",
        "APPMETA-EXTRA-TOKEN-0a2c4e6b8d",
      ]),
  ]

  /// The two commands that write a store from an MSAL cache.
  static let commands: [@Sendable (String, String) -> [String]] = [
    { input, out in ["import", input, "--out", out] },
    { input, out in ["migrate", "--msal", input, "--out", out] },
  ]

  /// The store file followed by its WAL, when one is left.
  static func storeBytes(_ path: String) throws -> Data {
    var data = try Data(contentsOf: URL(fileURLWithPath: path))
    if FileManager.default.fileExists(atPath: path + "-wal") {
      data.append(try Data(contentsOf: URL(fileURLWithPath: path + "-wal")))
    }
    return data
  }

  static func found(_ tokens: [String], in data: Data) -> [String] {
    tokens.filter { data.range(of: Data($0.utf8)) != nil }
  }

  @Test("no token in clear in a sealed store; export with the key is the export without one", arguments: cases)
  func sealedStore(_ testCase: Case) throws {
    let input = try testCase.input().path
    let directory = try Fixtures.temporaryDirectory("sealed-cli")
    let keyFile = directory.appendingPathComponent("key.bin")
    try Data((0..<32).map { UInt8($0) &* 11 &+ 5 }).write(to: keyFile)
    try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: keyFile.path)
    let key = ["--encryption-key-file", keyFile.path]

    for (index, command) in Self.commands.enumerated() {
      let sealed = directory.appendingPathComponent("sealed-\(index).sqlite").path
      let plain = directory.appendingPathComponent("plain-\(index).sqlite").path
      let sealedRun = try CLI.run(command(input, sealed) + key)
      let plainRun = try CLI.run(command(input, plain))
      let name = command(input, "").first ?? ""
      #expect([0, 2].contains(sealedRun.exitCode), "\(name): \(sealedRun.stderr)")
      #expect(sealedRun.exitCode == plainRun.exitCode, "\(name): \(sealedRun.stderr)")

      // Without a key every token is in the file: the scan finds what it looks for.
      #expect(Self.found(testCase.tokens, in: try Self.storeBytes(plain)) == testCase.tokens, "\(name)")
      #expect(Self.found(testCase.tokens, in: try Self.storeBytes(sealed)) == [], "\(name)")

      let sealedExport = try CLI.run(["export", sealed] + key)
      let plainExport = try CLI.run(["export", plain])
      #expect(sealedExport.exitCode == 0, "\(name): \(sealedExport.stderr)")
      #expect(!plainExport.stdout.isEmpty)
      #expect(sealedExport.stdout == plainExport.stdout, "\(name)")
      #expect(Self.found(testCase.tokens, in: Data(plainExport.stdout.utf8)) == testCase.tokens, "\(name)")

      let accounts = try CLI.run(["accounts", sealed, "--format", "json"] + key)
      #expect(accounts.exitCode == 0, "\(name): \(accounts.stderr)")
      #expect(accounts.stdout == (try CLI.run(["accounts", plain, "--format", "json"])).stdout, "\(name)")

      // A second run into the sealed store (an existing one: its WAL) keeps it sealed.
      let again = try CLI.run(["migrate", "--msal", input, "--out", sealed] + key)
      #expect([0, 2].contains(again.exitCode), "\(name): \(again.stderr)")
      #expect(Self.found(testCase.tokens, in: try Self.storeBytes(sealed)) == [], "\(name)")
      #expect(try CLI.run(["export", sealed] + key).stdout == plainExport.stdout, "\(name)")
    }
  }
}
