public import Adal2MSALSupport
public import Foundation

/// A fatal problem reading a property list or resolving a keyed archive.
///
/// The message says what was expected at the place named by `location` (a byte offset for binary property
/// lists, a line and column for XML, `$objects[n]` for keyed archives). It never contains a decoded value, so
/// it cannot leak a secret.
public struct PropertyListError: Error, LocalizedError, CustomStringConvertible, Sendable, Hashable {
  /// What went wrong, without the place (for example `object reference 17 out of range (12 objects)`).
  public var message: String
  public var location: SourceLocation

  public init(_ message: String, at location: SourceLocation) {
    self.message = message
    self.location = location
  }

  /// A copy naming `file` (readers of in-memory data leave it unset).
  public func inFile(_ file: String?) -> PropertyListError {
    PropertyListError(message, at: location.inFile(file))
  }

  /// The place without the file, then the message: `offset 0x2a: object reference 17 out of range (12 objects)`.
  public var messageWithPlace: String {
    var parts: [String] = []
    if let itemIndex = location.itemIndex { parts.append("item \(itemIndex)") }
    if let offset = location.byteOffset { parts.append("offset 0x" + String(offset, radix: 16)) }
    if let line = location.line { parts.append(location.column.map { "line \(line):\($0)" } ?? "line \(line)") }
    if let keyPath = location.keyPath { parts.append(keyPath) }
    return (parts + [message]).joined(separator: ": ")
  }

  /// `file: offset 0x2a: object reference 17 out of range (12 objects)`.
  public var description: String {
    location.file.map { "\($0): \(messageWithPlace)" } ?? messageWithPlace
  }

  public var errorDescription: String? { description }

  static func at(offset: Int, _ message: String) -> PropertyListError {
    PropertyListError(message, at: SourceLocation(byteOffset: offset))
  }

  static func at(line: Int?, column: Int?, _ message: String) -> PropertyListError {
    PropertyListError(message, at: SourceLocation(line: line, column: column))
  }

  static func at(object index: Int, _ message: String) -> PropertyListError {
    PropertyListError(message, at: SourceLocation(keyPath: "$objects[\(index)]"))
  }
}
