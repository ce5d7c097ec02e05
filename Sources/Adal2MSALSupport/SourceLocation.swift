/// Where something was found: a file, and within it an item, a byte offset, a line and column, or a key path.
///
/// Every error and diagnostic carries one, so that a message names the file and the place in it.
public struct SourceLocation: Sendable, Hashable, Codable, CustomStringConvertible {
  public var file: String?
  /// The index of the item within a dump (0-based), when the input holds several items.
  public var itemIndex: Int?
  /// A byte offset within the file or within the item's data.
  public var byteOffset: Int?
  /// 1-based line and column, for text formats.
  public var line: Int?
  public var column: Int?
  /// A JSON-style key path such as `RefreshToken.<key>.secret`, or an archive path such as `$objects[12]`.
  public var keyPath: String?

  public init(
    file: String? = nil, itemIndex: Int? = nil, byteOffset: Int? = nil, line: Int? = nil, column: Int? = nil,
    keyPath: String? = nil
  ) {
    self.file = file
    self.itemIndex = itemIndex
    self.byteOffset = byteOffset
    self.line = line
    self.column = column
    self.keyPath = keyPath
  }

  /// A copy with the file set (readers of in-memory data leave it nil; callers that know the path fill it in).
  public func inFile(_ path: String?) -> SourceLocation {
    var copy = self
    if copy.file == nil { copy.file = path }
    return copy
  }

  /// `file, item 3, offset 0x1f (31), line 2:5, at $objects[4]`
  public var description: String {
    var parts: [String] = []
    if let file { parts.append(file) }
    if let itemIndex { parts.append("item \(itemIndex)") }
    if let byteOffset { parts.append("offset \(byteOffset)") }
    if let line { parts.append(column.map { "line \(line):\($0)" } ?? "line \(line)") }
    if let keyPath { parts.append("at \(keyPath)") }
    return parts.isEmpty ? "<input>" : parts.joined(separator: ", ")
  }
}
