import Foundation
import Testing
import _Adal2MSALTestSupport

@testable import MigrationEngine

/// The one-pass matcher against the replacement it took over from: longest value first, each replaced
/// everywhere with Foundation's case-insensitive search.
@Suite struct IdentityMatcherTests {
  typealias Pairs = [(value: String, token: String)]

  /// The first redactor's algorithm, the oracle.
  static func reference(_ text: String, _ pairs: Pairs) -> String {
    var out = text
    for (value, token) in pairs.sorted(by: { ($0.value.count, $0.value) > ($1.value.count, $1.value) }) {
      out = out.replacingOccurrences(of: value, with: token, options: .caseInsensitive)
    }
    return out
  }

  /// Checks the matcher against the oracle and, when given, the expected text.
  func check(
    _ text: String, _ pairs: Pairs, _ expected: String? = nil, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let actual = IdentityMatcher(pairs)(text)
    #expect(actual == Self.reference(text, pairs), "text \(text.debugDescription)", sourceLocation: sourceLocation)
    if let expected { #expect(actual == expected, sourceLocation: sourceLocation) }
  }

  @Test func homeAccountIDIsReplacedWholeBeforeTheLocalIDInside() {
    let oid = "9f4880d8-80ba-4c40-97bc-f7a23c703084"
    let tid = "72f988bf-86f1-41af-91ab-2d7cd011db47"
    let pairs: Pairs = [(oid, "account-local"), ("\(oid).\(tid)", "account-home")]
    check("home \(oid).\(tid), local \(oid)", pairs, "home account-home, local account-local")
    check("\(oid.uppercased()).\(tid.uppercased())-login.windows.net", pairs, "account-home-login.windows.net")
  }

  @Test func uppercaseTextAndValuesAtEitherEnd() {
    let pairs: Pairs = [("alice@contoso.com", "user-a")]
    check("ALICE@CONTOSO.COM", pairs, "user-a")
    check("Alice@Contoso.com signed in as alice@contoso.COM", pairs, "user-a signed in as user-a")
    check("for alice@contoso.com", pairs, "for user-a")
  }

  @Test func adjacentMatchesAndAValueThatIsAPrefixOfAnother() {
    let pairs: Pairs = [("bob@contoso.com", "user-b"), ("bob@contoso.com.au", "user-au"), ("carol", "user-c")]
    check("bob@contoso.comcarolCAROL", pairs, "user-buser-cuser-c")
    check("bob@contoso.com.au bob@contoso.com.a bob@contoso.co", pairs, "user-au user-b.a bob@contoso.co")
  }

  @Test func nonASCIIUsernames() {
    let pairs: Pairs = [("josé@contoso.com", "user-j"), ("bob@contoso.com", "user-b")]
    check("JOSÉ@contoso.com", pairs, "user-j")
    check("Ünïcode JOSÉ@CONTOSO.COM, bob@CONTOSO.com, josé@contoso.com…", pairs, "Ünïcode user-j, user-b, user-j…")
    check("jose@contoso.com", pairs, "jose@contoso.com")
    check("josé@contoso.com", [("JOSÉ@CONTOSO.COM", "user-J")], "user-J")
  }

  /// `İ` lowercases to two scalars (`i` and a combining dot): a value may not start or end inside them, and the
  /// original text is kept around a match.
  @Test func matchesStartAndEndOnTheOriginalScalars() {
    #expect(IdentityMatcher([("\u{307}x", "T")])("İx") == "İx")
    #expect(IdentityMatcher([("i", "T")])("İ") == "İ")
    #expect(IdentityMatcher([("i\u{307}", "T")])("İİ") == "TT")
    #expect(IdentityMatcher([("bob", "T")])("İBobİ") == "İTİ")
  }

  @Test func emptyTextAndNoValues() {
    check("", [("alice@contoso.com", "user-a")], "")
    check("alice@contoso.com", [], "alice@contoso.com")
    #expect(Redactor.none("alice@contoso.com") == "alice@contoso.com")
    #expect(Redactor.none(nil as String?) == nil)
  }

  /// An entity's field is redacted by what it is: a display name whole, as `name-<12 hex>` (never searched for in
  /// other text, where a short one is inside words), a `client_info` re-encoded with its uid's token and its
  /// tenant, members other than these left out, or as `client-info-<12 hex>` when it is not base64url JSON.
  @Test func fieldsAreRedactedByWhatTheyAre() throws {
    let redact = Redactor(RedactionNames())
    let ed = redact.field("given_name", "Ed")
    #expect(ed.hasPrefix("name-") && ed.count == 17)
    #expect(redact.field("name", " ED ") == ed)
    #expect(redact.field("family_name", "Example") != ed)
    #expect(
      redact.field("realm", "Ed") == "Ed" && redact.field("environment", "login.example.com") == "login.example.com")
    #expect(redact("migrated for Ed") == "migrated for Ed")
    func encoded(_ json: String) -> String {
      Data(json.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-")
        .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }
    func decoded(_ value: String) throws -> [String: String] {
      var base64 = value.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
      while base64.count % 4 != 0 { base64 += "=" }
      let data = try #require(Data(base64Encoded: base64), "\(value)")
      return try #require(try JSONSerialization.jsonObject(with: data) as? [String: String])
    }
    // A uid too short for the matcher still gets a token; a uid's token does not depend on its case, as an id's.
    let short = try decoded(redact.field("client_info", encoded(#"{"uid":"a1","utid":"t-1","name":"Ed"}"#)))
    #expect(short.keys.sorted() == ["uid", "utid"] && short["utid"] == "t-1")
    #expect(short["uid"]?.hasPrefix("account-") == true && short["uid"]?.count == 20)
    let uid = "0f6f2d3b-0000-4000-8000-00000000b0b0"
    let long = try decoded(redact.field("client_info", encoded(#"{"uid":"\#(uid)","utid":"t-1"}"#)))
    #expect(long["uid"] != short["uid"] && long["uid"]?.hasPrefix("account-") == true)
    let upper = try decoded(redact.field("client_info", encoded(#"{"utid":"t-1","uid":"\#(uid.uppercased())"}"#)))
    #expect(upper == long)
    for odd in ["not base64!", encoded("[1]"), encoded(#"{"utid":"t-1"}"#)] {
      let shown = redact.field("client_info", odd)
      #expect(shown.hasPrefix("client-info-") && shown.count == 24, "\(odd): \(shown)")
    }
    #expect(Redactor.none.field("client_info", "eyJ1aWQiOiJhMSJ9") == "eyJ1aWQiOiJhMSJ9")
    #expect(Redactor.none.field("name", "Ed") == "Ed")
  }

  /// Seeded random values and texts, mixed case, ASCII and not. Values never overlap (no value ends with what
  /// another begins with), the case where "longest first" and "leftmost-longest" could disagree, and the tokens
  /// share no character with them.
  @Test func agreesWithTheOracleOnRandomCases() {
    var random = SeededGenerator(seed: 0x5EDAC7)
    let valueAlphabet = Array("abcdéü.@-")
    let fillerAlphabet = valueAlphabet + Array(" xZ:ñ日")
    var changed = 0
    for _ in 0..<4_000 {
      var values: [String] = []
      for _ in 0..<Int.random(in: 0...6, using: &random) {
        let length = Int.random(in: 1...8, using: &random)
        let value = String((0..<length).map { _ in valueAlphabet.randomElement(using: &random)! })
        if !values.contains(where: { Self.overlap(value, $0) }) { values.append(value) }
      }
      let pairs = values.enumerated().map { (value: $0.element, token: "<\($0.offset)>") }
      var text = ""
      for _ in 0..<Int.random(in: 0...10, using: &random) {
        if let value = values.randomElement(using: &random), Bool.random(using: &random) {
          text += value.map { Bool.random(using: &random) ? $0.uppercased() : String($0) }.joined()
        } else {
          let length = Int.random(in: 1...4, using: &random)
          text += String((0..<length).map { _ in fillerAlphabet.randomElement(using: &random)! })
        }
      }
      check(text, pairs)
      if IdentityMatcher(pairs)(text) != text { changed += 1 }
    }
    #expect(changed > 1_000, "most random texts should hold a value")
  }

  /// Many identities that share prefixes, as a large plan has: local ids, home account ids and usernames.
  @Test func agreesWithTheOracleOnManyIdentities() {
    var random = SeededGenerator(seed: 0xAD41)
    func hex(_ count: Int) -> String {
      String((0..<count).map { _ in Array("0123456789abcdef").randomElement(using: &random)! })
    }
    let tenants = (0..<5).map { _ in "\(hex(8))-\(hex(4))-4\(hex(3))-8\(hex(3))-\(hex(12))" }
    var values: [String] = []
    for user in 0..<400 {
      let oid = "\(hex(2))00\(hex(4))-0000-4000-8000-\(hex(12))"
      values += [oid, "\(oid).\(tenants[user % tenants.count])", "user\(user)@contoso\(user % 7).com"]
    }
    let pairs = values.enumerated().map { (value: $0.element, token: "<\($0.offset)>") }
    let matcher = IdentityMatcher(pairs)
    for _ in 0..<10 {
      let words = (0..<50).map { _ in
        switch Int.random(in: 0..<4, using: &random) {
        case 0: values.randomElement(using: &random)!.uppercased()
        case 1: values.randomElement(using: &random)!
        case 2: tenants.randomElement(using: &random)!
        default: hex(Int.random(in: 1...12, using: &random))
        }
      }
      let text = words.joined(separator: Bool.random(using: &random) ? " " : ", key ")
      #expect(matcher(text) == Self.reference(text, pairs))
    }
  }

  /// Whether the two are equal, or a proper end of one is a proper start of the other (or of itself). One value
  /// inside another is fine: that is `oid` in `oid.tid`.
  static func overlap(_ a: String, _ b: String) -> Bool {
    let a = Array(a)
    let b = Array(b)
    func endsOverlap(_ x: [Character], _ y: [Character]) -> Bool {
      (1..<min(x.count, y.count)).contains { x.suffix($0) == y.prefix($0) }
    }
    return a == b || endsOverlap(a, b) || endsOverlap(b, a) || endsOverlap(a, a) || endsOverlap(b, b)
  }
}
