import Adal2MSALSupport
import _Adal2MSALTestSupport
import Foundation
import Testing

@Suite struct Base64URLTests {
  @Test func encodesWithoutPaddingInTheURLAlphabet() {
    // Published vector (IdentityCore MSIDLegacyCacheKeyTests): the iOS account for test_upn@test_devex.com.
    #expect(Base64URL.encode("test_upn@test_devex.com") == "dGVzdF91cG5AdGVzdF9kZXZleC5jb20")
    #expect(Base64URL.encode("foci-1") == "Zm9jaS0x")
    #expect(Base64URL.encode(Data([0xfb, 0xff])) == "-_8")
  }

  @Test func decodesWithOrWithoutPadding() {
    #expect(Base64URL.decodeString("Y2xpZW50") == "client")
    #expect(Base64URL.decodeString("cmVzb3VyY2U") == "resource")
    #expect(Base64URL.decodeString("cmVzb3VyY2U=") == "resource")
    #expect(Base64URL.decode("-_8") == Data([0xfb, 0xff]))
  }

  @Test func rejectsImpossibleLengthsAndForeignCharacters() {
    #expect(Base64URL.decode("abcde") == nil)
    #expect(Base64URL.decode("ab$d") == nil)
  }
}

@Suite struct SecretFingerprintTests {
  @Test func isAShortPrefixOfTheSHA256() {
    // sha256("abc") = ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad (FIPS 180-2 vector)
    #expect(SecretFingerprint.of("abc") == "sha256:ba7816bf8f01")
    #expect(SecretFingerprint.sha256Hex(Data("abc".utf8)).hasPrefix("ba7816bf8f01cfea"))
  }
}

@Suite struct SourceLocationTests {
  @Test func describesEveryPart() {
    let location = SourceLocation(file: "dump.plist", itemIndex: 3, byteOffset: 31, keyPath: "$objects[4]")
    #expect(location.description == "dump.plist, item 3, offset 31, at $objects[4]")
    #expect(SourceLocation().description == "<input>")
  }

  @Test func diagnosticsPrintTheirPlaceSeverityAndCode() {
    let diagnostic = Diagnostic(.warning, code: "adal.tombstone", "tombstone skipped", at: SourceLocation(file: "a"))
    #expect(diagnostic.description == "a: warning: tombstone skipped [adal.tombstone]")
  }
}
