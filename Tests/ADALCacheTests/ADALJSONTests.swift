import ADALCache
import Adal2MSALSupport
import Foundation
import Testing
import _Adal2MSALTestSupport

/// ADAL's JSON inputs are read with the project's one JSON parser. These are the edges where Foundation's
/// `JSONSerialization`, which read them before, gave a different answer; RFC 8259 decides each.
@Suite("ADAL JSON inputs")
struct ADALJSONTests {
  static func idToken(payload: String) -> String {
    Base64URL.encode(Data(#"{"alg":"none"}"#.utf8)) + "." + Base64URL.encode(Data(payload.utf8)) + "."
  }

  /// RFC 8259 §6: a number is its decimal text; beyond 64 bits it can only be approximated. `JSONSerialization`
  /// kept 2^63…2^64−1 as an unsigned integer that read back wrapped to a negative one.
  @Test func claimNumbersKeepTheirMagnitude() throws {
    let claims = try IDTokenClaims(
      rawIDToken: Self.idToken(
        payload: #"{"sub":"s","big":12345678901234567890,"min":-9223372036854775808,"e":15e2,"f":0.5,"t":true}"#))
    #expect(claims["big"] == .real(Double(UInt64(12_345_678_901_234_567_890))))
    #expect(claims["min"] == .integer(.min))
    #expect(claims["e"] == .real(1500))
    #expect(claims["f"] == .real(0.5))
    #expect(claims["t"] == .bool(true))
  }

  /// A syntax error names where it is: byte offset, line and column (and never quotes the input).
  @Test func syntaxErrorsNameTheirPlace() throws {
    let data = Data("[\n  {\"svce\": }\n]".utf8)
    let error = try #require(throws: ADALCacheError.self) { try ADALCacheReader().read(data, file: "bad.json") }
    #expect(error.message.hasPrefix("the input is not valid JSON: unexpected character '}'"))
    #expect(error.location == SourceLocation(file: "bad.json", byteOffset: 13, line: 2, column: 12))
  }

  /// The nesting limit is the document's: the error names the bracket that goes past it.
  @Test func nestingBeyondTheLimitNamesTheBracket() throws {
    var limits = InputLimits.default
    limits.maxDepth = 4
    let data = Data("[[[[[[]]]]]]".utf8)
    let error = try #require(throws: ADALCacheError.self) {
      try ADALCacheReader(limits: limits).read(data, file: "deep.json")
    }
    #expect(error.message == "JSON input over a limit: nesting deeper than 4")
    #expect(error.location.byteOffset == 4)
  }

  /// RFC 8259 §7 allows any `\uXXXX`, but a lone surrogate has no meaning (§8.2; I-JSON, RFC 7493 §2.1, forbids
  /// it) and cannot be part of a Swift string: read as U+FFFD it changed the token it was in, and the run
  /// exited 0. It is refused as invalid UTF-8 is: the whole input, at the escape's offset, quoting nothing.
  @Test func aLoneSurrogateRefusesTheInput() throws {
    let good = try Fixtures.data("adal/archive-e3-frt.bplist")
    let dump = """
      [{"gena": "TVNPcGVuVGVjaC5BREFMLjE=", "acct": "", "labl": "label \\ud800", "v_Data": "\(good.base64EncodedString())",
        "svce": "MSOpenTech.ADAL.1|aHR0cHM6Ly9sb2dpbi5taWNyb3NvZnRvbmxpbmUuY29tLzcyZjk4OGJmLTg2ZjEtNDFhZi05MWFiLTJkN2NkMDExZGI0Nw|CC3513A0-0E69-4B4D-97FC-DFB6C91EE132|Zm9jaS0x"}]
      """
    let error = try #require(throws: ADALCacheError.self) {
      try ADALCacheReader().read(Data(dump.utf8), file: "surrogate.json")
    }
    #expect(error.message == "the input is not valid JSON: unpaired UTF-16 surrogate in a \\u escape")
    #expect(error.location == SourceLocation(file: "surrogate.json", byteOffset: 65, line: 1, column: 66))
    // ADAL Python / Azure CLI (and ADAL Node) arrays: a refresh token with a lone low surrogate.
    let python =
      #"[{"_authority": "https://login.microsoftonline.com/common", "_clientId": "c", "resource": "r", "#
      + #""refreshToken": "rt-secret\udc00", "tokenType": "Bearer"}]"#
    let pythonError = try #require(throws: ADALCacheError.self) {
      try ADALCacheReader().read(Data(python.utf8), file: "accessTokens.json")
    }
    #expect(pythonError.message == "the input is not valid JSON: unpaired UTF-16 surrogate in a \\u escape")
    #expect(pythonError.location.byteOffset == python.utf8.count - 32)
    #expect(!pythonError.description.contains("rt-secret"))
  }

  /// An id token whose claims hold a lone surrogate escape has no readable claims: the part is no JSON object to
  /// the parser, which is the diagnostic an id token that is no JSON gets (`IDTokenClaimsError.notJSONObject`);
  /// its tokens are still read, and the item's identity then comes from elsewhere, as for any such id token.
  @Test func aLoneSurrogateInAnIDTokenMakesItsClaimsUnreadable() throws {
    #expect(throws: IDTokenClaimsError.notJSONObject(segment: 1)) {
      try IDTokenClaims(rawIDToken: Self.idToken(payload: #"{"sub":"s","name":"Ann\ud800","oid":"o"}"#))
    }
    #expect(throws: IDTokenClaimsError.notJSONObject(segment: 1)) {
      try IDTokenClaims(rawIDToken: Self.idToken(payload: #"{"sub":"s","name":"\ud83d\u0041"}"#))
    }
    // A pair reads as its scalar.
    let paired = try IDTokenClaims(rawIDToken: Self.idToken(payload: #"{"sub":"s","name":"Ann\ud83d\ude00"}"#))
    #expect(paired["name"] == .string("Ann😀"))
  }

  /// ADAL Python tests `isMRRT` by truth value; `true` and 1 are what both that and a boolean agree on (as
  /// `JSONSerialization`'s bridging of 0 and 1 to `Bool` did). Any other number is not a flag.
  @Test func mrrtFlags() throws {
    func kind(_ flag: String) throws -> ADALTokenKind? {
      let json = """
        [{"_authority": "https://login.microsoftonline.com/common", "_clientId": "c", "resource": "r",
          "accessToken": "at", "refreshToken": "rt", "tokenType": "Bearer", "isMRRT": \(flag)}]
        """
      return try ADALCacheReader().read(Data(json.utf8), file: "flags.json").items.first?.kind
    }
    #expect(try kind("true") == .multiResourceRefreshToken)
    #expect(try kind("1") == .multiResourceRefreshToken)
    #expect(try kind("1.0") == .multiResourceRefreshToken)
    #expect(try kind("false") == .singleResourceRefreshAndAccess)
    #expect(try kind("2") == .singleResourceRefreshAndAccess)
    #expect(try kind("\"true\"") == .singleResourceRefreshAndAccess)
  }
}
