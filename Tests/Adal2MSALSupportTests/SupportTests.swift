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

@Suite struct StringFastPathTests {
  /// `lowercasedSharingStorage()` must equal `lowercased()` (its oracle) for every string, whichever path it takes.
  @Test func lowercasesAsFoundationDoes() {
    let fixed = [
      "", "abc", "ABC", "uid.utid", "4B0DB8C2-9f26.contoso.COM", "user@contoso.com", "Ünïcode", "İstanbul", "STRASSE",
      "straße", "ΣΊΣΥΦΟΣ", "login.microsoftonline.com", "a\u{301}", "@[`{", "\u{7F}Z",
    ]
    for text in fixed { #expect(text.lowercasedSharingStorage() == text.lowercased(), "\(text)") }
    // Seeded mixes of the bytes either side of the ASCII capitals, digits and a few non-ASCII letters.
    let alphabet = Array("@AZ[`az{09.-_É\u{130}ßσ")
    var random = SeededGenerator(seed: 9)
    for _ in 0..<2_000 {
      let text = String((0..<Int.random(in: 0..<24, using: &random)).map { _ in alphabet.randomElement(using: &random)! })
      #expect(text.lowercasedSharingStorage() == text.lowercased(), "\(text)")
    }
    // Long lowercase ASCII with one byte from either side of the capitals (or a capital, or non-ASCII) at
    // every position: the check reads eight bytes at a time, and each lane must see it.
    let lowercase = Array("abcdefghijklmnopqrstuvwxyz0123456789.-@")
    let probes: [Character] = ["@", "A", "M", "Z", "[", "`", "a", "z", "{", "É", "\u{7F}"]
    for length in 1..<40 {
      for position in 0..<length {
        for probe in probes {
          var characters = (0..<length).map { _ in lowercase.randomElement(using: &random)! }
          characters[position] = probe
          let text = String(characters)
          #expect(text.lowercasedSharingStorage() == text.lowercased(), "\(text)")
        }
      }
    }
  }
}

@Suite struct BackgroundReleaseTests {
  /// Where and whether a `Tracked` was freed.
  private final class Witness: @unchecked Sendable {  // `thread` is guarded by `lock`
    let lock = NSLock()
    var thread: pthread_t?
    let freed = DispatchSemaphore(value: 0)
  }

  private final class Tracked: Sendable {
    let witness: Witness
    init(_ witness: Witness) { self.witness = witness }
    deinit {
      witness.lock.withLock { witness.thread = pthread_self() }
      witness.freed.signal()
    }
  }

  @Test func freesTheLastReferenceOnAnotherThread() {
    let witness = Witness()
    releaseInBackground(Tracked(witness))
    #expect(witness.freed.wait(timeout: .now() + 30) == .success)
    let thread = witness.lock.withLock { witness.thread }
    #expect(thread.map { pthread_equal($0, pthread_self()) == 0 } == true, "freed on the calling thread")
  }
}
