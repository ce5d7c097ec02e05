extension Array where Element == UInt8 {
  /// Appends `text`'s UTF-8 bytes in one copy. The reports are built as bytes, a few short strings per line,
  /// and the generic `append(contentsOf: text.utf8)` cost several times the copy itself on short strings.
  mutating func appendUTF8(_ text: String) {
    // Not `withUTF8`, which is mutating: its copy of `text` was a retain and a release of strings that both
    // cores share (file paths, hosts, indents), contended.
    if text.utf8.withContiguousStorageIfAvailable({ append(contentsOf: $0) }) == nil { append(contentsOf: text.utf8) }
  }
}
