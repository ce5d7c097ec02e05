import Adal2MSALSupport
import Foundation
import PropertyLists
import Testing
import _Adal2MSALTestSupport

/// Sniffing, and the text and JSON views that `adal2msal inspect` prints.
@Suite struct RenderingTests {
  @Test func sniffing() {
    #expect(PropertyListFormat.sniff(Data("bplist00rest".utf8)) == .binary)
    #expect(PropertyListFormat.sniff(Data("<?xml version=\"1.0\"?>".utf8)) == .xml)
    #expect(PropertyListFormat.sniff(Data([0xEF, 0xBB, 0xBF] + Array(" \n\t<plist>".utf8))) == .xml)
    #expect(PropertyListFormat.sniff(Data("<!DOCTYPE plist PUBLIC".utf8)) == .xml)
    #expect(PropertyListFormat.sniff(Data("bplist01".utf8)) == nil)
    #expect(PropertyListFormat.sniff(Data("{\"json\": 1}".utf8)) == nil)
    #expect(PropertyListFormat.sniff(Data("<html>".utf8)) == nil)
    #expect(PropertyListFormat.sniff(Data()) == nil)
  }

  func adalInspection() throws -> PropertyListInspection {
    let file = "adal-objc/adal_keychain_hardcoded_item.bplist"
    return try PropertyListInspection.inspect(Fixtures.data(file), file: file)
  }

  @Test func textHidesSecrets() throws {
    let inspection = try adalInspection()
    let text = PropertyListRendering.text(inspection)
    #expect(text.contains("format: binary property list"))
    #expect(text.contains("keyed archive: NSKeyedArchiver, root class ADTokenCacheStoreItem"))
    #expect(text.contains("  expiresOn: 2001-01-12T13:46:40Z (date)"))
    #expect(text.contains("    userId: \"myfakeuser@contoso.com\""))
    #expect(text.contains("  accessToken: <secret \(SecretFingerprint.of("<access token>"))>"))
    #expect(!text.contains("<access token>"))
    #expect(!text.contains("<refresh token>"))
    #expect(!text.contains("eyJ0eXAiOiJKV1Qi"))
    let shown = PropertyListRendering.text(inspection, showSecrets: true)
    #expect(shown.contains("accessToken: \"<access token>\""))
    #expect(shown.contains("rawIdToken: \"eyJ0eXAiOiJKV1Qi"))
  }

  @Test func jsonIsValidAndHidesSecrets() throws {
    let json = PropertyListRendering.json(try adalInspection())
    let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    #expect(object["format"] as? String == "binary-plist")
    #expect((object["keyedArchive"] as? [String: Any])?["rootClass"] as? String == "ADTokenCacheStoreItem")
    let content = try #require(object["content"] as? [String: Any])
    #expect(content["$class"] as? String == "ADTokenCacheStoreItem")
    #expect(content["expiresOn"] as? String == "2001-01-12T13:46:40Z")
    #expect(content["resource"] as? String == "<resource>")
    #expect(content["refreshToken"] as? String == SecretFingerprint.of("<refresh token>"))
    #expect(!json.contains("<access token>"))
  }

  @Test func tokenLikeStringsAreHiddenAnywhere() throws {
    let jwt = "eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.c2lnbmF0dXJl"
    let long = String(repeating: "AbC-_9", count: 12)
    let value = PropertyListValue.dictionary(
      PropertyListDictionary([
        ("note", .string(PropertyListString(jwt))), ("blob", .string(PropertyListString(long))),
        ("version", .string("1.2.3")),
        ("secret", .data(Data([1, 2, 3]))), ("short", .data(Data([9]))), ("long", .data(Data(count: 100))),
      ]))
    let json = PropertyListRendering.json(value)
    #expect(!json.contains(jwt) && !json.contains(long))
    #expect(json.contains(SecretFingerprint.of(jwt)))
    #expect(json.contains("\"version\":\"1.2.3\""))
    #expect(json.contains("\"secret\":\"\(SecretFingerprint.of(Data([1, 2, 3])))\""))
    #expect(json.contains("\"short\":{\"$data\":\"CQ==\"}"))
    #expect(json.contains("\"long\":{\"$data\":null,\"length\":100"))
    #expect(SecretPolicy.looksLikeToken(jwt))
    #expect(!SecretPolicy.looksLikeToken("https://login.microsoftonline.com/common"))
    #expect(!SecretPolicy.looksLikeToken(String(repeating: "a", count: 64)))
    #expect(SecretPolicy.looksLikeToken(String(repeating: "a", count: 65)))
  }

  @Test func plainPlistJSON() throws {
    let file = "plist/top-array.xml.plist"
    let inspection = try PropertyListInspection.inspect(Fixtures.data(file), file: file)
    #expect(inspection.archive == nil)
    #expect(
      PropertyListRendering.json(inspection)
        == "{\"file\":\"plist/top-array.xml.plist\",\"format\":\"xml-plist\",\"keyedArchive\":null,"
        + "\"content\":[\"first\",2,[3.5,{\"k\":\"v\"}]]}\n")
  }

  @Test func errorsNameTheFile() {
    #expect(throws: PropertyListError.self) { try PropertyListInspection.inspect(Data("nope".utf8), file: "x.bin") }
    do {
      _ = try PropertyListInspection.inspect(Data("nope".utf8), file: "x.bin")
    } catch {
      #expect(error.description == "x.bin: offset 0x0: not a property list (expected bplist00 or an XML <plist>)")
    }
  }
}

/// Descriptions never print secrets (they reach logs and test failure messages).
@Suite struct DescriptionTests {
  @Test func descriptionsHideSecrets() throws {
    let file = "adal-objc/adal_keychain_hardcoded_item.bplist"
    let document = try PropertyListReader().read(Fixtures.data(file))
    let archive = try KeyedArchiveReader().read(document.value)
    let item = try #require(archive.root.objectValue)
    let texts = [
      String(describing: archive), String(reflecting: archive.root), "\(item)",
      String(describing: item["userInformation"]),
    ]
    for text in texts {
      #expect(!text.contains("<access token>"))
      #expect(!text.contains("<refresh token>"))
      #expect(!text.contains("eyJ0eXAiOiJKV1Qi"))
    }
    #expect(texts[0].contains("ADTokenCacheStoreItem"))
    #expect(texts[2].contains(SecretFingerprint.of("<access token>")))
    // In a raw (unresolved) archive the coder keys are not next to the strings: token-shaped strings are
    // still recognised.
    let raw = String(describing: document.value)
    #expect(!raw.contains("eyJ0eXAiOiJKV1Qi"))
    let jwt = "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJhYmMifQ.c2lnbmF0dXJlLWJ5dGVz"
    #expect(!String(describing: PropertyListValue.array([.string(PropertyListString(jwt))])).contains(jwt))
  }

  /// The generic tree is what a damaged archive falls back to (`$objects` with one bit flipped), where a token
  /// stands under no key that names it: Azure AD's refresh tokens have dots (`0.AXoA…`) and Microsoft accounts'
  /// `!`, `*` and `$`, which the base64url rule let through, and a token can be a dictionary key.
  @Test func tokensOfEveryShapeAndUnderEveryNameAreHidden() throws {
    let aad = "0.AXoAv4j5cvGGr0GRqy180BHbR8Y" + String(repeating: "Zm9vYmFyLWJhel9xdXV4", count: 20)
    let msa = "M.C5_BAY.-CRq*!$" + String(repeating: "Q2xpZW50SWQ", count: 8)
    let jwt = "eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.c2lnbmF0dXJl"
    let url = "https://login.microsoftonline.com/72f988bf-86f1-41af-91ab-2d7cd011db47/oauth2/v2.0/token"
    let sentence = String(repeating: "a sentence of words ", count: 5)
    let value = PropertyListValue.dictionary(
      PropertyListDictionary([
        ("$objectr", .array([.string(PropertyListString(aad)), .string(PropertyListString(msa))])),
        ("prt", .string("short-prt")), ("signingKey", .string("short-key")), ("certificate", .string("short-cert")),
        (jwt, .string("under a token")), ("endpoint", .string(PropertyListString(url))),
        ("text", .string(PropertyListString(sentence))),
      ]))
    for rendered in [PropertyListRendering.json(value), PropertyListRendering.textTree(value, label: "root")] {
      for hidden in [aad, msa, jwt, "short-prt", "short-key", "short-cert"] {
        #expect(!rendered.contains(hidden), "\(hidden.prefix(12)) shown: \(rendered)")
      }
      #expect(rendered.contains(SecretFingerprint.of(aad)) && rendered.contains(SecretFingerprint.of(jwt)))
      #expect(rendered.contains(url) && rendered.contains(sentence) && rendered.contains("under a token"))
    }
    let shown = PropertyListRendering.json(value, showSecrets: true)
    #expect(shown.contains(aad) && shown.contains(jwt) && shown.contains("short-prt"))
  }

  /// Microsoft account tokens (`M.`, a code such as `R3_BAY`, `.`, an opaque part with `*`, `!`, `$`) are hidden
  /// however short: the length rule let one of 64 characters or fewer through (`adal2msal inspect` showed one
  /// under an ordinary key). Names, versions, URLs, GUIDs and words keep their text.
  @Test func microsoftAccountTokensOfAnyLengthAreHidden() throws {
    let tokens = [
      "M.R3_BAY.-CSECRETMSART*Qm9vZ2x1c2hzb21ldGhpbmc!nDf4Jw$$", "M.C5_BL2.-CRtlQ4X2l4Y*Vm9!nDf$$",
      "M.C107_BAY.0.U.-Cm9*aGVsbG8!d29ybGQ$", "M.R3_BAY.CdF3t2Wq9Lk0Pz7Y/XvB+a==",
    ]
    let ordinary = [
      "https://login.microsoftonline.com/common", "https://graph.microsoft.com/.default",
      "00000003-0000-0000-c000-000000000000", "M.Smith@contoso.com", "M.Smith", "M.Sc.", "M.Sc.Computer-Science-Dept",
      "M.10.1.2.3.4.5.6.7.8.9.10.11", "M.R3_BAY.", "M.R3_BAY.short", "login.windows.net", "refresh", "M.",
      "Mr. M. Smith, Contoso Ltd.", "user@contoso.com", "ADTokenCacheStoreItem", "com.microsoft.adalcache",
    ]
    for (index, token) in tokens.enumerated() {
      #expect(SecretPolicy.looksLikeToken(token), "token \(index)")
      #expect(SecretPolicy.looksLikeToken("Bearer \(token)"), "token \(index) in a header")
    }
    for text in ordinary {
      #expect(!SecretPolicy.looksLikeToken(text), "\(text)")
    }
    // The auditor's input: a plain plist with the token under `rt`.
    let value = PropertyListValue.dictionary(
      PropertyListDictionary([
        ("cache", .dictionary(PropertyListDictionary([("rt", .string(PropertyListString(tokens[0])))]))),
        ("authority", .string(PropertyListString(ordinary[0]))),
      ]))
    for rendered in [PropertyListRendering.json(value), PropertyListRendering.textTree(value, label: "content")] {
      #expect(!rendered.contains("SECRET") && rendered.contains(SecretFingerprint.of(tokens[0])), "\(rendered)")
      #expect(rendered.contains(ordinary[0]))
    }
  }

  /// `dump`, the debugger and Swift Testing walk a value's mirror, not its description: without custom mirrors
  /// they printed the enum payloads, text and all. A secret hidden by its key (a short client secret under
  /// `refreshToken`) stays hidden in the mirror's children, and a dictionary entry shows its value under its key.
  @Test func mirrorsAndDumpsHideSecrets() throws {
    let secret = "client-SECRET-1"
    let jwt = "eyJhbGciOiJub25lIn0.eyJTRUNSRVQiOjF9.SECRETsig"
    let msa = "M.R3_BAY.-CSECRETMSART*Qm9vZ2x1c2hzb21ldGhpbmc!nDf4Jw$$"
    let dictionary = PropertyListDictionary([
      ("refreshToken", .string(PropertyListString(secret))), ("items", .array([.string(PropertyListString(jwt))])),
      ("rt", .string(PropertyListString(msa))), ("sessionKey", .data(Data(secret.utf8))),
      ("authority", .string("https://login.microsoftonline.com/common")),
    ])
    let object = ArchivedObject(
      className: "ADTokenCacheStoreItem",
      fields: [
        ("refreshToken", .string(PropertyListString(secret))), ("accessToken", .data(Data(secret.utf8))),
        ("note", .string(PropertyListString(msa))), ("resource", .string("https://graph.microsoft.com")),
      ],
      objectIndex: 3)
    let entry = ArchiveDictionaryEntry(key: .string("refreshToken"), value: .string(PropertyListString(secret)))
    let objectKeyed = ArchiveDictionaryEntry(key: .object(object), value: .string(PropertyListString(jwt)))
    let archive = KeyedArchive(
      top: [("root", .object(object)), ("refreshToken", .string(PropertyListString(secret)))], root: .object(object),
      rootClassName: object.className)
    let values: [Any] = [
      PropertyListValue.dictionary(dictionary), dictionary, ArchiveValue.object(object), object,
      ArchiveValue.dictionary([entry, objectKeyed]), entry, objectKeyed, archive,
      PropertyListString(msa), PropertyListString(jwt), [PropertyListString(jwt)],
      PropertyListDocument(format: .xml, value: .dictionary(dictionary)),
    ]
    for value in values {
      var dumped = ""
      dump(value, to: &dumped)
      for text in [String(describing: value), String(reflecting: value), "\(value)", dumped] {
        #expect(!text.contains("SECRET"), "\(type(of: value)) shows a secret: \(text)")
      }
    }
    var dumped = ""
    dump(object, to: &dumped)
    #expect(dumped.contains(SecretFingerprint.of(secret)) && dumped.contains("https://graph.microsoft.com"))
    #expect(entry.description == "\"refreshToken\": \"\(SecretFingerprint.of(secret))\"")
    #expect(PropertyListString("plain text").description == "plain text")
    #expect(PropertyListString("plain text").debugDescription == "\"plain text\"")
  }

  /// A token inside a string (an `Authorization` header's value, a redirect URL's `code` or `access_token`) is hidden
  /// with the string; a URL and a sentence without one keep their text. (`Bearer eyJ…` and `msauth://…?code=0.AX…`
  /// were shown whole.)
  @Test func aTokenInsideAStringHidesTheString() throws {
    let jwt = "eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.c2lnbmF0dXJl"
    let code = "0.AXoAv4j5cvGGr0GRqy180BHbR8Y" + String(repeating: "Zm9vYmFyLWJhel9xdXV4", count: 4)
    let hidden = [
      "Bearer \(jwt)", "msauth.com.contoso.app://auth/?code=\(code)&state=x",
      "https://app.example/#access_token=\(jwt)&token_type=Bearer", "token=\"\(jwt)\"",
    ]
    let kept = [
      "https://login.microsoftonline.com/common/oauth2/v2.0/authorize?client_id=abc&scope=openid",
      "a sentence, with words; and = signs & more",
    ]
    for text in hidden {
      #expect(SecretPolicy.looksLikeToken(text), "\(text.prefix(20))")
    }
    for text in kept {
      #expect(!SecretPolicy.looksLikeToken(text), "\(text)")
    }
    let value = PropertyListValue.dictionary(
      PropertyListDictionary(hidden.enumerated().map { ("field\($0.offset)", .string(PropertyListString($0.element))) })
    )
    for rendered in [PropertyListRendering.json(value), PropertyListRendering.textTree(value, label: "root")] {
      #expect(!rendered.contains(jwt) && !rendered.contains(code), "\(rendered)")
    }
  }
}
