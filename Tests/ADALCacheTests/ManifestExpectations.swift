import ADALCache
import Adal2MSALSupport
import Foundation
import Testing
import _Adal2MSALTestSupport

/// The expectations written by scripts/fixtures/make_adal_fixtures.py next to the fixtures it generated.
enum Manifest {
  static func load() throws -> [String: Any] {
    let data = try Fixtures.data("adal/manifest.json")
    return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
  }

  static func section(_ name: String) throws -> [String: [String: Any]] {
    try #require(try load()[name] as? [String: [String: Any]])
  }

  static func archive(_ fixture: String) throws -> Data { try Fixtures.data("adal/\(fixture)") }

  static func read(_ fixture: String) throws -> ADALReadResult {
    try ADALCacheReader().read(try Fixtures.data("adal/\(fixture)"), file: fixture)
  }
}

/// Asserts every field the manifest lists for one item. Secrets are compared by fingerprint so that a
/// failure message never prints a token.
func expectItem(_ item: ADALTokenItem, matches expected: [String: Any], _ context: String) {
  func string(_ key: String) -> String? { expected[key] as? String }
  func date(_ key: String) -> Double? { (expected[key] as? NSNumber)?.doubleValue }
  func secret(_ value: ADALSecret?, _ key: String) {
    #expect(value?.fingerprint == string(key).map { SecretFingerprint.of($0) }, "\(context): \(key)")
  }
  func sameDate(_ actual: Date?, _ key: String) {
    if let wanted = date(key) {
      #expect(abs((actual?.timeIntervalSince1970 ?? -1) - wanted) < 0.001, "\(context): \(key)")
    } else {
      #expect(actual == nil, "\(context): \(key)")
    }
  }
  #expect(item.kind.description == string("kind"), "\(context): kind")
  #expect(item.source.era.rawValue == string("era"), "\(context): era")
  #expect(item.source.archiveClassName == string("archiveClass"), "\(context): class")
  #expect(item.authority == string("authority"), "\(context): authority")
  #expect(item.environment == string("environment"), "\(context): environment")
  #expect(item.tenant == string("tenant"), "\(context): tenant")
  #expect(item.resource == string("resource"), "\(context): resource")
  #expect(item.clientID == string("clientId"), "\(context): clientId")
  #expect(item.familyID == string("familyId"), "\(context): familyId")
  secret(item.accessToken, "accessToken")
  secret(item.refreshToken, "refreshToken")
  secret(item.idToken, "idToken")
  #expect(item.accessTokenType == string("accessTokenType"), "\(context): accessTokenType")
  sameDate(item.expiresOn, "expiresOn")
  sameDate(item.cachedAt, "cachedAt")
  sameDate(item.extendedExpiresOn, "extExpiresOn")
  #expect(item.speInfo == string("speInfo"), "\(context): speInfo")
  #expect(item.homeAccountID == string("homeAccountId"), "\(context): homeAccountId")
  #expect(item.enrollmentID == string("enrollmentId"), "\(context): enrollmentId")
  #expect(item.applicationIdentifier == string("applicationIdentifier"), "\(context): applicationIdentifier")
  #expect(item.userID == string("userId"), "\(context): userId")
  #expect(item.normalizedUserID == string("userId")?.lowercased(), "\(context): normalizedUserId")
  #expect(item.isUserIDDisplayable == (expected["isDisplayable"] as? Bool), "\(context): isDisplayable")
  #expect(item.idTokenClaims?.uniqueID == string("uniqueId"), "\(context): uniqueId")
  #expect(item.idTokenClaims?.tid == string("tid"), "\(context): tid")
  #expect((item.idTokenClaims?.isGuest ?? false) == (expected["isGuest"] as? Bool), "\(context): isGuest")
  #expect(item.idTokenClaims?.homeTenantEvidence?.homeTenantID == string("homeTenantId"), "\(context): home tenant")
  #expect(item.idTokenClaims?.isJWT == expected["isJWT"] as? Bool, "\(context): isJWT")
  #expect(
    item.additionalServer.map(\.key) == (expected["additionalServerKeys"] as? [String] ?? []),
    "\(context): additionalServer")
  #expect((item.sessionKey != nil) == (expected["hasSessionKey"] as? Bool ?? false), "\(context): sessionKey")
  #expect(item.source.itemIndex == (expected["itemIndex"] as? Int), "\(context): itemIndex")
  if expected.keys.contains("svce") {
    #expect(item.source.service == string("svce"), "\(context): svce")
    #expect(item.source.account == string("acct"), "\(context): acct")
    #expect(item.source.accessGroup == string("agrp"), "\(context): agrp")
    #expect(item.keychainUserID == string("keychainUser"), "\(context): keychain user")
    sameDate(item.source.created, "cdat")
    sameDate(item.source.modified, "cdat")
  }
  if expected.keys.contains("blobUserKey") {
    #expect(item.source.blobUserKey == string("blobUserKey"), "\(context): blob user key")
    #expect(item.keychainUserID == string("keychainUser"), "\(context): keychain user")
  }
  if item.kind == .tombstone {
    #expect(item.tombstoneInfo?.contains { $0.key == "bundleId" } == true, "\(context): tombstone info")
  }
}
