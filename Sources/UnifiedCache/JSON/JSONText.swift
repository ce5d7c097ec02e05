/// Serializes a `JSONValue` to JSON text, keeping key order and number text.
public enum JSONText {
  /// One line, no spaces.
  public static func compact(_ value: JSONValue) -> String {
    var out = ""
    write(value, into: &out, indent: nil, level: 0)
    return out
  }

  /// Indented with `indent` spaces per level, `"key": value` (the layout of MSAL.NET and Python).
  public static func pretty(_ value: JSONValue, indent: Int = 4) -> String {
    var out = ""
    write(value, into: &out, indent: indent, level: 0)
    return out
  }

  static func write(_ value: JSONValue, into out: inout String, indent: Int?, level: Int) {
    switch value {
    case .null: out += "null"
    case .bool(let flag): out += flag ? "true" : "false"
    case .number(let text): out += text
    case .string(let text): writeString(text, into: &out)
    case .array(let items):
      writeContainer(open: "[", close: "]", count: items.count, into: &out, indent: indent, level: level) { index, out in
        write(items[index], into: &out, indent: indent, level: level + 1)
      }
    case .object(let object):
      let members = object.members
      writeContainer(open: "{", close: "}", count: members.count, into: &out, indent: indent, level: level) { index, out in
        writeString(members[index].key, into: &out)
        out += indent == nil ? ":" : ": "
        write(members[index].value, into: &out, indent: indent, level: level + 1)
      }
    }
  }

  private static func writeContainer(
    open: String, close: String, count: Int, into out: inout String, indent: Int?, level: Int,
    element: (Int, inout String) -> Void
  ) {
    out += open
    guard count > 0 else { return out += close }
    for index in 0..<count {
      if index > 0 { out += "," }
      if let indent { out += "\n" + String(repeating: " ", count: indent * (level + 1)) }
      element(index, &out)
    }
    if let indent { out += "\n" + String(repeating: " ", count: indent * level) }
    out += close
  }

  /// A JSON string literal: escapes `"`, `\` and control characters; everything else is written as UTF-8.
  static func writeString(_ text: String, into out: inout String) {
    out += "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case "\u{08}": out += "\\b"
      case "\u{0C}": out += "\\f"
      case _ where scalar.value < 0x20:
        let hex = String(scalar.value, radix: 16)
        out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: out.unicodeScalars.append(scalar)
      }
    }
    out += "\""
  }
}
