import Adal2MSALSupport
internal import CLibXML2
import Foundation

/// One node of interest from libxml2's reader.
enum XMLEvent {
  case start(name: String, isEmpty: Bool)
  case end(name: String)
  case text(String)
}

/// Recursive descent over libxml2's node stream, building `PropertyListValue`s.
struct XMLPropertyListParser {
  let xml: LibXML2
  let reader: OpaquePointer
  let errors: XMLErrorCollector
  let limits: InputLimits
  private var objectCount = 0

  init(xml: LibXML2, reader: OpaquePointer, errors: XMLErrorCollector, limits: InputLimits) {
    self.xml = xml
    self.reader = reader
    self.errors = errors
    self.limits = limits
  }

  /// The line of the current node, for messages.
  private var line: Int? {
    guard let node = xml.currentNode(reader) else { return nil }
    let line = Int(xml.lineNumber(node))
    return line > 0 ? line : nil
  }

  private func fail(_ message: String) -> PropertyListError { .at(line: line, column: nil, message) }

  /// The next element, end tag or text, skipping comments, processing instructions and a harmless DOCTYPE.
  private mutating func next() throws(PropertyListError) -> XMLEvent? {
    while true {
      let status = xml.read(reader)
      if let error = errors.first { throw error }
      if status == 0 { return nil }
      guard status == 1 else { throw fail("malformed XML") }
      switch xml.nodeType(reader) {
      case Int32(XML_READER_TYPE_ELEMENT.rawValue):
        return .start(name: currentName, isEmpty: xml.isEmptyElement(reader) == 1)
      case Int32(XML_READER_TYPE_END_ELEMENT.rawValue):
        return .end(name: currentName)
      case Int32(XML_READER_TYPE_TEXT.rawValue), Int32(XML_READER_TYPE_CDATA.rawValue),
        Int32(XML_READER_TYPE_WHITESPACE.rawValue), Int32(XML_READER_TYPE_SIGNIFICANT_WHITESPACE.rawValue):
        return .text(xml.constValue(reader).map { String(cString: $0) } ?? "")
      case Int32(XML_READER_TYPE_ENTITY_REFERENCE.rawValue), Int32(XML_READER_TYPE_ENTITY.rawValue):
        throw fail("entity references are not allowed (only the predefined entities and character references)")
      case Int32(XML_READER_TYPE_DOCUMENT_TYPE.rawValue):
        if let subset = xml.currentDocument(reader)?.pointee.intSubset, subset.pointee.children != nil {
          throw fail("DOCTYPE with an internal subset (entity declarations) is not allowed")
        }
      default:
        continue  // comments, processing instructions, XML declaration
      }
    }
  }

  private var currentName: String {
    xml.constName(reader).map { String(cString: $0) } ?? ""
  }

  mutating func readDocument() throws(PropertyListError) -> PropertyListValue {
    var root: PropertyListValue?
    while let event = try next() {
      switch event {
      case .start(let name, let isEmpty) where root == nil:
        guard name == "plist" else { throw fail("expected <plist>, found <\(Self.shortName(name))>") }
        guard !isEmpty else { throw fail("<plist> is empty, expected one value") }
        root = try readPlistBody()
      case .text(let text) where XMLScalars.trimmed(text).isEmpty:
        continue
      default:
        throw fail("unexpected content after </plist>")
      }
    }
    guard let root else { throw fail("no <plist> element") }
    return root
  }

  private mutating func readPlistBody() throws(PropertyListError) -> PropertyListValue {
    var value: PropertyListValue?
    while let event = try next() {
      switch event {
      case .start(let name, let isEmpty):
        guard value == nil else { throw fail("<plist> holds more than one value") }
        value = try readValue(name, isEmpty: isEmpty, depth: 0)
      case .end:
        guard let value else { throw fail("<plist> is empty, expected one value") }
        return value
      case .text(let text):
        guard XMLScalars.trimmed(text).isEmpty else { throw fail("unexpected text in <plist>") }
      }
    }
    throw fail("unterminated <plist>")
  }

  private mutating func readValue(
    _ name: String, isEmpty: Bool, depth: Int
  ) throws(PropertyListError) -> PropertyListValue {
    objectCount += 1
    guard objectCount <= limits.maxObjects else { throw fail("more than \(limits.maxObjects) values") }
    switch name {
    case "string": return .string(PropertyListString(isEmpty ? "" : try readText(name)))
    case "true", "false":
      if !isEmpty, !XMLScalars.trimmed(try readText(name)).isEmpty { throw fail("<\(name)/> must be empty") }
      return .bool(name == "true")
    case "integer":
      guard let value = XMLScalars.integer(isEmpty ? "" : try readText(name)) else {
        throw fail("<integer> is not a decimal or 0x hexadecimal integer of at most 128 bits")
      }
      return .integer(value)
    case "real":
      guard let value = XMLScalars.real(isEmpty ? "" : try readText(name)) else {
        throw fail("<real> is not a number")
      }
      return .real(value)
    case "date":
      guard let value = XMLScalars.date(isEmpty ? "" : try readText(name)) else {
        throw fail("<date> is not an ISO 8601 date of the form 2001-01-01T00:00:00Z")
      }
      return .date(value)
    case "data":
      guard let value = XMLScalars.data(isEmpty ? "" : try readText(name)) else {
        throw fail("<data> is not valid base64")
      }
      return .data(value)
    case "array":
      guard depth < limits.maxDepth else { throw fail("containers nested deeper than the limit of \(limits.maxDepth)") }
      return .array(isEmpty ? [] : try readArray(depth: depth))
    case "dict":
      guard depth < limits.maxDepth else { throw fail("containers nested deeper than the limit of \(limits.maxDepth)") }
      return isEmpty ? .dictionary(PropertyListDictionary()) : try readDictionary(depth: depth)
    default:
      throw fail("unknown element <\(Self.shortName(name))>")
    }
  }

  /// The text of a leaf element up to its end tag; child elements are an error.
  private mutating func readText(_ element: String) throws(PropertyListError) -> String {
    var text = ""
    while let event = try next() {
      switch event {
      case .text(let chunk):
        text += chunk
        guard text.utf8.count <= limits.maxStringBytes else {
          throw fail("<\(element)> text exceeds the limit of \(limits.maxStringBytes) bytes")
        }
      case .end: return text
      case .start(let name, _): throw fail("unexpected <\(Self.shortName(name))> inside <\(element)>")
      }
    }
    throw fail("unterminated <\(element)>")
  }

  private mutating func readArray(depth: Int) throws(PropertyListError) -> [PropertyListValue] {
    var elements: [PropertyListValue] = []
    while let event = try next() {
      switch event {
      case .start(let name, let isEmpty): elements.append(try readValue(name, isEmpty: isEmpty, depth: depth + 1))
      case .end: return elements
      case .text(let text):
        guard XMLScalars.trimmed(text).isEmpty else { throw fail("unexpected text in <array>") }
      }
    }
    throw fail("unterminated <array>")
  }

  /// `<key>`/value pairs; a dictionary of the single key `CF$UID` with an integer is a UID.
  private mutating func readDictionary(depth: Int) throws(PropertyListError) -> PropertyListValue {
    var entries: [(key: String, value: PropertyListValue)] = []
    var pendingKey: String?
    while let event = try next() {
      switch event {
      case .start(let name, let isEmpty):
        if let key = pendingKey {
          entries.append((key, try readValue(name, isEmpty: isEmpty, depth: depth + 1)))
          pendingKey = nil
        } else {
          guard name == "key" else { throw fail("expected <key> in <dict>, found <\(Self.shortName(name))>") }
          pendingKey = isEmpty ? "" : try readText(name)
        }
      case .end:
        guard pendingKey == nil else { throw fail("<key> without a value in <dict>") }
        let dictionary = PropertyListDictionary(entries)
        if dictionary.count == 1, case .integer(let uid)? = dictionary["CF$UID"] {
          guard let uid = UInt64(exactly: uid) else { throw fail("CF$UID \(uid) is not a UID (0 to 2^64-1)") }
          return .uid(uid)
        }
        return .dictionary(dictionary)
      case .text(let text):
        guard XMLScalars.trimmed(text).isEmpty else { throw fail("unexpected text in <dict>") }
      }
    }
    throw fail("unterminated <dict>")
  }

  /// Element names in messages, cut short (they come from the input).
  static func shortName(_ name: String) -> String { name.count > 40 ? name.prefix(40) + "…" : name }
}
