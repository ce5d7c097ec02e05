public import Adal2MSALSupport
public import Foundation

/// The two property list encodings this module reads.
public enum PropertyListFormat: String, Sendable, Hashable, Codable {
  /// `bplist00`.
  case binary = "binary-plist"
  /// An XML property list (`<plist>`).
  case xml = "xml-plist"

  /// Recognises a property list by its content: `.binary` for the `bplist00` magic, `.xml` for an optional
  /// UTF-8 byte order mark and whitespace followed by `<?xml`, `<plist` or `<!DOCTYPE plist`; nil otherwise.
  public static func sniff(_ data: Data) -> PropertyListFormat? {
    if data.starts(with: Array("bplist00".utf8)) { return .binary }
    var rest = data[...]
    if rest.starts(with: [0xEF, 0xBB, 0xBF]) { rest = rest.dropFirst(3) }
    rest = rest.drop { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
    for opening in ["<?xml", "<plist", "<!DOCTYPE plist"] where rest.starts(with: Array(opening.utf8)) {
      return .xml
    }
    return nil
  }

  /// A human-readable name (`binary property list`).
  public var displayName: String {
    switch self {
    case .binary: "binary property list"
    case .xml: "XML property list"
    }
  }
}

/// A property list read from bytes: its encoding and its value.
public struct PropertyListDocument: Sendable, Hashable {
  public var format: PropertyListFormat
  public var value: PropertyListValue

  public init(format: PropertyListFormat, value: PropertyListValue) {
    self.format = format
    self.value = value
  }
}

/// The one entry point for reading property lists: sniffs the format and runs the binary or XML reader.
///
/// ```swift
/// let document = try PropertyListReader().read(data, file: "item.plist")
/// if KeyedArchive.isKeyedArchive(document.value) { … }
/// ```
public struct PropertyListReader: Sendable {
  public var limits: InputLimits
  /// Whether a binary property list's data objects share the input's storage (`BinaryPropertyListReader.borrowsData`).
  public var borrowsData: Bool

  public init(limits: InputLimits = .default, borrowsData: Bool = false) {
    self.limits = limits
    self.borrowsData = borrowsData
  }

  /// Reads a binary or XML property list.
  /// - Throws: `PropertyListError` naming `file` (when given) and the place in it.
  public func read(_ data: Data, file: String? = nil) throws(PropertyListError) -> PropertyListDocument {
    guard data.count <= limits.maxInputBytes else {
      throw PropertyListError(
        "input is \(data.count) bytes, larger than the limit of \(limits.maxInputBytes)", at: SourceLocation(file: file)
      )
    }
    do throws(PropertyListError) {
      switch PropertyListFormat.sniff(data) {
      case .binary:
        return PropertyListDocument(
          format: .binary, value: try BinaryPropertyListReader(limits: limits, borrowsData: borrowsData).read(data))
      case .xml:
        return PropertyListDocument(format: .xml, value: try XMLPropertyListReader(limits: limits).read(data))
      case nil:
        throw PropertyListError.at(offset: 0, "not a property list (expected bplist00 or an XML <plist>)")
      }
    } catch {
      throw error.inFile(file)
    }
  }
}
