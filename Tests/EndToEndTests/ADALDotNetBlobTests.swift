import Adal2MSAL
import Foundation
import Testing
import _Adal2MSALTestSupport

/// ADAL.NET v3 token cache blobs (`TokenCache.Serialize`, `TokenCache.dat`): the ADAL.NET test suite's own blob
/// (../shared/realworld, read in place) and blobs built here byte by byte to the layout
/// (docs/formats.md, "ADAL.NET v3 entries"), migrated and checked with the real MSAL Python.
@Suite(.serialized) struct ADALDotNetBlobTests {
  static let realBlob = Fixtures.repositoryRoot
    .appendingPathComponent("../shared/realworld/adal-dotnet-v3_oldcache.serialized").standardized
  static let client = "d3590ed6-52b3-4102-aeff-aad2292ab01c"
  static let tenant = "44444444-4444-4444-8444-444444444444"
  static let home = "uid-frank.\(tenant)"

  /// .NET `BinaryWriter`: int32 schema 3, int32 count, then 7-bit-length-prefixed UTF-8 key and value strings.
  static func blob(_ entries: [(key: String, value: [String: Any])]) throws -> Data {
    var bytes: [UInt8] = [3, 0, 0, 0, UInt8(entries.count), 0, 0, 0]
    func put(_ text: String) {
      var length = text.utf8.count
      repeat {
        bytes.append(UInt8(length & 0x7F) | (length > 0x7F ? 0x80 : 0))
        length >>= 7
      } while length > 0
      bytes += Array(text.utf8)
    }
    for entry in entries {
      put(entry.key)
      put(
        String(decoding: try JSONSerialization.data(withJSONObject: entry.value, options: [.sortedKeys]), as: UTF8.self)
      )
    }
    return Data(bytes)
  }

  static func b64url(_ object: [String: Any]) throws -> String {
    try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]).base64EncodedString()
      .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(
        of: "=", with: "")
  }

  static func sample() throws -> Data {
    let idToken =
      try b64url(["alg": "none", "typ": "JWT"]) + "."
      + b64url([
        "oid": "oid-frank", "tid": tenant, "upn": "frank@contoso.example", "iss": "https://sts.windows.net/\(tenant)/",
        "ver": "1.0",
      ]) + "."
    let far = ["DateTime": "/Date(4098852000000)/", "OffsetMinutes": 0] as [String: Any]
    let user: [String: Any] = [
      "RawClientInfo": try b64url(["uid": "uid-frank", "utid": tenant]), "RefreshToken": "dotnet-rt-frank",
      "ResourceInResponse": "https://graph.windows.net/",
      "Result": [
        "AccessToken": "dotnet-at-frank", "AccessTokenType": "Bearer", "ExpiresOn": far, "IdToken": idToken,
        "TenantId": tenant,
        "UserInfo": ["DisplayableId": "frank@contoso.example", "UniqueId": "oid-frank"],
      ] as [String: Any],
    ]
    let app: [String: Any] = ["Result": ["AccessToken": "dotnet-app-only", "ExpiresOn": far] as [String: Any]]
    return try blob([
      ("https://login.microsoftonline.com/\(tenant)/:::https://graph.windows.net/:::\(client):::0", user),
      ("https://login.microsoftonline.com/\(tenant)/:::https://graph.windows.net/:::\(client):::1", app),
    ])
  }

  @Test func theADALDotNetTestSuiteBlobIsReadToTheEnd() throws {
    let result = try ADALCacheReader().read(try Data(contentsOf: Self.realBlob), file: "oldcache.serialized")
    #expect(result.inputKind == .adalDotNetV3)
    // 14 entries, every byte read; their authorities are the test suite's random strings, not URLs.
    #expect(result.items.isEmpty)
    #expect(result.diagnostics.count == 14)
    #expect(result.diagnostics.allSatisfy { $0.code == "adal.item-unreadable" && $0.message.contains("not a URL") })
  }

  @Test func entriesBecomeItemsAndBase64TextReadsTheSame() throws {
    let data = try Self.sample()
    let result = try ADALCacheReader().read(data, file: "TokenCache.dat")
    let item = try #require(result.items.first)
    #expect(result.items.count == 1)
    #expect(item.kind == .multiResourceRefreshToken)
    #expect(item.refreshToken?.value == "dotnet-rt-frank")
    #expect(item.expiresOn == Date(timeIntervalSince1970: 4_098_852_000))
    #expect(item.idTokenClaims?.upn == "frank@contoso.example")
    #expect(result.diagnostics.map(\.code) == ["adal.dotnet-not-a-user-entry"])
    let text = try ADALCacheReader().read(Data(data.base64EncodedString().utf8), file: "cache.b64")
    #expect(
      text.items
        == result.items.map {
          var copy = $0
          copy.source.file = "cache.b64"
          return copy
        })
    let truncated = data.prefix(data.count - 10)
    #expect(throws: ADALCacheError.self) { try ADALCacheReader().read(Data(truncated), file: "t.dat") }
  }

  @Test func migratedBlobWorksInMSALPython() throws {
    let scratch = try Fixtures.temporaryDirectory("adal-dotnet")
    defer { try? FileManager.default.removeItem(at: scratch) }
    let input = scratch.appendingPathComponent("TokenCache.dat")
    try Self.sample().write(to: input)
    let out = scratch.appendingPathComponent("c.sqlite").path
    let migrate = try CLI.run([
      "migrate", "--adal", input.path, "--out", out, "--now", "2026-11-21T00:00:00Z", "--report-format", "json",
      "--report", "-",
    ])
    #expect(migrate.exitCode == 0, "\(migrate.stderr.prefix(600))")
    #expect(migrate.stdout.contains("adal.dotnet-not-a-user-entry"))
    #expect(!migrate.stdout.contains("dotnet-app-only") && !migrate.stdout.contains("dotnet-rt-frank"))
    let cacheFile = scratch.appendingPathComponent("cache.json")
    try #require(try CLI.run(["export", out, "--output", cacheFile.path]).exitCode == 0)
    let arguments: [String: Any] = [
      "cache": cacheFile.path, "clientId": Self.client, "authority": "https://login.microsoftonline.com/\(Self.tenant)",
      "username": "frank@contoso.example", "scopes": ["https://graph.windows.net//.default"],
      "expectedHomeAccountId": Self.home, "expectedAccessTokenFingerprint": SecretFingerprint.of("dotnet-at-frank"),
      "expectedRefreshTokenFingerprint": SecretFingerprint.of("dotnet-rt-frank"),
    ]
    let json = try JSONSerialization.data(withJSONObject: arguments, options: [.sortedKeys])
    let output = try MSALPythonOracle.run("msal_python_silent.py", arguments: [String(decoding: json, as: UTF8.self)])
    #expect(output.exitCode == 0, "\(output.stdout) \(output.stderr)")
  }
}
