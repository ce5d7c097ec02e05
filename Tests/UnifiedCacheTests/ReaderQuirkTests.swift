import Foundation
import Testing
import UnifiedCache

/// Each variant real caches contain, on its own, hand-made.
@Suite struct ReaderQuirkTests {
  /// The canonical key of the hand-made token, so that only the quirk under test is reported.
  static let key = "uid.utid-login.windows.net-accesstoken-app-tenant-s1"

  /// With an `expires_on` unless `extra` has its own: without one, the reader notes the token (see
  /// `anAccessTokenWithoutAReadableExpiryIsNoted`).
  static func accessToken(_ extra: String) -> String {
    let expiry = extra.contains(#""expires_on""#) ? "" : #", "expires_on": "1700003600""#
    return """
      {"AccessToken": {"\(key)": {"home_account_id": "uid.utid", "environment": "login.windows.net", "client_id": "app",
        "realm": "tenant", "target": "s1", "secret": "at", "credential_type": "AccessToken"\(expiry)\(extra)}}}
      """
  }

  func onlyToken(_ json: String) throws -> (UnifiedAccessToken, UnifiedCacheReadResult) {
    let result = try TestCache.read(json)
    return (try #require(result.contents.accessTokens.entities.first), result)
  }

  @Test func utf8ByteOrderMarkIsSkipped() throws {
    let data = Data([0xEF, 0xBB, 0xBF]) + Data(Self.accessToken("").utf8)
    let result = try UnifiedCacheJSONReader().read(data, file: nil)
    #expect(result.contents.accessTokens.count == 1)
  }

  @Test func anOutOfRangeTimestampIsNamedInWords() throws {
    let (token, result) = try onlyToken(Self.accessToken(#", "expires_on": "1e300", "cached_at": 1e300"#))
    #expect(token.expiresOn == nil)
    let messages = result.diagnostics.filter { $0.code == "unified.field-type" }.map(\.message)
    #expect(messages.count == 2)
    #expect(messages.allSatisfy { $0.hasPrefix("timestamp 1e300 is out of range") }, "\(messages)")
    // Text that is no number is described by its type, never quoted.
    let (_, other) = try onlyToken(Self.accessToken(#", "expires_on": "soon-secret""#))
    let described = other.diagnostics.filter { $0.code == "unified.field-type" }.map(\.message)
    #expect(described == ["expected epoch seconds (string or number), found string; kept as an unknown field"])
  }

  @Test func trailingCommasInObjectsAndArrays() throws {
    let (token, _) = try onlyToken(Self.accessToken(#", "x": [1, 2,],"#))
    #expect(token.additionalFields["x"] == .array([.number("1"), .number("2")]))
  }

  @Test(arguments: [
    (#""1700000000""#, 1_700_000_000), (#""1700000000.75""#, 1_700_000_000), ("1700000000", 1_700_000_000),
    ("1700000000.9", 1_700_000_000), (#""-62135596800""#, -62_135_596_800), ("1.7e9", 1_700_000_000),
  ])
  func timestampForms(text: String, seconds: Int) throws {
    let (token, result) = try onlyToken(Self.accessToken(#", "expires_on": \#(text)"#))
    #expect(token.expiresOn == TestCache.date(seconds))
    #expect(result.diagnostics.isEmpty)
  }

  @Test(arguments: ["1e300", #""12abc""#, "true", #""""#, #""NaN""#, #""0x10""#])
  func invalidTimestampFormsAreKeptUnchanged(text: String) throws {
    let (token, result) = try onlyToken(Self.accessToken(#", "refresh_on": \#(text)"#))
    #expect(token.refreshOn == nil)
    #expect(token.additionalFields["refresh_on"] != nil)
    #expect(TestCache.codes(result) == ["unified.field-type"])
  }

  @Test func unparsableTimestampIsKeptAsAnUnknownField() throws {
    let (token, result) = try onlyToken(Self.accessToken(#", "expires_on": "soon""#))
    #expect(token.expiresOn == nil)
    #expect(token.additionalFields["expires_on"] == .string("soon"))
    #expect(result.diagnostics.first?.location?.keyPath == "AccessToken.\(Self.key).expires_on")
    #expect(result.diagnostics.first?.code == "unified.field-type")
    // Written back as it was.
    let written = String(decoding: UnifiedCacheJSONWriter.export(result.contents).data, as: UTF8.self)
    #expect(written.contains(#""expires_on": "soon""#))
  }

  /// MSAL Python, Java and Node cannot load an access token without `expires_on`, and MSAL ObjC would serve it as
  /// never expiring (their exports leave it out):
  /// noted on reading. One kept as written because it is beyond the model's range is still read by them.
  @Test func anAccessTokenWithoutAReadableExpiryIsNoted() throws {
    let json = Self.accessToken(#", "expires_on": null"#)
    let (token, result) = try onlyToken(json)
    #expect(token.expiresOn == nil && !token.hasReadableExpiry)
    #expect(TestCache.codes(result) == ["unified.access-token-without-expiry"])
    #expect(result.diagnostics.first?.severity == .note)
    #expect(result.diagnostics.first?.location?.keyPath == "AccessToken.\(Self.key)")
    let (_, unparsable) = try onlyToken(Self.accessToken(#", "expires_on": "soon""#))
    #expect(TestCache.codes(unparsable) == ["unified.field-type", "unified.access-token-without-expiry"])
    let (far, beyond) = try onlyToken(Self.accessToken(#", "expires_on": "9999999999999""#))
    #expect(far.expiresOn == nil && far.hasReadableExpiry)
    #expect(TestCache.codes(beyond) == ["unified.field-type"])
  }

  @Test func targetAsAnArray() throws {
    let json = Self.accessToken("").replacingOccurrences(of: #""target": "s1""#, with: #""target": ["B", "a"]"#)
    let (token, _) = try onlyToken(json)
    #expect(token.target == "B a")
    #expect(token.normalizedScopes == ["a", "b"])
  }

  @Test func extExpiresOnIsTheExtendedExpiry() throws {
    let (token, _) = try onlyToken(Self.accessToken(#", "ext_expires_on": "500""#))
    #expect(token.extendedExpiresOn == TestCache.date(500))
    #expect(token.additionalFields.isEmpty)
  }

  @Test func conflictingAliasesKeepTheLoserAsAnUnknownField() throws {
    let (token, result) = try onlyToken(Self.accessToken(#", "extended_expires_on": "500", "ext_expires_on": "600""#))
    #expect(token.extendedExpiresOn == TestCache.date(500))
    #expect(token.additionalFields["ext_expires_on"] == .string("600"))
    #expect(TestCache.codes(result) == ["unified.field-conflict"])
  }

  @Test(arguments: ["kid", "key_id", "keyid", "keyId"])
  func keyIDNames(name: String) throws {
    let (token, _) = try onlyToken(Self.accessToken(#", "\#(name)": "K1", "token_type": "pop""#))
    #expect(token.keyID == "K1")
    #expect(token.additionalFields.isEmpty)
    #expect(token.canonicalKey.hasSuffix("-pop"))
  }

  @Test func camelCaseTokenTypeUserAssertionAndClaims() throws {
    let (token, _) = try onlyToken(
      Self.accessToken(#", "tokenType": "Bearer", "userAssertionHash": "h", "requestedClaims": "{\"a\":1}""#))
    #expect(token.tokenType == "Bearer")
    #expect(token.userAssertionHash == "h")
    #expect(token.requestedClaims == #"{"a":1}"#)
    #expect(token.isBearer)
    #expect(token.additionalFields.isEmpty)
  }

  /// Explicit nulls are absent values for the model, and stay in the entry so that it is written back as read.
  @Test func explicitNullsAreAbsentValuesKeptAsWritten() throws {
    let (token, result) = try onlyToken(
      Self.accessToken(#", "refresh_on": null, "kid": null, "user_assertion_hash": null"#))
    #expect(token.refreshOn == nil && token.keyID == nil && token.userAssertionHash == nil)
    #expect(token.additionalFields.keys == ["refresh_on", "kid", "user_assertion_hash"])
    #expect(token.additionalFields.allSatisfy { $0.value == .null })
    #expect(result.diagnostics.isEmpty)
  }

  /// As in msal4j's serialized_cache.json, `"an-entry": {"foo": "bar"}`: named with its key path, and kept
  /// verbatim (MSAL Python, Java and Go keep such entries), so the writer gives it back.
  /// A credential in a section the model does not know (MSAL Go's partitions nest them one level deeper) is named
  /// by the reader itself, so that every caller (a pipeline of the library, `inspect`, `migrate`) counts it; an
  /// app's own data there is no credential and is not named.
  @Test func aCredentialInAnUnknownSectionIsNamedByTheReader() throws {
    let result = try TestCache.read(
      #"{"RefreshToken": {}, "GoPartition": {"p1": {"k1": {"credential_type": "RefreshToken", "secret": "s"}}, "#
        + #""k2": {"secret": "s"}}, "AppData": {"theme": {"colour": "blue"}}}"#)
    let named = result.diagnostics.filter { $0.code == "unified.unmodelled-entry" }
    #expect(named.map { $0.location?.keyPath } == ["GoPartition.p1.k1", "GoPartition.k2"])
    // Each section is kept, and named by a note that loses nothing.
    let kept = result.diagnostics.filter { $0.code == UnifiedCacheJSONReader.sectionKeptCode }
    #expect(kept.map { $0.location?.keyPath } == ["GoPartition", "AppData"])
    #expect(kept.allSatisfy { $0.severity == .note })
    #expect(result.diagnostics.count == named.count + kept.count)
  }

  @Test func junkEntryIsReportedWithItsKeyPathAndKeptVerbatim() throws {
    let result = try TestCache.read(#"{"AccessToken": {"an-entry": {"foo": "bar"}}, "Account": {"x": 5}}"#)
    #expect(result.contents.accessTokens.isEmpty && result.contents.accounts.isEmpty)
    #expect(result.diagnostics.map(\.code) == ["unified.unmodelled-entry", "unified.unmodelled-entry"])
    #expect(result.diagnostics.map { $0.location?.keyPath } == ["AccessToken.an-entry", "Account.x"])
    #expect(UnmodelledEntries.count(in: result.contents.unknownSections) == 2)
    let written = try JSONParser().parse(UnifiedCacheJSONWriter.export(result.contents).data).objectValue
    #expect(written?["AccessToken"]?.objectValue?["an-entry"] == .object(["foo": .string("bar")]))
    #expect(written?["Account"]?.objectValue?["x"] == .number("5"))
  }

  /// An entry with an empty secret (which MSAL Python keeps) is not modelled, and not lost.
  @Test func emptySecretIsKeptVerbatim() throws {
    let entry =
      #"{"home_account_id": "u.t", "environment": "e", "credential_type": "RefreshToken", "client_id": "c", "secret": ""}"#
    let result = try TestCache.read(#"{"RefreshToken": {"u.t-e-refreshtoken-c--": "# + entry + "}}")
    #expect(result.contents.refreshTokens.isEmpty)
    #expect(result.diagnostics.map(\.code) == ["unified.unmodelled-entry"])
    #expect(result.diagnostics.first?.message.contains("missing secret") == true)
    let written = try JSONParser().parse(UnifiedCacheJSONWriter.export(result.contents).data).objectValue
    #expect(
      written?["RefreshToken"]?.objectValue?["u.t-e-refreshtoken-c--"] == (try JSONParser().parse(Data(entry.utf8))))
  }

  @Test func wrongTypeForASecretNamesTheKeyPathButNotTheValue() throws {
    let result = try TestCache.read(
      """
      {"RefreshToken": {"k": {"home_account_id": "u", "environment": "e", "client_id": "c", "secret": 123456789}}}
      """)
    let typeProblem = try #require(result.diagnostics.first { $0.code == "unified.field-type" })
    #expect(typeProblem.location?.keyPath == "RefreshToken.k.secret")
    #expect(typeProblem.message.contains("expected string"))
    #expect(!result.diagnostics.map(\.description).joined().contains("123456789"))
    #expect(result.contents.refreshTokens.isEmpty)  // no usable secret: skipped
  }

  @Test func unknownFieldsKeepOrderAndNumberText() throws {
    let (token, result) = try onlyToken(
      Self.accessToken(#", "zeta": 1548804634.0556107, "alpha": {"b": 1, "a": [true, null]}"#))
    #expect(token.additionalFields.keys == ["zeta", "alpha"])
    #expect(token.additionalFields["zeta"] == .number("1548804634.0556107"))
    let written = String(decoding: UnifiedCacheJSONWriter.export(result.contents).data, as: UTF8.self)
    #expect(written.contains(#""zeta": 1548804634.0556107"#))
    #expect(try TestCache.roundTrip(result.contents) == result.contents)
  }

  @Test func sectionNameInOtherCaseIsKeptUnknownAndReported() throws {
    let result = try TestCache.read(#"{"Account": {}, "accesstoken": {"k": {}}}"#)
    #expect(result.contents.unknownSections.keys == ["accesstoken"])
    #expect(TestCache.codes(result) == ["unified.section-case", UnifiedCacheJSONReader.sectionKeptCode])
  }

  @Test func emptyObjectIsAnEmptyCache() throws {
    let result = try TestCache.read("{}")
    #expect(result.contents.isEmpty)
  }

  @Test func nullSectionIsEmpty() throws {
    let result = try TestCache.read(#"{"AccessToken": null, "Account": {}}"#)
    #expect(result.contents.isEmpty && result.diagnostics.isEmpty)
  }
}
