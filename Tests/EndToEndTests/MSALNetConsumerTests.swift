import Adal2MSAL
import Foundation
import Testing
import _Adal2MSALTestSupport

/// The real MSAL.NET (4.83.3 on Mono, scripts/oracle/msalnet_oracle.cs, a faked identity provider) as the consumer
/// of `export --for dotnet`: what it builds itself from an ADAL.NET v3 blob, compared entity by entity with our
/// export of the same blob, and its account lifecycle on our exports of an ADAL.NET blob, an MSAL.NET v2
/// dictionary cache and the multi-user ADAL dump (family tokens, China cloud).
@Suite(.serialized) struct MSALNetConsumerTests {
  static let client = "d3590ed6-52b3-4102-aeff-aad2292ab01c"
  static let tenant = "44444444-4444-4444-8444-444444444444"
  /// MSAL.NET writes public-cloud entries under the preferred cache host of Azure AD's instance discovery.
  static let preferredCache = "login.windows.net"

  struct User {
    var name: String
    var resource: String
    /// Seconds from now until the ADAL access token expires (negative: already expired).
    var accessTokenLifetime: TimeInterval
    var username: String { "\(name)@contoso.example" }
    var homeAccountID: String { "uid-\(name).\(MSALNetConsumerTests.tenant)" }
    var refreshToken: String { "dotnet-rt-\(name)" }
    var scope: String { resource + "/.default" }
  }

  /// frank's graph token is still valid; grace's management token expired an hour ago.
  static let users = [
    User(name: "frank", resource: "https://graph.windows.net/", accessTokenLifetime: 1800),
    User(name: "grace", resource: "https://management.core.windows.net/", accessTokenLifetime: -3600),
  ]

  /// An ADAL.NET v3 blob as ADAL.NET writes it for these users: one MRRT entry each, with the client_info and id
  /// token Azure AD returns (its `uid` is the user's object id, as for every home-tenant user).
  static func blob(now: Date) throws -> Data {
    try ADALDotNetBlobTests.blob(
      users.map { user in
        let idToken =
          try ADALDotNetBlobTests.b64url(["alg": "none", "typ": "JWT"]) + "."
          + ADALDotNetBlobTests.b64url([
            "oid": "uid-\(user.name)", "tid": tenant, "upn": user.username, "ver": "1.0",
            "iss": "https://sts.windows.net/\(tenant)/",
          ]) + "."
        let expires = Int64((now.timeIntervalSince1970 + user.accessTokenLifetime) * 1000)
        let value: [String: Any] = [
          "RawClientInfo": try ADALDotNetBlobTests.b64url(["uid": "uid-\(user.name)", "utid": tenant]),
          "RefreshToken": user.refreshToken, "ResourceInResponse": user.resource,
          "Result": [
            "AccessToken": "dotnet-at-\(user.name)", "AccessTokenType": "Bearer", "IdToken": idToken,
            "ExpiresOn": ["DateTime": "/Date(\(expires))/", "OffsetMinutes": 0] as [String: Any], "TenantId": tenant,
            "UserInfo": ["DisplayableId": user.username, "UniqueId": "uid-\(user.name)"],
          ] as [String: Any],
        ]
        return (key: "https://login.microsoftonline.com/\(tenant)/:::\(user.resource):::\(client):::0", value: value)
      })
  }

  /// The oracle's ARGS: each user with the scope our resource-to-scope rule gives and the ADAL refresh token the
  /// refresh must post.
  static func arguments(in directory: URL) throws -> URL {
    let accounts: [[String: Any]] = users.map { user in
      [
        "label": user.name, "username": user.username, "homeAccountId": user.homeAccountID,
        "environment": "login.microsoftonline.com", "clientId": client,
        "authority": "https://login.microsoftonline.com/\(tenant)", "scopes": [user.scope],
        "expectCachedAccessToken": user.accessTokenLifetime > 0,
        "expectedRefreshTokenFingerprint": SecretFingerprint.of(user.refreshToken),
      ]
    }
    let url = directory.appendingPathComponent("args.json")
    try JSONSerialization.data(withJSONObject: ["accounts": accounts], options: [.sortedKeys]).write(to: url)
    return url
  }

  /// `migrate --adal BLOB` then `export --for dotnet`.
  static func export(_ input: [String], in directory: URL, now: Date) throws -> URL {
    let store = directory.appendingPathComponent("store.sqlite").path
    let migrate = try CLI.run(
      ["migrate"] + input + [
        "--out", store, "--now", ISO8601DateFormatter().string(from: now), "--report",
        directory.appendingPathComponent("report.txt").path,
      ])
    #expect(FileManager.default.fileExists(atPath: store), "migrate wrote no store: \(migrate.stderr)")
    let exported = directory.appendingPathComponent("dotnet.json")
    let export = try CLI.run(["export", store, "--for", "dotnet", "--output", exported.path])
    #expect(export.exitCode == 0, "\(export.stderr)")
    return exported
  }

  static func text(_ entry: JSONValue?, _ field: String) -> String? { entry?.objectValue?[field]?.stringValue }

  /// MSAL.NET, given the blob, lists both users and redeems exactly their ADAL refresh tokens; what it then holds
  /// is, entity for entity, what our export holds: the same keys, under the same cache host (`login.windows.net`,
  /// not the ADAL authority's `login.microsoftonline.com`), with the same fields but for `client_info`, which
  /// MSAL.NET writes on every entry and we on none, and what only a token response gives (secrets, times, the
  /// extended expiry a blob lacks). The access tokens differ: MSAL.NET never imports ADAL's, it redeems the
  /// refresh token on the first silent call, while we keep the unexpired one (frank's) and drop the expired one.
  @Test func whatMSALNetBuildsFromTheBlobIsOurExport() throws {
    let scratch = try Fixtures.temporaryDirectory("msalnet-blob")
    defer { try? FileManager.default.removeItem(at: scratch) }
    let now = Date()
    let input = scratch.appendingPathComponent("TokenCache.dat")
    try Self.blob(now: now).write(to: input)
    let built = scratch.appendingPathComponent("msalnet.json")
    let verdict = try MSALNetOracle.buildFromADALBlob(
      input, arguments: try Self.arguments(in: scratch), output: built)
    #expect(verdict.exitCode == 0 && verdict.passed == 4, "\(verdict.output)")

    let theirs = try ExportComparison.entries(Data(contentsOf: built))
    let ours = try ExportComparison.entries(
      Data(contentsOf: try Self.export(["--adal", input.path], in: scratch, now: now)))
    var differingFields: [String: Set<String>] = [:]
    var keysOnlyTheirs: [String] = []
    for (section, entries) in theirs {
      for (key, entry) in entries {
        #expect(Self.text(entry, "environment") == Self.preferredCache, "\(section) \(key)")
        guard let mine = ours[section]?[key]?.objectValue, let their = entry.objectValue else {
          keysOnlyTheirs.append("\(section) \(key)")
          continue
        }
        let compared = Set(mine.keys).union(their.keys).subtracting(["secret", "cached_at", "expires_on"])
        for field in compared where mine[field] != their[field] {
          differingFields[section, default: []].insert(field)
        }
      }
    }
    let theirKeys = theirs.values.reduce(0) { $0 + $1.count }
    let ourKeys = ours.values.reduce(0) { $0 + $1.count }
    // Only grace's fresh access token has no counterpart; ours has nothing MSAL.NET lacks.
    #expect(
      keysOnlyTheirs.count == 1 && keysOnlyTheirs[0].contains("-accesstoken-") && keysOnlyTheirs[0].contains("grace"))
    #expect(ourKeys == theirKeys - 1, "ours \(ours.mapValues(\.count)), MSAL.NET's \(theirs.mapValues(\.count))")
    #expect(
      differingFields == [
        "Account": ["client_info"], "IdToken": ["client_info"], "RefreshToken": ["client_info"],
        "AccessToken": ["client_info", "ext_expires_on", "extended_expires_on"],
      ], "\(differingFields)")
    // Our refresh tokens are the ADAL ones MSAL.NET redeemed.
    let ourSecrets = Set((ours["RefreshToken"] ?? [:]).values.compactMap { Self.text($0, "secret") })
    #expect(ourSecrets == Set(Self.users.map(\.refreshToken)))
  }

  /// Our export of the blob through MSAL.NET's lifecycle: both users found; frank's unexpired access token served
  /// from the cache with no request (`https://graph.windows.net//.default`); grace's expired one refreshed by
  /// itself with exactly her ADAL refresh token (`https://management.core.windows.net//.default`); a forced refresh
  /// posts exactly frank's, and each refresh's new refresh token replaces the one redeemed; sign-out leaves nothing
  /// of either.
  @Test func migratedBlobLivesInMSALNet() throws {
    let scratch = try Fixtures.temporaryDirectory("msalnet-lifecycle")
    defer { try? FileManager.default.removeItem(at: scratch) }
    let now = Date()
    let input = scratch.appendingPathComponent("TokenCache.dat")
    try Self.blob(now: now).write(to: input)
    let exported = try Self.export(["--adal", input.path], in: scratch, now: now)
    let verdict = try MSALNetOracle.lifecycle(cache: exported, arguments: try Self.arguments(in: scratch))
    let frank = verdict.checks["frank"] ?? [:]
    let grace = verdict.checks["grace"] ?? [:]
    for check in ["found", "refresh", "sign_out"] {
      #expect(frank[check]?.status == "pass" && grace[check]?.status == "pass", "\(check): \(verdict.output)")
    }
    #expect(frank["cached_at"]?.status == "pass", "\(verdict.output)")
    #expect(frank["refresh"]?.reason.hasPrefix("forced refresh") == true)
    #expect(grace["refresh"]?.reason.hasPrefix("expired AT refreshed") == true, "\(verdict.output)")
    #expect(verdict.statuses(of: "replaced") == ["pass", "pass"], "\(verdict.output)")
    #expect(verdict.statuses(of: "second_refresh") == ["pass", "pass"], "\(verdict.output)")
    #expect(verdict.exitCode == 0 && verdict.passed == 11 && verdict.failed == 0, "\(verdict.output)")
    #expect(!verdict.output.contains("dotnet-rt-") && !verdict.output.contains("dotnet-at-"))
  }

  /// MSAL.NET's own v2 dictionary cache (login.windows.net already), migrated and exported: its user is found,
  /// the 2019 access token is refreshed by itself with exactly the file's refresh token, which the new one replaces.
  @Test func dictionaryCacheLivesInMSALNet() throws {
    let scratch = try Fixtures.temporaryDirectory("msalnet-dictionary")
    defer { try? FileManager.default.removeItem(at: scratch) }
    let file = RealWorldCaches.url("msal-dotnet_cachecompat_dotnet_dictionary.bin")
    let exported = try Self.export(["--msal", file.path], in: scratch, now: Date())
    // The refresh token as the file holds it: `refresh_tokens` is a list of JSON texts.
    let dictionary = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [[String: Any]])
    let tokens = try #require(dictionary.first { $0["Key"] as? String == "refresh_tokens" }?["Value"] as? [String])
    let token = try #require(try JSONSerialization.jsonObject(with: Data(tokens[0].utf8)) as? [String: Any])
    let secret = try #require(token["secret"] as? String)
    let account: [String: Any] = [
      "label": "abhi", "username": "abhi@ddobalianoutlook.onmicrosoft.com",
      "homeAccountId": "13dd2c19-84cd-416a-ae7d-49573e425619.26039cce-489d-4002-8293-5b0c5134eacb",
      "environment": "login.windows.net", "clientId": "b945c513-3946-4ecd-b179-6499803a2167",
      "authority": "https://login.windows.net/26039cce-489d-4002-8293-5b0c5134eacb", "scopes": ["User.Read"],
      "expectCachedAccessToken": false, "expectedRefreshTokenFingerprint": SecretFingerprint.of(secret),
    ]
    let arguments = scratch.appendingPathComponent("args.json")
    try JSONSerialization.data(withJSONObject: ["accounts": [account]]).write(to: arguments)
    let verdict = try MSALNetOracle.lifecycle(cache: exported, arguments: arguments)
    #expect(verdict.exitCode == 0 && verdict.passed == 5 && verdict.failed == 0, "\(verdict.output)")
    #expect(verdict.checks["abhi"]?["refresh"]?.reason.hasPrefix("expired AT refreshed") == true)
    #expect(!verdict.output.contains(secret))
  }

  /// The multi-user ADAL dump: a second app of the family redeems each user's family refresh token (public and
  /// China cloud), and each refresh replaces the token it redeemed, the China cloud's under
  /// login.partner.microsoftonline.cn (the ADAL authority's host was login.chinacloudapi.cn).
  @Test func familyTokensWorkInMSALNet() throws {
    let scratch = try Fixtures.temporaryDirectory("msalnet-family")
    defer { try? FileManager.default.removeItem(at: scratch) }
    let exported = try Self.export(
      ["--adal", Fixtures.url("adal/dump-multiuser.xml.plist").path], in: scratch,
      now: ISO8601DateFormatter().date(from: "2026-11-21T00:00:00Z")!)
    let verdict = try MSALNetOracle.lifecycle(
      cache: exported, arguments: Fixtures.url("lifecycle/dump-multiuser.args.json"))
    for check in ["found", "refresh", "replaced", "sign_out", "family"] {
      #expect(verdict.statuses(of: check) == ["pass", "pass", "pass"], "\(check): \(verdict.output)")
    }
    #expect(
      verdict.checks.values.contains { $0["replaced"]?.reason.hasSuffix("login.partner.microsoftonline.cn") == true })
  }

  static let cacheHosts: Set<String> = ["login.windows.net", "login.partner.microsoftonline.cn"]

  /// The environments of every entry of a unified-cache JSON file.
  static func environments(_ file: URL) throws -> Set<String> {
    let sections = try ExportComparison.entries(Data(contentsOf: file))
    return Set(sections.values.flatMap { $0.values.compactMap { text($0, "environment") } })
  }

  /// A cache MSAL Python wrote (Fixtures/msal-json/msal-python-real_lifecycle.json: its entries under
  /// `login.microsoftonline.com` and `login.chinacloudapi.cn`), merged with an ADAL Python cache of one of its
  /// users or imported into a store as it is, then exported `--for dotnet`: every entry is under MSAL.NET's cache
  /// host, and through MSAL.NET's lifecycle each refresh replaces the token it redeemed and the next refresh
  /// posts the new one. (Kept under MSAL Python's host, the redeemed token stayed beside the new one and the next
  /// refresh of 4 of the 6 accounts posted it again.)
  @Test(arguments: [true, false]) func anMSALPythonCacheLivesInMSALNet(merged: Bool) throws {
    let scratch = try Fixtures.temporaryDirectory("msalnet-python-cache")
    defer { try? FileManager.default.removeItem(at: scratch) }
    let python = Fixtures.url("msal-json/msal-python-real_lifecycle.json").path
    let store = scratch.appendingPathComponent("store.sqlite").path
    let input =
      merged
      ? try CLI.run([
        "migrate", "--adal", Fixtures.url("adal-python/merge-msal-python-lifecycle/accessTokens.json").path,
        "--msal", python, "--adal-time-zone", "UTC", "--now", "1790000555", "--out", store,
        "--report", scratch.appendingPathComponent("report.txt").path,
      ]) : try CLI.run(["import", python, "--out", store])
    #expect(FileManager.default.fileExists(atPath: store), "\(input.stderr)")
    let exported = scratch.appendingPathComponent("dotnet.json")
    let export = try CLI.run(["export", store, "--for", "dotnet", "--output", exported.path])
    #expect(export.exitCode == 0, "\(export.stderr)")
    #expect(try Self.environments(exported) == Self.cacheHosts)
    let verdict = try MSALNetOracle.lifecycle(
      cache: exported, arguments: Fixtures.url("lifecycle/msal-python-real_lifecycle.args.json"))
    for check in ["found", "refresh", "replaced", "second_refresh", "sign_out"] {
      #expect(verdict.statuses(of: check) == Array(repeating: "pass", count: 6), "\(check): \(verdict.output)")
    }
    #expect(verdict.exitCode == 0 && verdict.failed == 0, "\(verdict.output)")
  }

  /// ADAL stored a family client's own refresh token and the family refresh token as one token
  /// (Fixtures/scenarios/frt-two-apps). MSAL.NET saves a family response as the family token alone, so the export
  /// `--for dotnet` writes the token once, under the family key, with a note: the app finds and redeems it with
  /// its own client id, the new token replaces it and the next refresh posts the new one, sign-out leaves none of
  /// the user's, and a peer of the family redeems it. (Written twice, the app entry kept the redeemed token.)
  @Test func anAppTokenThatIsTheFamilyTokenIsWrittenOnce() throws {
    let scratch = try Fixtures.temporaryDirectory("msalnet-frt-two-apps")
    defer { try? FileManager.default.removeItem(at: scratch) }
    let store = scratch.appendingPathComponent("store.sqlite").path
    _ = try CLI.run([
      "migrate", "--adal", Fixtures.url("scenarios/frt-two-apps/adal.xml.plist").path, "--out", store,
      "--now", "2025-06-01T12:00:00Z", "--report", scratch.appendingPathComponent("report.txt").path,
    ])
    let exported = scratch.appendingPathComponent("dotnet.json")
    let export = try CLI.run(["export", store, "--for", "dotnet", "--output", exported.path])
    #expect(export.exitCode == 0, "\(export.stderr)")
    #expect(export.stderr.contains("[export.same-token]") && !export.stderr.contains("warning"), "\(export.stderr)")
    let refreshTokens = try ExportComparison.entries(Data(contentsOf: exported))["RefreshToken"] ?? [:]
    let secrets = refreshTokens.values.compactMap { Self.text($0, "secret") }
    #expect(secrets.count == Set(secrets).count, "one token written twice: \(refreshTokens.keys.sorted())")
    let verdict = try MSALNetOracle.lifecycle(
      cache: exported, arguments: Fixtures.url("lifecycle/frt-two-apps.args.json"))
    for check in ["found", "refresh", "replaced", "second_refresh", "sign_out", "family"] {
      #expect(verdict.statuses(of: check) == ["pass"], "\(check): \(verdict.output)")
    }
  }
}
