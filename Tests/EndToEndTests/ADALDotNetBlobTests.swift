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

  /// ADAL.NET writes subject types 0, 1 and 2 only: a key with another (`0x`, `-1`, empty) is a damaged or crafted
  /// entry, unreadable (a problem), not an app-only one skipped by policy as it was.
  @Test(arguments: ["0x", "-1", "", "7"])
  func aSubjectTypeADALDotNetNeverWritesIsUnreadable(_ subject: String) throws {
    let app: [String: Any] = ["Result": ["AccessToken": "dotnet-app-only"] as [String: Any]]
    let data = try Self.blob([
      (
        "https://login.microsoftonline.com/\(Self.tenant)/:::https://graph.windows.net/:::\(Self.client):::\(subject)",
        app
      )
    ])
    let result = try ADALCacheReader().read(data, file: "TokenCache.dat")
    #expect(result.items.isEmpty)
    let diagnostic = try #require(result.diagnostics.first)
    #expect(result.diagnostics.count == 1 && diagnostic.code == "adal.item-unreadable", "\(result.diagnostics)")
    #expect(diagnostic.message.contains("subject type is not one ADAL.NET writes"))
  }

  @Test func theADALDotNetTestSuiteBlobIsReadToTheEnd() throws {
    let result = try ADALCacheReader().read(try Data(contentsOf: Self.realBlob), file: "oldcache.serialized")
    #expect(result.inputKind == .adalDotNetV3)
    // 14 entries, every byte read; their authorities are the test suite's random strings, not URLs.
    #expect(result.items.isEmpty)
    #expect(result.diagnostics.count == 14)
    #expect(result.diagnostics.allSatisfy { $0.code == "adal.item-unreadable" && $0.message.contains("not a URL") })
  }

  /// A blob recognised as ADAL.NET's by its header (schema 3 and a first key holding `:::`, or one the file ends
  /// inside of) whose header is damaged names the format, the field, its offset and the bad count or length. A
  /// count of 0x7fffffff or -1, or a file cut at 100 bytes, was "not a recognised ADAL input: the file is binary
  /// data".
  @Test func aDamagedHeaderNamesTheFieldItsOffsetAndTheBadValue() throws {
    let real = try Data(contentsOf: Self.realBlob)
    func failure(_ data: Data) throws -> ADALCacheError {
      try #require(throws: ADALCacheError.self) { try ADALCacheReader().read(data, file: "TokenCache.dat") }
    }
    for count: Int32 in [.max, -1, 60_000] {
      var data = real
      withUnsafeBytes(of: count.littleEndian) { data.replaceSubrange(4..<8, with: $0) }
      let error = try failure(data)
      #expect(
        error.message
          == "ADAL.NET v3 blob: the entry count \(count) is out of range: the \(real.count - 8) bytes after it hold "
          + "at most \((real.count - 8) / 2) entries")
      #expect(error.location == SourceLocation(file: "TokenCache.dat", byteOffset: 4))
    }
    // The first key, 3082 bytes long, cut at 100 (raw, and as base64 text).
    for data in [real.prefix(100), Data(real.prefix(100).base64EncodedString().utf8)] {
      let cut = try failure(data)
      #expect(
        cut.message
          == "ADAL.NET v3 blob: truncated: the key of entry 0 is 3082 bytes long from offset 10, past the end of "
          + "the 100 bytes")
      #expect(cut.location == SourceLocation(file: "TokenCache.dat", byteOffset: 8))
    }
    // Cut inside the count: too little to be recognised, and said as before.
    #expect(try failure(real.prefix(6)).message.hasPrefix("not a recognised ADAL input"))
    // Cut later: the entry and the field it was in.
    let later = try failure(real.prefix(3000))
    #expect(later.message.hasPrefix("ADAL.NET v3 blob: truncated: the key of entry 0 is 3082 bytes long"))
    var sample = try Self.sample()
    sample.removeLast(5)
    let value = try failure(sample)
    #expect(value.message.hasPrefix("ADAL.NET v3 blob: truncated: the value of entry 1 is "), "\(value.message)")
  }

  /// An entry's value that is no valid JSON (a lone surrogate escape in a token) makes that entry unreadable,
  /// named with the parser's reason and its offset in the value, never quoting it; the other entries are read.
  @Test func anEntryWhoseValueHasALoneSurrogateIsUnreadable() throws {
    let good = try Self.sample()
    var bytes = [UInt8](good)
    let token = Array("dotnet-rt-frank".utf8)
    let at = try #require((0...(bytes.count - token.count)).first { Array(bytes[$0..<$0 + token.count]) == token })
    // "dotnet-rt-frank" becomes "dotnet\ud800frank": as long, the lengths stay right.
    bytes.replaceSubrange(at + 6..<at + 15, with: Array("\\ud800frk".utf8))
    let result = try ADALCacheReader().read(Data(bytes), file: "TokenCache.dat")
    #expect(result.items.isEmpty)
    let diagnostic = try #require(result.diagnostics.first { $0.code == "adal.item-unreadable" })
    #expect(
      diagnostic.message.contains("the value is not valid JSON: unpaired UTF-16 surrogate in a \\u escape at offset "))
    #expect(!diagnostic.message.contains("frank") && !diagnostic.message.contains("frk"))
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
