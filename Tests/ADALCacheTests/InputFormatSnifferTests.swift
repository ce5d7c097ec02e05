import ADALCache
import Foundation
import Testing
import _Adal2MSALTestSupport

/// The text formats the sniffer names are named wherever their text is, though it now looks for their ASCII in
/// the bytes before it decodes any text: that look may let an input through to the text checks, never keep one
/// from them.
@Suite struct InputFormatSnifferTests {
  private func refusal(_ text: String) -> InputFormatSniffer.Refusal? {
    InputFormatSniffer.refusal(Data(text.utf8))
  }

  private static let dumperRecord = [
    "Generic Password", "----------------", "Service: AirDrop", "Account: local", "Entitlement Group: com.apple",
    "Label: (null)", "Generic Field: (null)", "Keychain Data: 2b4f5a",
  ]

  @Test func keychainDumperTextIsNamed() throws {
    let data = try Data(contentsOf: RealWorldCaches.url("keychain-dumper_output_from-owasp-mastg.txt"))
    #expect(InputFormatSniffer.refusal(data) == .unsupported(.keychainDumperText))
    #expect(refusal(Self.dumperRecord.joined(separator: "\r\n")) == .unsupported(.keychainDumperText))
  }

  /// A String compares by canonical equivalence, under which U+212A KELVIN SIGN is `K`: a line that starts with
  /// it starts with `Keychain Data: `, though its bytes do not.
  @Test func aKelvinSignStartsTheKeychainDataField() {
    let lines = Self.dumperRecord.map { $0.replacingOccurrences(of: "Keychain Data", with: "\u{212A}eychain Data") }
    let text = lines.joined(separator: "\n")
    #expect(Data(text.utf8).range(of: Data("Keychain Data".utf8)) == nil)
    #expect(refusal(text) == .unsupported(.keychainDumperText))
  }

  /// Every field in the text, but not at the start of a line: not Keychain-Dumper's output.
  @Test func fieldsInsideLinesAreNotDumperText() {
    let text = Self.dumperRecord.map { "> " + $0 }.joined(separator: "\n")
    #expect(refusal(text) == nil)
    #expect(refusal(Self.dumperRecord.dropLast().joined(separator: "\n")) == nil)
  }

  @Test func androidPreferencesAreNamedAndPropertyListsAreNot() throws {
    let android = """
      <?xml version='1.0' encoding='utf-8' standalone='yes' ?>
      <map>
          <string name="key">cE1value</string>
      </map>
      """
    #expect(refusal(android) == .unsupported(.adalAndroidPreferences))
    #expect(refusal(android.replacingOccurrences(of: "<map>", with: "<plist><map>")) == nil)
    #expect(InputFormatSniffer.refusal(try Fixtures.data("adal/archive-e4-at.xml.plist")) == nil)
    #expect(InputFormatSniffer.refusal(try Fixtures.data("adal/archive-e4-at.bplist")) == nil)
  }

  /// An ADAL.NET v3 blob in base64 (as apps stored `TokenCache.Serialize()`): version 3, one entry, its key.
  @Test func aBase64DotNetBlobIsNamed() {
    let key = Array("https://login.microsoftonline.com/common:::https://graph:::client:::user".utf8)
    let blob: [UInt8] = [3, 0, 0, 0, 1, 0, 0, 0, UInt8(key.count)] + key
    let text = Data(blob).base64EncodedString()
    #expect(text.hasPrefix("AwAAA"))
    #expect(refusal(text) == .unsupported(.adalDotNetV3))
    #expect(refusal("AwAAA is not base64") == nil)
  }
}
