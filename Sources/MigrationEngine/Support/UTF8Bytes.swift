extension Array where Element == UInt8 {
  /// Appends `text`'s UTF-8 bytes in one copy. The reports are built as bytes, a few short strings per line,
  /// and the generic `append(contentsOf: text.utf8)` cost several times the copy itself on short strings.
  mutating func appendUTF8(_ text: String) {
    var text = text
    text.withUTF8 { append(contentsOf: $0) }
  }
}
