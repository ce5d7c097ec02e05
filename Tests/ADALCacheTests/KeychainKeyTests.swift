import ADALCache
import Foundation
import Testing
import _Adal2MSALTestSupport

/// Test vectors published in IdentityCore `MSIDLegacyCacheKeyTests.m` (spec §1.2), both directions.
@Suite("Keychain attribute codec")
struct KeychainKeyTests {
  static let commonService =
    "MSOpenTech.ADAL.1|aHR0cHM6Ly9sb2dpbi5taWNyb3NvZnRvbmxpbmUuY29tL2NvbW1vbg|cmVzb3VyY2U|Y2xpZW50"

  @Test(arguments: [
    ("https://login.microsoftonline.com/common", "client", "resource"),
    ("https://loGin.microsoftonline.com/common", "clIENt", "reSOURce"),
    ("  https://login.microsoftonline.com/common\n", " client ", "resource "),
  ])
  func serviceEncodesLowercasedAndTrimmed(_ authority: String, _ client: String, _ resource: String) {
    let key = ADALKeychainService(authority: authority, resource: resource, clientID: client)
    #expect(key.encoded == Self.commonService)
  }

  @Test func serviceDecodes() throws {
    let key = try ADALKeychainService.decode(Self.commonService)
    #expect(
      key
        == ADALKeychainService(
          authority: "https://login.microsoftonline.com/common", resource: "resource", clientID: "client"))
  }

  @Test func nilResourceUsesTheNilGUID() throws {
    let service =
      "MSOpenTech.ADAL.1|aHR0cHM6Ly9sb2dpbi5taWNyb3NvZnRvbmxpbmUuY29tL2NvbW1vbg|CC3513A0-0E69-4B4D-97FC-DFB6C91EE132|Y2xpZW50"
    for resource in [nil, "", "  "] as [String?] {
      #expect(
        ADALKeychainService(
          authority: "https://login.microsoftonline.com/common", resource: resource, clientID: "client"
        )
        .encoded == service)
    }
    let decoded = try ADALKeychainService.decode(service)
    #expect(decoded.resource == nil)
    #expect(decoded.clientID == "client")
  }

  @Test func accountVectors() {
    for user in ["test_upn@test_devex.com", "TEst_upn@test_DEVEX.com", " test_upn@test_devex.com\n"] {
      #expect(ADALKeychainAccount.encode(userID: user) == "dGVzdF91cG5AdGVzdF9kZXZleC5jb20")
    }
    #expect(ADALKeychainAccount.decode("dGVzdF91cG5AdGVzdF9kZXZleC5jb20") == .encoded("test_upn@test_devex.com"))
    #expect(ADALKeychainAccount.encode(userID: nil) == "")
    #expect(ADALKeychainAccount.encode(userID: "  ") == "")
  }

  @Test func noUserAndRawAccounts() {
    #expect(ADALKeychainAccount.decode("") == .noUser)
    #expect(ADALKeychainAccount.decode("CC3513A0-0E69-4B4D-97FC-DFB6C91EE132") == .noUser)
    // ADAL 2.1 betas and macOS wrote the raw user id.
    #expect(ADALKeychainAccount.decode("myfakeuser@contoso.com") == .raw("myfakeuser@contoso.com"))
    #expect(ADALKeychainAccount.decode("myfakeuser@contoso.com").userID == "myfakeuser@contoso.com")
  }

  @Test func familyClientID() throws {
    let key = ADALKeychainService(
      authority: "https://login.microsoftonline.com/common", resource: nil, clientID: "foci-1")
    #expect(key.encoded.hasSuffix("|Zm9jaS0x"))
    #expect(try ADALKeychainService.decode(key.encoded).clientID == "foci-1")
  }

  @Test func brokerPrefixAndAppKey() throws {
    let key = ADALKeychainService(
      authority: "https://login.microsoftonline.com/common", resource: "resource", clientID: "client",
      applicationIdentifier: "com.contoso.app", appKey: "app-key-hash")
    #expect(key.encoded.hasPrefix("MSOpenTech.ADAL.1-Y29tLmNvbnRvc28uYXBw|"))
    #expect(key.encoded.hasSuffix("|Y2xpZW50|app-key-hash"))
    #expect(try ADALKeychainService.decode(key.encoded) == key)
  }

  @Test func malformedServices() {
    #expect(throws: ADALKeychainKeyError.wrongComponentCount(3)) {
      try ADALKeychainService.decode("MSOpenTech.ADAL.1|a|b")
    }
    #expect(throws: ADALKeychainKeyError.notADALService) { try ADALKeychainService.decode("Other|YQ|YQ|YQ") }
    #expect(throws: ADALKeychainKeyError.undecodable(component: "authority")) {
      try ADALKeychainService.decode("MSOpenTech.ADAL.1|@@|CC3513A0-0E69-4B4D-97FC-DFB6C91EE132|Y2xpZW50")
    }
    #expect(throws: ADALKeychainKeyError.undecodable(component: "clientId")) {
      try ADALKeychainService.decode("MSOpenTech.ADAL.1|YQ|CC3513A0-0E69-4B4D-97FC-DFB6C91EE132|Y")
    }
  }

  /// `isNilKey` answers what `caseInsensitiveCompare` (its oracle) answers: the NIL-GUID in seeded mixes of
  /// case, with bytes replaced by others (ASCII, controls, spaces, non-ASCII look-alikes), shorter and longer.
  @Test func nilKeyInAnyCaseAsFoundationComparesIt() {
    let key = Array(ADALKeychainService.nilKey)
    let others: [Character] = ["a", "C", "0", "-", "_", " ", "\u{0}", "\n", "\u{212A}", "é", "\u{FF23}", "\u{301}"]
    var random = SeededGenerator(seed: 22)
    var candidates = ["", String(key.dropLast()), String(key) + "0", " " + String(key)]
    for _ in 0..<2_000 {
      var characters = key.map { Bool.random(using: &random) ? Character($0.lowercased()) : $0 }
      if Int.random(in: 0..<3, using: &random) == 0 {
        characters[Int.random(in: 0..<characters.count, using: &random)] = others.randomElement(using: &random)!
      }
      candidates.append(String(characters))
    }
    var matches = 0
    for candidate in candidates {
      let expected = candidate.caseInsensitiveCompare(ADALKeychainService.nilKey) == .orderedSame
      matches += expected ? 1 : 0
      #expect(ADALKeychainService.isNilKey(candidate) == expected, "\(candidate.debugDescription)")
    }
    #expect(matches > 1_000)  // both answers are reached
  }
}
