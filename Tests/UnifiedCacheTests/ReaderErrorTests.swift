import Adal2MSALSupport
import Foundation
import Testing
import UnifiedCache

/// Input that cannot be a cache is a thrown `UnifiedCacheError` naming the place.
@Suite struct ReaderErrorTests {
  func error(_ text: String, limits: InputLimits = .default) -> UnifiedCacheError? {
    do {
      _ = try UnifiedCacheJSONReader(limits: limits).read(Data(text.utf8), file: "bad.json")
      return nil
    } catch {
      return error
    }
  }

  @Test func notJSONGivesTheByteOffsetLineAndColumn() throws {
    let failure = try #require(error("{\n  \"Account\": {,}\n}"))
    #expect(failure.reason == .notJSON)
    #expect(failure.location.file == "bad.json")
    #expect(failure.location.byteOffset == 16)
    #expect(failure.location.line == 2 && failure.location.column == 15)
    #expect(failure.description.contains("bad.json"))
  }

  @Test func plainTextIsNotJSON() throws {
    #expect(error("hello")?.reason == .notJSON)
    #expect(error(#"{"Account": {}} trailing"#)?.reason == .notJSON)
    #expect(error(#"{"a": "\x"}"#)?.reason == .notJSON)
  }

  @Test func rootNotAnObjectIsNotACache() throws {
    let failure = try #require(error(#"[{"Account": {}}]"#))
    #expect(failure.reason == .notACache)
    #expect(failure.location.keyPath == "$")
  }

  @Test func objectWithoutAnySectionIsNotACache() throws {
    let failure = try #require(error(#"{"access_tokens": [], "version": 1}"#))
    #expect(failure.reason == .notACache)
    // Says what the file looks like, never its keys (they are the file's data).
    #expect(!failure.message.contains("access_tokens"))
    #expect(failure.message.contains("object with 2 top-level key(s) and no cache section"))
  }

  @Test func limitsAreEnforced() throws {
    let deep = String(repeating: "[", count: 40) + String(repeating: "]", count: 40)
    #expect(error(deep, limits: InputLimits(maxDepth: 10))?.reason == .limitExceeded)
    let long = #"{"Account": {"k": {"username": "\#(String(repeating: "a", count: 200))"}}}"#
    #expect(error(long, limits: InputLimits(maxStringBytes: 100))?.reason == .limitExceeded)
    #expect(error(long, limits: InputLimits(maxInputBytes: 50))?.reason == .limitExceeded)
  }

  /// A string's length is checked at each byte the parser reaches in it, the quote that ends it included, and not
  /// where the input ends or inside an escape: strings up to the limit read, the rest name the limit, and a string
  /// the input ends in is unterminated unless a byte it reached was past the limit. (The same outcomes before and
  /// after the parser passed over a string's plain bytes in one loop.)
  @Test func aStringsLengthIsCheckedAtTheBytesReached() {
    let limits = InputLimits(maxStringBytes: 10)
    func outcome(_ json: String) -> String {
      guard let failure = error(json, limits: limits) else { return "read" }
      return failure.reason == .limitExceeded ? "limit" : failure.message
    }
    let key = #"{"Account": {"k": {"username": "#
    #expect(outcome(key + #""123456789"}}}"#) == "read")
    #expect(outcome(key + #""1234567890"}}}"#) == "limit")
    #expect(outcome(key + #""123\u0041"}}}"#) == "read")
    #expect(outcome(key + #""1234\u0041"}}}"#) == "limit")
    #expect(outcome(key + #""1234567890"#) == "unterminated string")
    #expect(outcome(key + #""12345678901"#) == "limit")
    #expect(outcome(key + #""12345\u0041"#) == "unterminated string")
    #expect(outcome(key + "\"1234567890\u{1}\"}}}") == "limit")
    #expect(outcome(key + "\"123456789\u{1}\"}}}") == "control character in a string")
  }

  @Test func hostileInputNeverCrashes() {
    let samples = [
      "{", "[", "\"", "{\"a\":", "{\"a\" 1}", "-", "1e", "0.", "\"\\u12\"", "\"\\ud800\"", "[1,,2]", "{,}",
      String(repeating: "{\"a\":", count: 5000), "\u{0}", "{\"Account\":{\"k\":{\"home_account_id\":[]}}}",
    ]
    for sample in samples { _ = error(sample) }
    var bytes = [UInt8](#"{"Account": {"k": {"username": "x"}}}"#.utf8)
    bytes[bytes.count - 6] = 0xFF
    #expect(throws: UnifiedCacheError.self) { try UnifiedCacheJSONReader().read(Data(bytes), file: nil) }
  }

  @Test func errorsNeverQuoteTheInput() throws {
    let secret = "eyJ0eXAiOiJKV1QiLCJhbGciOiJSUzI1NiJ9.SECRETSECRET"
    let failure = try #require(error(#"{"RefreshToken": {"k": {"secret": \#(secret)}}}"#))
    #expect(!failure.description.contains("SECRETSECRET"))
    #expect(!failure.description.contains("eyJ0"))
  }
}

/// A 0-byte or blank MSAL cache file is an empty cache, as every MSAL library reads it.
@Suite struct EmptyCacheFileTests {
  @Test(arguments: ["", "   \n", "\r\n\t"])
  func blankFileIsAnEmptyCache(text: String) throws {
    let result = try UnifiedCacheJSONReader().read(Data(text.utf8), file: "cache.json")
    #expect(result.contents.isEmpty)
    #expect(result.diagnostics.map(\.code) == ["unified.empty-file"])
  }
}
