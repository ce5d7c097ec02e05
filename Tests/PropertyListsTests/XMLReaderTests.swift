import Adal2MSALSupport
import Foundation
import PropertyLists
import Testing

/// The XML reader: scalars in their various spellings, and hostile documents.
@Suite struct XMLReaderTests {
  static let header = """
    <?xml version="1.0" encoding="UTF-8"?>
    <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
    <plist version="1.0">

    """

  func read(_ body: String, limits: InputLimits = .default) throws -> PropertyListValue {
    try PropertyListReader(limits: limits).read(Data((Self.header + body + "\n</plist>\n").utf8), file: "t.plist").value
  }

  func error(_ xml: String, limits: InputLimits = .default) -> PropertyListError? {
    do {
      _ = try PropertyListReader(limits: limits).read(Data(xml.utf8), file: "t.plist")
      return nil
    } catch {
      return error
    }
  }

  @Test func scalars() throws {
    #expect(try read("<string></string>") == .string(""))
    #expect(try read("<string/>") == .string(""))
    #expect(
      try read("<string>a &lt; b &amp;&amp; c &gt; d &quot;q&quot; &apos;s&apos; &#x1F600;&#65;</string>")
        == .string("a < b && c > d \"q\" 's' 😀A"))
    #expect(try read("<string><![CDATA[<raw> & ]]>tail</string>") == .string("<raw> & tail"))
    #expect(try read("<integer>-42</integer>") == .integer(-42))
    #expect(try read("<integer> 18446744073709551615 </integer>") == .integer(Int128(UInt64.max)))
    #expect(try read("<integer>-9223372036854775808</integer>") == .integer(Int128(Int64.min)))
    #expect(try read("<integer>0x1F</integer>") == .integer(31))
    #expect(try read("<real>-0.5</real>") == .real(-0.5))
    #expect(try read("<real>+infinity</real>") == .real(.infinity))
    #expect(try read("<real>-inf</real>") == .real(-.infinity))
    #expect(try read("<real>nan</real>").isNaNReal)
    #expect(try read("<true/>") == .bool(true))
    #expect(try read("<false></false>") == .bool(false))
    #expect(try read("<date>2001-01-01T00:00:00Z</date>") == .date(Date(timeIntervalSinceReferenceDate: 0)))
    #expect(try read("<date>2024-02-29T23:59:59Z</date>") == .date(Date(timeIntervalSince1970: 1_709_251_199)))
    #expect(try read("<data>\n\tAAEC\n\tAw==\n</data>") == .data(Data([0, 1, 2, 3])))
    #expect(try read("<data></data>") == .data(Data()))
    #expect(try read("<array/>") == .array([]))
    #expect(try read("<dict/>") == .dictionary(PropertyListDictionary()))
    #expect(try read("<dict><key>CF$UID</key><integer>7</integer></dict>") == .uid(7))
    #expect(try read("<dict><key>CF$UID</key><integer>7</integer><key>x</key><true/></dict>")["x"] == .bool(true))
  }

  @Test func badScalars() {
    #expect(error(Self.header + "<integer>12a</integer></plist>")?.message.contains("<integer>") == true)
    #expect(error(Self.header + "<integer>99999999999999999999999999999999999999999</integer></plist>") != nil)
    #expect(error(Self.header + "<date>2001-02-30T00:00:00Z</date></plist>")?.message.contains("ISO 8601") == true)
    #expect(error(Self.header + "<data>A</data></plist>")?.message.contains("base64") == true)
    #expect(error(Self.header + "<real>one</real></plist>")?.message.contains("<real>") == true)
    #expect(error(Self.header + "<dict><string>x</string></dict></plist>")?.message.contains("expected <key>") == true)
    #expect(error(Self.header + "<foo/></plist>")?.message == "unknown element <foo>")
    #expect(error(Self.header + "<dict><key>CF$UID</key><integer>-1</integer></dict></plist>") != nil)
  }

  @Test func unterminatedXMLHasLineAndColumn() throws {
    let failure = try #require(error(Self.header + "<array>\n  <string>open\n"))
    #expect(failure.message.hasPrefix("malformed XML:"))
    #expect(failure.location.line != nil)
    #expect(failure.location.column != nil)
    #expect(failure.location.file == "t.plist")
    let mismatched = try #require(error(Self.header + "<array>\n<string>x</array>\n</plist>"))
    #expect(mismatched.location.line == 5)
    #expect(mismatched.message.contains("mismatch"))
    #expect(!mismatched.message.contains("truncated"), "a file that ends with </plist> is whole")
  }

  /// A file cut short: libxml2 calls it "Extra content at the end of the document" or "Premature end of data".
  @Test func aTruncatedDocumentIsNamedAsOne() throws {
    let whole =
      Self.header
      + "<array>\n  <dict>\n    <key>acct</key>\n    <string>alice</string>\n  </dict>\n</array>\n</plist>\n"
    for cut in [whole.count / 4, whole.count / 2, whole.count - 12] {
      let failure = try #require(error(String(whole.prefix(cut))), "cut at \(cut)")
      #expect(failure.message.hasSuffix("(the file ends before </plist>: truncated?)"), "\(cut): \(failure.message)")
    }
  }

  @Test func billionLaughsIsRejected() throws {
    let xml = """
      <?xml version="1.0"?>
      <!DOCTYPE plist [
        <!ENTITY lol "lol">
        <!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
        <!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">
        <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
      ]>
      <plist version="1.0"><string>&lol3;</string></plist>
      """
    let failure = try #require(error(xml))
    #expect(failure.message == "DOCTYPE with an internal subset (entity declarations) is not allowed")
  }

  @Test func externalEntityIsRejectedAndNothingIsRead() throws {
    let hostname = (try? String(contentsOfFile: "/etc/hostname", encoding: .utf8))?
      .trimmingCharacters(in: .whitespacesAndNewlines)
    let xml = """
      <?xml version="1.0"?>
      <!DOCTYPE plist [ <!ENTITY xxe SYSTEM "file:///etc/hostname"> ]>
      <plist version="1.0"><string>&xxe;</string></plist>
      """
    let failure = try #require(error(xml))
    #expect(failure.message.contains("not allowed"))
    if let hostname, !hostname.isEmpty { #expect(!failure.description.contains(hostname)) }
  }

  @Test func entityReferenceWithoutInternalSubsetIsRejected() throws {
    // An entity that the (never loaded) external DTD would define: libxml2 reports a reference node.
    let failure = try #require(error(Self.header + "<string>&undefined;</string></plist>"))
    #expect(failure.message.contains("entit") || failure.message.contains("Entity"))
  }

  @Test func tenThousandDeepNesting() throws {
    let deep =
      Self.header + String(repeating: "<array>", count: 10_000) + String(repeating: "</array>", count: 10_000)
      + "</plist>"
    let failure = try #require(error(deep))
    #expect(failure.location.line != nil)
    #expect(failure.message.contains("depth") || failure.message.contains("nested deeper"))
    let limited = try #require(error(deep, limits: InputLimits(maxDepth: 100)))
    #expect(limited.message == "containers nested deeper than the limit of 100")
  }

  @Test func structureErrors() {
    #expect(error(Self.header + "</plist>")?.message.contains("empty") == true)
    #expect(error(Self.header + "<true/><false/></plist>")?.message.contains("more than one value") == true)
    #expect(error("<?xml version=\"1.0\"?><array/>")?.message.contains("expected <plist>") == true)
    #expect(
      error(
        Self.header + "<string>" + String(repeating: "x", count: 200) + "</string></plist>",
        limits: InputLimits(maxStringBytes: 100))?.message.contains("exceeds the limit") == true)
  }
}

extension PropertyListValue {
  var isNaNReal: Bool {
    if case .real(let number) = self { return number.isNaN }
    return false
  }
}

@Suite struct XMLErrorMessageTests {
  @Test func libxml2MessagesAreOneLineWithoutInputBytes() throws {
    let xml =
      Data("<?xml version=\"1.0\"?>\n<plist><string>".utf8) + Data([0xFF, 0xFE]) + Data("</string></plist>".utf8)
    do {
      _ = try PropertyListReader().read(xml, file: "bad.plist")
      Issue.record("expected an error")
    } catch {
      #expect(error.description.hasPrefix("bad.plist: line 2:"))
      #expect(!error.description.contains("\n"))
      #expect(!error.description.contains("0xFF"))
    }
  }
}

@Suite struct XMLEncodingTests {
  func error(_ data: Data) -> PropertyListError? {
    do {
      _ = try XMLPropertyListReader().read(data)
      return nil
    } catch {
      return error
    }
  }

  @Test func onlyUTF8IsAccepted() throws {
    let body = "<plist version=\"1.0\"><string>caf\u{e9}</string></plist>"
    #expect(
      try XMLPropertyListReader().read(Data(("<?xml version=\"1.0\" encoding=\"UTF-8\"?>" + body).utf8))
        == .string("café"))
    #expect(try XMLPropertyListReader().read(Data([0xEF, 0xBB, 0xBF] + Array(body.utf8))) == .string("café"))
    let latin = Data(("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>" + body).utf8)
    #expect(error(latin)?.message == "only UTF-8 XML property lists are supported (declared encoding \"iso-8859-1\")")
    // An internal subset hidden behind a switch to UTF-16 never reaches libxml2.
    let hidden =
      Data("<?xml version=\"1.0\" encoding=\"UTF-16\"?>".utf8)
      + Data("<!DOCTYPE plist [<!ENTITY a \"b\">]><plist/>".utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })
    #expect(error(hidden)?.message.contains("only UTF-8") == true)
    var utf16 = Data([0xFF, 0xFE])
    utf16.append(contentsOf: body.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })
    #expect(error(utf16)?.message.contains("only UTF-8") == true)
  }

  @Test func longPrologIsRefused() {
    let padding = "<!--" + String(repeating: "x", count: 70_000) + "-->"
    let xml =
      "<?xml version=\"1.0\"?>" + padding + "<!DOCTYPE plist [<!ENTITY a \"b\">]><plist><string>&a;</string></plist>"
    #expect(error(Data(xml.utf8))?.message == "the XML prolog (before the root element) is longer than 64 KiB")
  }
}
