import Foundation

/// What a text holds in base64 or base64url, for tests that a redacted report hides a value also when it is
/// encoded (a `client_info` is base64url JSON holding the account's uid).
public enum EncodedText {
  /// Every run of at least `minimumLength` base64 or base64url characters in `text`, decoded (as UTF-8, invalid
  /// bytes replaced) from each of its first four offsets, so that an encoded value inside a longer run is
  /// decoded whatever its alignment.
  public static func decodedRuns(in text: String, minimumLength: Int = 8) -> [String] {
    var decoded: [String] = []
    var run: [UInt8] = []
    func flush() {
      defer { run.removeAll(keepingCapacity: true) }
      guard run.count >= minimumLength else { return }
      for offset in 0..<min(4, run.count) {
        if let data = decode(run[offset...]) { decoded.append(String(decoding: data, as: UTF8.self)) }
      }
    }
    for byte in text.utf8 {
      if isEncodingByte(byte) { run.append(byte) } else { flush() }
    }
    flush()
    return decoded
  }

  private static func isEncodingByte(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"):
      true
    case UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "+"), UInt8(ascii: "/"), UInt8(ascii: "="): true
    default: false
    }
  }

  /// Base64 in either alphabet, with or without padding; a dangling last character is dropped.
  private static func decode(_ bytes: ArraySlice<UInt8>) -> Data? {
    var standard: [UInt8] = bytes.compactMap { byte in
      switch byte {
      case UInt8(ascii: "="): nil
      case UInt8(ascii: "-"): UInt8(ascii: "+")
      case UInt8(ascii: "_"): UInt8(ascii: "/")
      default: byte
      }
    }
    if standard.count % 4 == 1 { standard.removeLast() }
    while standard.count % 4 != 0 { standard.append(UInt8(ascii: "=")) }
    return Data(base64Encoded: Data(standard))
  }
}

/// Whether a report's text shows a personal value, outside what a redacted report keeps as it is: hosts (a
/// family name "Example" is in `login.example-cloud.test`) and the paths of the inputs (a username "test" is
/// in `…-plugin-test.json`).
public enum ShownValue {
  /// Whether `text` holds `name` as a whole word (case-insensitive), dotted names and absolute paths left out:
  /// "Alice" in "Alice Example", not in "malice".
  public static func holds(_ text: String, name: String) -> Bool {
    let escaped = NSRegularExpression.escapedPattern(for: name)
    return withoutPaths(text).replacingOccurrences(
      of: #"[\p{L}\p{N}_-]+(\.[\p{L}\p{N}_-]+)+"#, with: " ", options: .regularExpression
    )
    .range(of: #"(?<![\p{L}\p{N}])"# + escaped + #"(?![\p{L}\p{N}])"#, options: [.regularExpression, .caseInsensitive])
      != nil
  }

  /// Whether `text` holds `id` anywhere (case-insensitive), absolute paths left out.
  public static func holds(_ text: String, id: String) -> Bool {
    withoutPaths(text).lowercased().contains(id.lowercased())
  }

  /// `text` without absolute paths (a `/` after a space, a quote, a backtick, `(`, a Markdown cell's `<br>` or the
  /// start, up to a space, a quote, a backtick, `#`, `)` or `:`).
  static func withoutPaths(_ text: String) -> String {
    text.replacingOccurrences(of: #"(?<=^|[\s"'`(>])/[^\s"'`#):]+"#, with: " ", options: .regularExpression)
  }
}
