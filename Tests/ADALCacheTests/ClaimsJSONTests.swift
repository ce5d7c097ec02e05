import ADALCache
import Adal2MSALSupport
import Foundation
import Testing

/// The flat reader of id-token JSON (`ClaimsJSON.flatMembers`) against the general path it stands in for.
@Suite("id token claims JSON")
struct ClaimsJSONTests {
  /// Members merged as `IDTokenClaims` merges them, sorted by key.
  static func merged(_ members: [ADALValueEntry]) -> [ADALValueEntry] {
    var claims: [String: ADALValue] = [:]
    for member in members { claims[member.key] = member.value }
    return claims.sorted { $0.key < $1.key }.map { ADALValueEntry(key: $0.key, value: $0.value) }
  }

  /// Flat objects, as id tokens hold them: the flat reader must read each itself.
  static let flat: [String] = [
    #"{}"#, #" { } "#, #"{"sub":"s"}"#, "{\n\t\"sub\" : \"s\" ,\r\n \"ver\":\"2.0\"}",
    #"{"iat":1700000000,"exp":-1,"zero":0,"neg0":-0}"#, #"{"big":9223372036854775807,"over":9223372036854775808}"#,
    #"{"under":-9223372036854775809,"huge":123456789012345678901234567890}"#,
    #"{"f":1.5,"e":1e3,"E":2E-2,"fe":-0.25e+2,"z":0.0}"#, #"{"t":true,"f":false,"n":null}"#,
    #"{"amr":["pwd","mfa"],"empty":[],"mixed":[1,"a",true,null,2.5], "sp" : [ 1 , 2 ] }"#,
    #"{"name":"Zoë Ångström 日本","":"empty key"}"#, #"{"dup":"first","other":1,"dup":"second"}"#,
    "{\"e\u{0301}\":1,\"\u{00E9}\":2}",
    #"{"upn":"user@contoso.com","oid":"00000000-0000-0000-0000-000000000001","tid":"t","ver":"1.0"}"#,
  ]

  /// What the flat reader must leave to the general path (some of it valid JSON the general path reads).
  static let general: [String] = [
    #"{"esc":"a\"b"}"#, #"{"slash":"a\/b"}"#, #"{"u":"\u00e9"}"#, #"{"nested":{"a":1}}"#, #"{"arr":[[1]]}"#,
    #"{"arr":[{"a":1}]}"#, #"{"trailing":1,}"#, #"{"arr":[1,]}"#, "\u{FEFF}{\"bom\":1}", #"[1,2]"#, #""text""#,
    #"{"a":1}x"#, #"{"a":01}"#, #"{"a":1.}"#, #"{"a":1e}"#, #"{"a":-}"#, #"{"a":+1}"#, #"{"a":.5}"#, #"{"a":tru}"#,
    #"{"a":nul}"#, #"{"a" 1}"#, #"{"a":1 "b":2}"#, #"{a:1}"#, #"{"a":1"#, #"{"a":"#, #"{"a"#, #"{"#, "",
    "{\"ctl\":\"a\u{01}b\"}", "{\"tab\":\"a\tb\"}", #"{"a":1}{"b":2}"#, #"{"a":[1 2]}"#, #"{"a":NaN}"#,
  ]

  static let invalidUTF8: [[UInt8]] = [
    Array(#"{"a":""#.utf8) + [0xFF] + Array(#""}"#.utf8), Array(#"{""#.utf8) + [0xC3] + Array(#"":1}"#.utf8),
    Array(#"{"a":""#.utf8) + [0xED, 0xA0, 0x80] + Array(#""}"#.utf8),
  ]

  @Test(arguments: flat) func flatObjectsAreReadDirectlyAsTheGeneralPathReadsThem(_ text: String) throws {
    let data = Data(text.utf8)
    let direct = try #require(ClaimsJSON.flatMembers(data), "the flat reader left a flat object to the general path")
    let general = try #require(ClaimsJSON.generalMembers(data))
    #expect(Self.merged(direct) == Self.merged(general))
  }

  @Test(arguments: general) func everythingElseIsLeftToTheGeneralPath(_ text: String) {
    #expect(ClaimsJSON.flatMembers(Data(text.utf8)) == nil)
  }

  @Test(arguments: invalidUTF8) func invalidUTF8IsLeftToTheGeneralPath(_ bytes: [UInt8]) {
    #expect(ClaimsJSON.flatMembers(Data(bytes)) == nil)
    #expect(ClaimsJSON.generalMembers(Data(bytes)) == nil)
  }

  /// Every prefix and every one-byte change of flat objects: where the flat reader reads one, the general path
  /// reads the same; where the general path refuses one, so does the flat reader.
  @Test func mutatedObjectsAgreeWithTheGeneralPath() {
    let replacements: [UInt8] = Array(#"{}[],:"\ 0-.eE+tfn1aé"#.utf8) + [0x00, 0x1F, 0x80, 0xFF]
    var compared = 0
    for text in Self.flat {
      let bytes = Array(text.utf8)
      var variants = (0...bytes.count).map { Array(bytes.prefix($0)) }
      for index in bytes.indices {
        for replacement in replacements where replacement != bytes[index] {
          var changed = bytes
          changed[index] = replacement
          variants.append(changed)
        }
      }
      for variant in variants {
        let data = Data(variant)
        let general = ClaimsJSON.generalMembers(data)
        guard let direct = ClaimsJSON.flatMembers(data) else { continue }
        compared += 1
        #expect(general != nil, "the flat reader read what the general path refuses")
        if let general { #expect(Self.merged(direct) == Self.merged(general)) }
      }
    }
    #expect(compared > 100)
  }
}
