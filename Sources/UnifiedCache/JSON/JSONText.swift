/// Serializes a `JSONValue` to JSON text, keeping key order and number text.
public enum JSONText {
  /// One line, no spaces.
  public static func compact(_ value: JSONValue) -> String {
    var writer = JSONWriter()
    writer.value(value)
    return writer.text
  }

  /// Indented with `indent` spaces per level, `"key": value` (the layout of MSAL.NET and Python).
  public static func pretty(_ value: JSONValue, indent: Int = 4) -> String {
    var writer = JSONWriter(indent: indent)
    writer.value(value)
    return writer.text
  }
}
