import Adal2MSALSupport
import Foundation
import Testing
import _Adal2MSALTestSupport

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

  /// The first decoder, the oracle: the text rewritten to the standard alphabet, padding and whitespace
  /// dropped, padded again, and given to Foundation.
  private static func foundationDecode(_ text: String) -> Data? {
    var bytes: [UInt8] = []
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "-"): bytes.append(UInt8(ascii: "+"))
      case UInt8(ascii: "_"): bytes.append(UInt8(ascii: "/"))
      case UInt8(ascii: "="), UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"): continue
      default: bytes.append(byte)
      }
    }
    guard bytes.count % 4 != 1 else { return nil }
    bytes.append(contentsOf: repeatElement(UInt8(ascii: "="), count: (4 - bytes.count % 4) % 4))
    return Data(base64Encoded: Data(bytes))
  }

  @Test func decodesAsFoundationDoes() {
    var cases = ["", "=", "QQ", "QR", "QUJ", "QQ=A", "Q===", "A B\nC\tD\r", "é", "QUJD$", "-_+/"]
    // Seeded: mostly the alphabets (so that most decode), with padding, whitespace and foreign bytes mixed in;
    // and every encoding of random bytes, which must round-trip.
    let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/-_")
    let extras = Array("= \n\t$.é")
    var random = SeededGenerator(seed: 64)
    for _ in 0..<3_000 {
      cases.append(
        String(
          (0..<Int.random(in: 0..<48, using: &random)).map { _ in
            Int.random(in: 0..<20, using: &random) == 0
              ? extras.randomElement(using: &random)! : alphabet.randomElement(using: &random)!
          }))
    }
    for text in cases { #expect(Base64URL.decode(text) == Self.foundationDecode(text), "\(text.debugDescription)") }
    for _ in 0..<500 {
      let data = Data(
        (0..<Int.random(in: 0..<64, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) })
      #expect(Base64URL.decode(Base64URL.encode(data)) == data)
      #expect(Base64URL.decode(data.base64EncodedString()) == data)
    }
  }

  /// Foundation's `String(data:encoding: .utf8)` is the oracle for which bytes are text: invalid UTF-8 (overlong
  /// forms, surrogates, cut sequences) is nil, NUL is text, and a leading byte order mark is dropped.
  @Test func decodesTextAsFoundationDoes() {
    var cases: [[UInt8]] = [
      [], [0xEF, 0xBB, 0xBF], [0xEF, 0xBB, 0xBF, 0x41], [0x41, 0xEF, 0xBB, 0xBF], [0xEF, 0xBB, 0xBF, 0xEF, 0xBB, 0xBF],
      [0x41, 0x00, 0x42], [0xC0, 0x80], [0xED, 0xA0, 0x80], [0xF0, 0x9F, 0x98], [0xF0, 0x9F, 0x98, 0x80], [0xFF],
      Array("https://login.microsoftonline.com/common".utf8), Array("ré".utf8),
    ]
    var random = SeededGenerator(seed: 8)
    let pieces: [[UInt8]] = [
      [0x61], [0xC3, 0xA9], [0xEF, 0xBB, 0xBF], [0xF0, 0x9F, 0x98, 0x80], [0x80], [0xE2, 0x82], [0x00],
    ]
    for _ in 0..<2_000 {
      cases.append((0..<Int.random(in: 0..<8, using: &random)).flatMap { _ in pieces.randomElement(using: &random)! })
    }
    for bytes in cases {
      let expected = String(data: Data(bytes), encoding: .utf8)
      #expect(Base64URL.decodeString(Base64URL.encode(Data(bytes))) == expected, "\(bytes)")
    }
  }
}

@Suite struct CivilTimeTests {
  /// Against Foundation's Gregorian calendar in UTC, the oracle, either side of 1970 and across leap rules.
  @Test func matchesTheGregorianCalendar() {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    var random = SeededGenerator(seed: 1970)
    let fixed = [0, -1, -86_400, -86_401, 951_782_400, 4_107_542_400, -2_208_988_800, 253_402_300_799]
    let seeded = (0..<2_000).map { _ in Int.random(in: -4_000_000_000...8_000_000_000, using: &random) }
    for seconds in fixed + seeded {
      let expected = calendar.dateComponents(
        [.year, .month, .day, .hour, .minute, .second], from: Date(timeIntervalSince1970: Double(seconds)))
      let time = CivilTime(secondsSince1970: seconds)
      #expect(
        [time.year, time.month, time.day, time.hour, time.minute, time.second]
          == [expected.year, expected.month, expected.day, expected.hour, expected.minute, expected.second],
        "\(seconds)")
    }
  }
}

@Suite struct CivilTimeReadingTests {
  /// Moments either side of 1970 and across leap rules, and seeded ones from year 1843 to 2223.
  static let moments: [Int] = {
    var random = SeededGenerator(seed: 3339)
    let fixed = [0, -1, -86_400, 951_782_400, 951_868_799, 4_107_542_400, -2_208_988_800, 253_402_214_399]
    return fixed + (0..<2_000).map { _ in Int.random(in: -4_000_000_000...8_000_000_000, using: &random) }
  }()

  @Test func daysSince1970IsTheInverseOfTheCivilDate() {
    for seconds in Self.moments {
      let time = CivilTime(secondsSince1970: seconds)
      let days = CivilTime.daysSince1970(year: time.year, month: time.month, day: time.day)
      #expect(days * 86_400 + time.hour * 3_600 + time.minute * 60 + time.second == seconds, "\(seconds)")
      #expect((1...CivilTime.dayCount(month: time.month, year: time.year)).contains(time.day), "\(seconds)")
    }
  }

  /// Against Foundation's ISO 8601 parser, the oracle: every offset spelling, with and without fractions.
  @Test func readsISO8601AsFoundationDoes() throws {
    var random = SeededGenerator(seed: 8601)
    for seconds in Self.moments {
      // The offsets time zones have (Foundation refuses those beyond 18 hours that the grammar allows).
      let offset = Int.random(in: -(12 * 60)...(14 * 60), using: &random) * 60
      let local = CivilTime(secondsSince1970: seconds + offset).iso8601.dropLast()  // the offset's wall clock
      let sign = offset < 0 ? "-" : "+"
      let (hours, minutes) = (abs(offset) / 3_600, abs(offset) % 3_600 / 60)
      func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
      let fraction = [
        "", ".5", ".25", ".125", "." + String(Int.random(in: 0...999_999, using: &random)).leftPadded(to: 6),
      ].randomElement(using: &random)!
      var spellings = ["\(local)\(fraction)\(sign)\(twoDigits(hours)):\(twoDigits(minutes))"]
      spellings.append("\(local)\(fraction)\(sign)\(twoDigits(hours))\(twoDigits(minutes))")
      if offset == 0 { spellings.append("\(local)\(fraction)Z") }
      if minutes == 0 { spellings.append("\(local)\(fraction)\(sign)\(twoDigits(hours))") }
      for text in spellings {
        let expected = try Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: !fraction.isEmpty))
        let read = try #require(CivilTime.secondsSince1970(iso8601: text), "\(text)")
        #expect(abs(read - expected.timeIntervalSince1970) < 1e-6, "\(text)")
        #expect(abs(read - Double(seconds)) < 1, "\(text)")
      }
    }
  }

  /// What a formatter reads leniently and a pinned clock must not: `--now` used Foundation's `ISO8601DateFormatter`,
  /// which on Linux turned each of these into some moment (not checked here: Apple's may read them otherwise).
  @Test(arguments: [
    "2026-11-21T10:00:00Zjunk", "2026-02-30T10:00:00Z", "2026-11-21T24:00:00Z", "2026-1-2T3:4:5Z",
    "2026-11-21T10:00:00 Z", "2026-11-21T10:00:00GMT", "2026-11-21T10:00:00+25:00",
  ])
  func refusesWhatAFormatterReadsLeniently(text: String) {
    #expect(CivilTime.secondsSince1970(iso8601: text) == nil)
  }

  @Test(arguments: [
    "", "2026-11-21", "2026-11-21T10:00:00", "2026-11-21T10:00Z", "2026-11-21t10:00:00z", "2026-11-21 10:00:00Z",
    "2026-13-01T00:00:00Z", "2026-11-21T10:60:00Z", "2026-11-21T10:00:60Z", "2026-11-21T10:00:00.Z",
    "2026-11-21T10:00:00+01:", "2026-11-21T10:00:00+01:60", "2026-11-21T10:00:00+1", "+2026-11-21T10:00:00Z",
    "2026-11-21T10:00:00Z ",
  ])
  func refusesWhatIsNotAMoment(text: String) {
    #expect(CivilTime.secondsSince1970(iso8601: text) == nil)
  }

  /// Epoch seconds as decimal text read as `Double(_:)` reads it, within 10^12 s of 1970 either way.
  @Test func readsDecimalEpochSecondsAsDoubleDoes() {
    var random = SeededGenerator(seed: 1970)
    let texts =
      ["0", "-0", "+5", "1763719200", "-86400", "1763719200.5", "0.25", "1000000000000", "-1000000000000", "007"]
      + Self.moments.map { "\($0).\(Int.random(in: 0...999_999, using: &random))" } + Self.moments.map(String.init)
    for text in texts {
      let seconds = CivilTime.secondsSince1970(decimal: text)
      #expect(seconds != nil && seconds == Double(text), "\(text)")
    }
  }

  /// What `Double(_:)` reads and a pinned clock must not: exponents, hexadecimal, non-finite values, moments a
  /// report cannot write (`1e300` was shown as the year 506713), and text around the number.
  @Test(arguments: [
    "1e9", "1.5e9", "0x10", "1e300", "nan", "inf", "-infinity", "1000000000000.5", "1000000000001", "-1000000000001",
    "99999999999999999999", "", "-", "+", ".5", "5.", " 5", "5 ", "1_000", "--5", "5s", "١٢٣",
  ])
  func refusesWhatIsNotDecimalEpochSeconds(text: String) {
    #expect(CivilTime.secondsSince1970(decimal: text) == nil)
  }
}

extension String {
  fileprivate func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}

@Suite struct SecretFingerprintTests {
  @Test func isAShortPrefixOfTheSHA256() {
    // sha256("abc") = ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad (FIPS 180-2 vector)
    #expect(SecretFingerprint.of("abc") == "sha256:ba7816bf8f01")
    #expect(SecretFingerprint.sha256Hex(Data("abc".utf8)).hasPrefix("ba7816bf8f01cfea"))
  }

  /// A digest made a stride at a time is the whole bytes' digest, and says how far it has read after each stride.
  @Test func aDigestSaysHowFarItHasRead() {
    // sha256 of "abc" repeated 1,000 times, from Python's hashlib.
    let data = Data(String(repeating: "abc", count: 1_000).utf8)
    var passed: [Int] = []
    let digest = SecretFingerprint.sha256Hex(data, stride: 1_024) { passed.append($0) }
    #expect(digest == "328de8f1895f8bb09f6e6b4c2012ef2b2a6f067cd002794b750aa040a6f6d8bd")
    #expect(passed == [1_024, 2_048, 3_000])
    #expect(SecretFingerprint.sha256Hex(data) == digest)
    var passedOfEmpty: [Int] = []
    #expect(SecretFingerprint.sha256Hex(Data()) { passedOfEmpty.append($0) }.hasPrefix("e3b0c44298fc1c14"))
    #expect(passedOfEmpty == [0])
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
      let text = String(
        (0..<Int.random(in: 0..<24, using: &random)).map { _ in alphabet.randomElement(using: &random)! })
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

extension StringFastPathTests {
  /// `copyLowercasingASCII` copies ASCII as `lowercased()` (its oracle) makes it, a byte either side of the
  /// capitals (or a capital) at every position of every length (eight bytes are copied at a time, and each
  /// lane must see it), and stops at a byte that is not ASCII.
  @Test func copiesLowercasingASCIIAsFoundationDoes() {
    let lowercase = Array("abcdefghijklmnopqrstuvwxyz0123456789.-@".utf8)
    let probes = Array("@AMZ[`az{\u{7F}".utf8)
    var random = SeededGenerator(seed: 23)
    for length in 1..<40 {
      for position in 0..<length {
        for probe in probes + [0xC3] {
          var bytes = (0..<length).map { _ in lowercase.randomElement(using: &random)! }
          bytes[position] = probe
          var copy = [UInt8](repeating: 0, count: length)
          let copied = bytes.withUnsafeBufferPointer { source in
            copy.withUnsafeMutableBufferPointer { String.copyLowercasingASCII(source, to: $0.baseAddress!) }
          }
          guard probe < 0x80 else {
            #expect(!copied, "\(bytes)")
            continue
          }
          #expect(copied)
          #expect(String(decoding: copy, as: UTF8.self) == String(decoding: bytes, as: UTF8.self).lowercased())
        }
      }
    }
  }

  /// `hasSameUTF8(as:)` is byte equality: canonically equivalent spellings differ, small and large strings
  /// and substrings' copies compare by their bytes.
  @Test func sameUTF8IsByteEquality() {
    let pairs: [(String, String, Bool)] = [
      ("", "", true), ("a", "a", true), ("a", "b", false), ("ab", "a", false),
      ("c1e8e3b2-7d4a-4f5e-9b6c-0a1b2c3d4e5f", "c1e8e3b2-7d4a-4f5e-9b6c-0a1b2c3d4e5f", true),
      ("c1e8e3b2-7d4a-4f5e-9b6c-0a1b2c3d4e5f", "c1e8e3b2-7d4a-4f5e-9b6c-0a1b2c3d4e5F", false),
      ("\u{E9}", "e\u{301}", false),
      ("login.microsoftonline.com", String("xlogin.microsoftonline.com".dropFirst()), true),
    ]
    for (lhs, rhs, same) in pairs {
      #expect(lhs.hasSameUTF8(as: rhs) == same, "\(lhs.debugDescription) \(rhs.debugDescription)")
      #expect(rhs.hasSameUTF8(as: lhs) == same)
    }
    #expect("\u{E9}" == "e\u{301}")  // what `==` would have said
  }

  /// `trimmedWhitespaceAndNewlines()` and `trimmedWhitespace()` of a String (their ends read as bytes) must
  /// equal Foundation's `trimmingCharacters(in: .whitespacesAndNewlines)` and `(in: .whitespaces)`, their
  /// oracles, whatever the ends are.
  @Test func trimsAsFoundationDoes() {
    let ends: [String] = [
      "", "a", "Z", "~", " ", "\t", "\n", "\r", "\r\n", "\u{0B}", "\u{0C}", "\u{1F}", "\u{7F}", "\u{85}",
      "\u{A0}", "\u{2028}", "\u{3000}", "é", "e\u{301}", " \u{301}", "日",
    ]
    for head in ends {
      for tail in ends {
        for middle in ["", "x", "a b", " ", "\n"] {
          let text = head + middle + tail
          #expect(
            text.trimmedWhitespaceAndNewlines() == text.trimmingCharacters(in: .whitespacesAndNewlines),
            "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
          #expect(
            text.trimmedWhitespace() == text.trimmingCharacters(in: .whitespaces),
            "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
        }
      }
    }
  }

  /// `isASCII` finds a byte of 0x80 or more wherever it sits (in a 32-byte run, an 8-byte word or the tail)
  /// in buffers of every length around those steps, and accepts the same buffers all ASCII.
  @Test func findsANonASCIIByteAnywhere() {
    for length in 0...80 {
      var bytes = (0..<length).map { UInt8(0x20 + $0 % 0x5F) }
      #expect(bytes.withUnsafeBufferPointer { String.isASCII($0) }, "length \(length)")
      for position in 0..<length {
        for high: UInt8 in [0x80, 0xFF] {
          let kept = bytes[position]
          bytes[position] = high
          #expect(!bytes.withUnsafeBufferPointer { String.isASCII($0) }, "length \(length), 0x\(high) at \(position)")
          bytes[position] = kept
        }
      }
    }
  }

  /// `isUTF8` accepts exactly the bytes `String(validating:as:)` (its oracle) makes a string of: ASCII of every
  /// length around the ASCII check's steps, with valid multi-byte UTF-8 or each kind of invalid sequence wherever
  /// it sits.
  @Test func checksUTF8AsValidatingDoes() {
    let invalid: [[UInt8]] = [
      [0x80], [0xFF], [0xC3], [0xC0, 0x80], [0xE2, 0x82], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80],
      [0xF0, 0x9F, 0x98],
    ]
    let valid: [[UInt8]] = [[], Array("é".utf8), Array("😀".utf8), Array("\u{FFFD}".utf8), [0x00, 0x7F]]
    for length in [0, 1, 7, 8, 31, 32, 33, 70] {
      let ascii = (0..<length).map { UInt8(0x20 + $0 % 0x5F) }
      for piece in valid + invalid {
        for position in Set([0, length / 2, length]) {
          var bytes = ascii
          bytes.insert(contentsOf: piece, at: position)
          let checked = bytes.withUnsafeBufferPointer { String.isUTF8($0) }
          #expect(checked == (String(validating: bytes, as: UTF8.self) != nil), "\(bytes)")
          #expect(checked != invalid.contains(piece), "\(bytes)")
        }
      }
    }
  }

  /// `splitting(ascii:)` must equal `split(separator:)` by characters (its oracle), either way about empty pieces.
  @Test func splitsAsCharactersDo() {
    let fixed = [
      "", ".", "..", "a.b", ".a.", "a..b", "eyJhbGciOi.eyJvaWQiOi.c2ln", "a.\u{301}b", "é.e", "a\r\n.b", "|x||y|",
    ]
    var cases = fixed
    // Seeded mixes of separators, ASCII, a combining mark (which joins a preceding "." into one character) and
    // non-ASCII letters, long enough to cross the eight-byte ASCII check.
    let alphabet = Array("..||ab\u{301}é\r\n")
    var random = SeededGenerator(seed: 17)
    let asciiAlphabet = Array("..||abc\r\n")
    for round in 0..<3_000 {
      let letters = round.isMultiple(of: 2) ? alphabet : asciiAlphabet  // half of them ASCII: the byte path
      cases.append(
        String((0..<Int.random(in: 0..<40, using: &random)).map { _ in letters.randomElement(using: &random)! }))
    }
    for text in cases {
      for separator in [".", "|"] as [Unicode.Scalar] {
        for omitting in [true, false] {
          let expected = text.split(separator: Character(separator), omittingEmptySubsequences: omitting)
          #expect(
            text.splitting(ascii: separator, omittingEmptySubsequences: omitting) == expected,
            "\(text.debugDescription) \(separator) \(omitting)")
        }
        // The offsets of the pieces, for ASCII text only: the same pieces, empty ones kept.
        let offsets = text.asciiPieceOffsets(separator: separator)
        if text.utf8.allSatisfy({ $0 < 0x80 }) {
          let bytes = Array(text.utf8)
          #expect(
            offsets?.map { String(decoding: bytes[$0], as: UTF8.self) }
              == text.split(separator: Character(separator), omittingEmptySubsequences: false).map(String.init),
            "\(text.debugDescription) \(separator)")
        } else {
          #expect(offsets == nil, "\(text.debugDescription)")
        }
      }
    }
  }
}

@Suite(.serialized) struct BackgroundWorkTests {
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

  private final class SlowToFree: Sendable {
    let freed: LockedCounter
    init(_ freed: LockedCounter) { self.freed = freed }
    deinit {
      Thread.sleep(forTimeInterval: 0.2)
      freed.add()
    }
  }

  /// Each value takes a fifth of a second to free: returning at once, or after the first, would find fewer.
  @Test func waitForPendingReturnsOnceEveryValueHandedOverIsFreed() {
    let freed = LockedCounter()
    for _ in 0..<3 { releaseInBackground(SlowToFree(freed)) }
    BackgroundWork.waitForPending()
    #expect(freed.value == 3)
  }

  /// A background computation's closure is let go on its thread after it has handed its result over, so what it
  /// captured can outlive `value`: not `waitForPending()`.
  @Test func waitForPendingReturnsOnceABackgroundComputationLetGoOfWhatItCaptured() {
    let freed = LockedCounter()
    let computed = BackgroundValue { [captured = SlowToFree(freed)] in captured.freed.value + 1 }
    #expect(computed.value == 1)
    BackgroundWork.waitForPending()
    #expect(freed.value == 1)
  }
}

@Suite struct OrderedParallelMapTakingTests {
  private final class Counted: Sendable {
    let value: Int
    init(_ value: Int) { self.value = value }
  }

  /// The results of `map`, in order; every slot emptied, and each element freed once transformed (nothing else
  /// holds it): the workers took them.
  @Test(arguments: [0, 1, 63, 64, 1_000, 10_007])
  func isMapInOrderAndTakesEveryElement(count: Int) {
    var slots: [Counted?] = (0..<count).map { Counted($0) }
    nonisolated(unsafe) var watched: [Int: Weak] = [:]
    for index in slots.indices where index % 97 == 0 { watched[index] = Weak(slots[index]!) }
    let results = slots.orderedParallelMapTaking(minimumChunk: 16) { element in String(element.value * 3 + 1) }
    let expected: [String] = (0..<count).map { String($0 * 3 + 1) }
    #expect(results == expected)
    #expect(slots.allSatisfy { $0 == nil })
    #expect(watched.values.allSatisfy { $0.object == nil })
  }

  /// Every count with the smallest chunks: the chunks cover the elements exactly, however few there are per
  /// chunk (10 elements in 8 chunks of 2 once asked for a chunk past the end).
  @Test func smallChunksCoverEveryCount() {
    for count in 0..<70 {
      let elements = Array(0..<count)
      #expect(elements.orderedParallelMap(minimumChunk: 1) { $0 * 2 } == elements.map { $0 * 2 })
      var slots: [Int?] = elements
      #expect(slots.orderedParallelMapTaking(minimumChunk: 1) { $0 + 1 } == elements.map { $0 + 1 })
    }
  }

  private final class Weak: @unchecked Sendable {
    weak var object: Counted?
    init(_ object: Counted) { self.object = object }
  }
}

@Suite struct WordingTests {
  /// Every kind name the readers put after an article (`PropertyListValue.kindName`, `ArchiveValue.kindName`,
  /// `JSONValue.typeName`, the store's columns, class names) reads as English.
  @Test func eachKindTakesTheArticleOfItsSound() {
    let expected = [
      "integer": "an integer", "array": "an array", "object": "an object", "NSArray": "an NSArray",
      "NSDate": "an NSDate", "ADUserInformation": "an ADUserInformation", "expires_on": "an expires_on",
      "extended_expires_on": "an extended_expires_on", "UID": "a UID", "string": "a string", "real": "a real",
      "dictionary": "a dictionary", "boolean": "a boolean", "$null": "a $null", "secret": "a secret",
      "unknown": "an unknown", "user key": "a user key",
    ]
    for (noun, phrase) in expected { #expect(Wording.indefinite(noun) == phrase) }
  }

  @Test func aCountOfOneIsSingular() {
    #expect(Wording.counted(1, "entry", "entries") == "1 entry")
    #expect(Wording.counted(0, "entry", "entries") == "0 entries")
    #expect(Wording.counted(2, "entry", "entries") == "2 entries")
  }
}
